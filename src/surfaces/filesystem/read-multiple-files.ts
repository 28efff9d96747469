import { z } from "zod";
import { ANY_COUNT, type ReplyBudget, widest } from "../../core/budget.js";
import { mapLimit } from "../../core/concurrency.js";
import { isServerFault } from "../../core/errors.js";
import { escapeName } from "../../core/paths.js";
import { countLines } from "../../core/text/lines.js";
import { readTextFile, type TextRead } from "../../core/text/read-file.js";
import type { ResolvedPath } from "../../core/workspace.js";
import { defineTool, encodingFor, encodingParam, type ToolContext, textReply } from "../tool.js";
import { clientMessage } from "../wording.js";

/** Files read at once: enough to hide latency, bounded so 1,000 paths do not open 1,000 descriptors. */
const CONCURRENCY = 16;
const SEPARATOR = "\n---\n";

const fileSchema = z.object({
  path: z.string(),
  ok: z.boolean(),
  size: z.number().optional(),
  truncated: z.boolean().optional().describe("only part of the file fit in the shared output budget"),
  skipped: z.boolean().optional().describe("not read: the output budget was used up by earlier files"),
  sha256: z.string().optional().describe("sha256 of the file's bytes (complete reads only)"),
  mtime: z.string().optional().describe("last modification time of the file read, ISO 8601"),
  error: z.string().optional(),
});
type FileRecord = z.infer<typeof fileSchema>;

const partNote = (shown: number, size: number) =>
  `[mcpfs: output truncated: lines 1-${shown} of this file (${size} bytes) shown. ` +
  `Read the rest with read_text_file startLine=${shown + 1}.]`;

const restNote = (limit: number, paths: readonly string[], from: number, path = paths[from]) =>
  `[mcpfs: the reply budget of ${limit} bytes is used up; ${paths.length - from} of ${paths.length} files not read. ` +
  `Read on with read_multiple_files from paths[${from}] = ${JSON.stringify(path)}.]`;

/** One file's failure, worded in its place; a server fault fails the call (the runner logs and words it). */
function itemError(err: unknown, requested: string): string {
  if (isServerFault(err)) throw err;
  return clientMessage(err, requested);
}

type Resolved = { target: ResolvedPath; error?: undefined } | { target?: undefined; error: string };

/** Every path resolved first (cheap), so the budget can then be handed out in input order. */
function resolveAll(ctx: ToolContext, paths: readonly string[]): Promise<Resolved[]> {
  return mapLimit(paths, CONCURRENCY, async (p): Promise<Resolved> => {
    try {
      return { target: await ctx.ws.resolve(p, { intent: "read" }) };
    } catch (err) {
      return { error: itemError(err, p) };
    }
  });
}

/**
 * The reply's pieces, in input order, each charged to the budget. Only the first file shown may be shown
 * in part (cut on a whole line, so the startLine named repeats nothing and skips nothing); from the first
 * file that gets no room on, every path is left for the next call.
 */
class Pieces {
  readonly texts: string[] = [];
  readonly files: FileRecord[] = [];
  /** The first path that got no room. */
  firstSkipped: number | undefined;

  constructor(
    private readonly budget: ReplyBudget,
    private readonly ctx: ToolContext,
  ) {}

  skip(i: number, path: string, error?: string): void {
    this.firstSkipped ??= i;
    this.files.push({ path, ok: !error, ...(error ? { error } : { skipped: true }) });
  }

  error(i: number, path: string, error: string): void {
    const marker = `${escapeName(path)}: Error - ${error}`;
    if (!this.budget.take(marker + SEPARATOR)) {
      this.skip(i, path, error);
      return;
    }
    this.texts.push(marker);
    this.files.push({ path, ok: false, error });
  }

  file(i: number, path: string, read: TextRead): void {
    const head = `${escapeName(path)}:\n`;
    if (!read.truncated && this.budget.take(`${head}${read.text}\n${SEPARATOR}`)) {
      this.shown(path, read, read.text, false);
      return;
    }
    const widestNote = partNote(ANY_COUNT, ANY_COUNT);
    if (this.texts.length > 0 || !this.budget.fits(`${head}\n${SEPARATOR}${widestNote}`)) {
      this.skip(i, path);
      return;
    }
    this.budget.take(`${head}\n${SEPARATOR}`);
    const close = this.budget.reserve(widestNote);
    let text = this.budget.cut(read.text).text;
    const nl = text.lastIndexOf("\n");
    if (nl >= 0) text = text.slice(0, nl + 1);
    // Whole lines only: the text now ends with a line break, or holds none.
    const shown = nl >= 0 ? countLines(text) : 0;
    this.shown(path, read, text + close(partNote(shown, read.size)), true);
  }

  private shown(path: string, read: TextRead, text: string, truncated: boolean): void {
    if (read.sha256 && !truncated) this.ctx.reads.remember(read.sha256, read.text);
    this.texts.push(`${escapeName(path)}:\n${text}\n`);
    this.files.push({
      path,
      ok: true,
      size: read.size,
      truncated,
      ...(read.sha256 && !truncated ? { sha256: read.sha256 } : {}),
      ...(read.mtimeMs !== undefined ? { mtime: new Date(read.mtimeMs).toISOString() } : {}),
    });
  }
}

export const readMultipleFilesTool = defineTool({
  name: "read_multiple_files",
  title: "Read Multiple Files",
  description:
    "Read several text files in one call; a failed file does not stop the others. They share one reply budget: when it is used up, the last line says where to go on.",
  input: z.object({
    paths: z.array(z.string()).min(1).describe("Files to read"),
    encoding: encodingParam,
  }),
  output: z.object({ content: z.string(), files: z.array(fileSchema).optional() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const budget = ctx.budget;
    const resolved = await resolveAll(ctx, args.paths);
    // The last line names a path: its room is held with the widest one.
    const closeRest = budget.reserve(restNote(budget.limit, args.paths, 0, widest(args.paths)));
    const out = new Pieces(budget, ctx);
    // Read in order-preserving batches; each file of a batch may read what is left of the budget.
    for (let start = 0; start < args.paths.length; start += CONCURRENCY) {
      const batch = resolved.slice(start, start + CONCURRENCY);
      const share = out.firstSkipped === undefined ? budget.remaining : 0;
      const reads = await mapLimit(batch, CONCURRENCY, async (r) =>
        r.target && share > 0 ? readOne(r.target, share, encodingFor(ctx, args.encoding)) : undefined,
      );
      for (const [k, read] of reads.entries()) {
        const i = start + k;
        const p = args.paths[i]!;
        const error = batch[k]!.error ?? (read && "error" in read ? read.error : undefined);
        if (out.firstSkipped !== undefined) out.skip(i, p, error);
        else if (error) out.error(i, p, error);
        else if (!read || "error" in read) out.skip(i, p);
        else out.file(i, p, read);
      }
    }
    if (out.firstSkipped !== undefined)
      out.texts.push(closeRest(restNote(budget.limit, args.paths, out.firstSkipped)));
    return textReply(out.texts.join(SEPARATOR), { files: out.files });
  },
});

async function readOne(
  target: ResolvedPath,
  limit: number,
  encoding: string | undefined,
): Promise<TextRead | { error: string }> {
  try {
    return await readTextFile(target, { budget: limit, encoding });
  } catch (err) {
    return { error: itemError(err, target.requested) };
  }
}
