import { z } from "zod";
import { byteLength, cutToBytes } from "../../core/budget.js";
import { mapLimit } from "../../core/concurrency.js";
import { toClientMessage } from "../../core/errors.js";
import { readTextFile, type TextRead } from "../../core/files/read.js";
import type { ResolvedPath } from "../../core/workspace.js";
import { defineTool, textReply } from "../tool.js";

/** Files read at once: enough to hide latency, bounded so 1,000 paths do not open 1,000 descriptors. */
const CONCURRENCY = 16;
/** Room kept for a per-file truncation note, and for the final "read on" line (besides its path). */
const NOTE_ROOM = 160;
const FINAL_NOTE_ROOM = 200;
const SEPARATOR_BYTES = 5;

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

export const readMultipleFilesTool = defineTool({
  name: "read_multiple_files",
  title: "Read Multiple Files",
  description:
    "Read several text files in one call; a failed file does not stop the others. They share one reply budget: when it is used up, the last line says where to go on.",
  input: z.object({
    paths: z.array(z.string()).min(1).describe("Files to read"),
  }),
  output: z.object({ content: z.string(), files: z.array(fileSchema).optional() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const budget = ctx.config.maxOutputBytes;
    // Phase 1: resolve every path (cheap), so phase 2 can hand out the budget in input order.
    const resolved = await mapLimit(args.paths, CONCURRENCY, async (p) => {
      try {
        return { target: await ctx.ws.resolve(p, { intent: "read" }) };
      } catch (err) {
        return { error: toClientMessage(err, p) };
      }
    });
    // Phase 2: read in order-preserving batches; each file gets what is left of the budget. Every piece
    // (text, headers, markers, errors) is charged, and a final line stands for files that got no room at all.
    // The last line names a path, so its room grows with the longest one.
    let remaining = budget - FINAL_NOTE_ROOM - args.paths.reduce((m, p) => Math.max(m, byteLength(p)), 0);
    const pieces: string[] = [];
    const files: z.infer<typeof fileSchema>[] = [];
    // The first path that got no room: it and every later one are left for the next call.
    let firstSkipped: number | undefined;
    const add = (piece: string) => {
      pieces.push(piece);
      remaining -= byteLength(piece) + SEPARATOR_BYTES;
    };
    for (let start = 0; start < args.paths.length; start += CONCURRENCY) {
      const batch = resolved.slice(start, start + CONCURRENCY);
      const share = firstSkipped === undefined ? Math.max(0, remaining - NOTE_ROOM) : 0;
      const reads = await mapLimit(batch, CONCURRENCY, async (r) =>
        r.target && share > 0 ? readOne(r.target, share) : undefined,
      );
      for (const [k, read] of reads.entries()) {
        const i = start + k;
        const p = args.paths[i]!;
        const r = batch[k]!;
        const error = r.error ?? (read && "error" in read ? read.error : undefined);
        const skip = () => {
          firstSkipped ??= i;
          files.push({ path: p, ok: !error, ...(error ? { error } : { skipped: true }) });
        };
        if (firstSkipped !== undefined) {
          skip();
          continue;
        }
        if (error) {
          const marker = `${p}: Error - ${error}`;
          if (byteLength(marker) + SEPARATOR_BYTES > remaining) {
            skip();
            continue;
          }
          add(marker);
          files.push({ path: p, ok: false, error });
          continue;
        }
        if (!read || "error" in read || remaining - byteLength(p) - NOTE_ROOM <= 0) {
          skip();
          continue;
        }
        // Room for the header, the trailing newline and a possible note besides the text itself.
        const overhead = byteLength(p) + 3 + NOTE_ROOM;
        let text = read.text;
        let truncated = read.truncated;
        if (byteLength(text) + overhead > remaining) {
          text = cutToBytes(text, Math.max(0, remaining - overhead)).text;
          truncated = true;
        }
        // Only the first file shown may be shown in part: any later one is left whole for the next call.
        if (truncated && pieces.length > 0) {
          skip();
          continue;
        }
        if (truncated) {
          // Cut on a whole line, so the startLine given repeats nothing and skips nothing.
          const nl = text.lastIndexOf("\n");
          if (nl >= 0) text = text.slice(0, nl + 1);
          const shown = text === "" ? 0 : text.split("\n").length - 1;
          text +=
            `[mcpfs: output truncated: lines 1-${shown} of this file (${read.size} bytes) shown. ` +
            `Read the rest with read_text_file startLine=${shown + 1}.]`;
        }
        if (read.sha256 && !truncated) ctx.reads.remember(read.sha256, read.text);
        add(`${p}:\n${text}\n`);
        files.push({
          path: p,
          ok: true,
          size: read.size,
          truncated,
          ...(read.sha256 && !truncated ? { sha256: read.sha256 } : {}),
          ...(read.mtimeMs !== undefined ? { mtime: new Date(read.mtimeMs).toISOString() } : {}),
        });
      }
    }
    if (firstSkipped !== undefined) {
      const left = args.paths.length - firstSkipped;
      pieces.push(
        `[mcpfs: the reply budget of ${budget} bytes is used up; ${left} of ${args.paths.length} files not read. ` +
          `Read on with read_multiple_files from paths[${firstSkipped}] = ${JSON.stringify(args.paths[firstSkipped])}.]`,
      );
    }
    return textReply(pieces.join("\n---\n"), { files });
  },
});

async function readOne(target: ResolvedPath, limit: number): Promise<TextRead | { error: string }> {
  try {
    return await readTextFile(target, { budget: limit });
  } catch (err) {
    return { error: toClientMessage(err, target.requested) };
  }
}
