import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolError } from "../errors.js";
import { withoutCr } from "../files/text-lines.js";
import { ancestorLevels, createIgnoreOracle, type IgnoreLevel, isIgnoredStart } from "../ignore.js";
import { namesOf } from "../workspace.js";
import { anchorGlobs } from "./globs.js";
import type { EngineJob, GrepLine, GrepMatch, RawGrep } from "./grep.js";
import { cutLine } from "./lines.js";
import { rgJsonLines } from "./rg-json-lines.js";

/** The ripgrep binary shipped inside @vscode/ripgrep, when it is installed and executable. */
export async function findRipgrep(): Promise<string | undefined> {
  try {
    const { rgPath } = (await import("@vscode/ripgrep")) as { rgPath: string };
    fs.accessSync(rgPath, fs.constants.X_OK);
    return rgPath;
  } catch {
    return undefined;
  }
}

/**
 * Ancestor rules rewritten for ripgrep's `--ignore-file`, whose patterns are matched relative to its working
 * directory (the root): a rule of `a/.gitignore` becomes `/a/**\/rule` (unanchored) or `/a/rule` (anchored).
 */
export function rebaseRules(levels: readonly IgnoreLevel[]): string[] {
  const out: string[] = [];
  for (const lv of levels) {
    for (const raw of lv.lines) {
      const line = raw.replace(/(?<!\\)\s+$/, "");
      if (lv.dirFromRoot === "") {
        out.push(line);
        continue;
      }
      const negated = line.startsWith("!");
      const body = negated ? line.slice(1) : line;
      const dirOnly = body.endsWith("/");
      const core = dirOnly ? body.slice(0, -1) : body;
      const rebased = core.includes("/")
        ? `/${lv.dirFromRoot}/${core.replace(/^\//, "")}`
        : `/${lv.dirFromRoot}/**/${core}`;
      out.push(`${negated ? "!" : ""}${rebased}${dirOnly ? "/" : ""}`);
    }
  }
  return out;
}

interface RgText {
  text?: string;
  bytes?: string;
}

const decode = (t: RgText | undefined): string =>
  t?.text ?? (t?.bytes ? Buffer.from(t.bytes, "base64").toString("utf8") : "");

function lineText(t: RgText | undefined): string {
  const s = decode(t);
  // A CRLF line's CR is not shown; a final line without a break keeps a CR as content (text-lines.ts).
  return s.endsWith("\n") ? withoutCr(s.slice(0, -1)) : s;
}

/**
 * Runs ripgrep from the root with the walker's rules: .gitignore (nested too) and .git/info/exclude even
 * outside a git repository, hidden files included, .git/ skipped, no global/.ignore/.rgignore files, no
 * parent directories outside the root (the rules between root and start are passed as an ignore file).
 */
export async function grepWithRipgrep(job: EngineJob, rgPath: string): Promise<RawGrep> {
  const { root, start } = job;
  const startRel = path.relative(root.real, start).split(path.sep).join("/");
  const isFile = fs.statSync(start).isFile();
  // ripgrep searches a folder it is given whatever the rules say; the walker finds nothing there.
  if (job.gitignore && !isFile && isIgnoredStart(root, start))
    return { matches: [], files: [], capped: false };
  const args = ["--json", "--no-config", "--hidden", "--crlf", "--no-messages", "--color=never"];
  args.push(job.caseSensitive === false ? "-i" : "-s");
  if (job.literal) args.push("-F");
  if (job.filesOnly) args.push("-m", "1");
  else if (job.contextLines && job.contextLines > 0) args.push("-C", String(job.contextLines));
  let ignoreFile: string | undefined;
  const positiveGlobs = (job.globs ?? []).some((g) => g !== "" && !g.startsWith("!"));
  if (job.gitignore) {
    args.push("--no-ignore-global", "--no-ignore-dot", "--no-ignore-parent", "--no-require-git");
    const rules = isFile ? [] : rebaseRules(ancestorLevels(root, start));
    if (rules.length > 0) {
      ignoreFile = path.join(os.tmpdir(), `mcpfs-rg-${randomBytes(8).toString("hex")}.ignore`);
      fs.writeFileSync(ignoreFile, `${rules.join("\n")}\n`, { flag: "wx", mode: 0o600 });
      args.push("--ignore-file", ignoreFile);
    }
  } else {
    args.push("--no-ignore");
  }
  for (const g of anchorGlobs(job.globs ?? [], isFile ? "" : startRel)) args.push("-g", g);
  // On a case-insensitive volume rules and the fixed exclusions fold case, as the walker's (namesOf).
  const folds = namesOf(root).foldsCase;
  if (folds && job.gitignore) args.push("--ignore-file-case-insensitive");
  const fixed = folds ? "--iglob" : "-g";
  args.push(fixed, "!.mcpfs-????????????????.tmp");
  if (job.gitignore) args.push(fixed, "!.git");
  args.push("-e", job.pattern, "--", startRel === "" ? "." : startRel);
  // A positive -g glob overrides gitignore in ripgrep; such hits are re-checked against the rules.
  const ignored = job.gitignore && positiveGlobs && !isFile ? createIgnoreOracle(root, start) : undefined;
  const strip = isFile ? "" : startRel === "" ? "./" : `${startRel}/`;
  const toRel = (p: string) =>
    isFile ? path.basename(start) : p.startsWith(strip) ? p.slice(strip.length) : p;

  try {
    return await run(rgPath, args, root.real, job, toRel, ignored);
  } finally {
    if (ignoreFile) fs.rmSync(ignoreFile, { force: true });
  }
}

function run(
  rgPath: string,
  args: string[],
  cwd: string,
  job: EngineJob,
  toRel: (p: string) => string,
  ignored: ((rel: string, isDir: boolean) => boolean) | undefined,
): Promise<RawGrep> {
  return new Promise<RawGrep>((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const matches: GrepMatch[] = [];
    const files: string[] = [];
    let capped = false;
    let stderr = "";
    let settled = false;
    const ctx = job.contextLines && !job.filesOnly ? job.contextLines : 0;
    const cut = job.formatLine ?? cutLine;
    // Lines of the current file (matches and context) to attach before/after context afterwards.
    let current: { path: string; skip: boolean; lines: Map<number, string>; hits: GrepMatch[] } | undefined;

    const stop = () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    };
    const onAbort = () => {
      stop();
      settle(new ToolError("Cancelled", "cancelled"));
    };
    job.signal?.addEventListener("abort", onAbort, { once: true });
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      job.signal?.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve({ matches, files, capped });
    };
    // A cancel that landed while the engine was being picked fires no event: stop at once.
    if (job.signal?.aborted) onAbort();

    const endFile = () => {
      if (!current) return;
      if (!current.skip && current.hits.length > 0) {
        files.push(current.path);
        if (ctx > 0) {
          for (const m of current.hits) {
            m.before = around(current.lines, m.line - ctx, m.line - 1);
            m.after = around(current.lines, m.line + 1, m.line + ctx);
          }
        }
        matches.push(...current.hits);
        const count = job.filesOnly ? files.length : matches.length;
        if (count >= job.collectCap) {
          capped = true;
          stop();
        }
      }
      current = undefined;
    };

    const onMessage = (msg: { type: string; data: Record<string, unknown> }) => {
      const d = msg.data as {
        path?: RgText;
        lines?: RgText;
        line_number?: number;
        submatches?: { start: number }[];
      };
      if (msg.type === "begin") {
        const rel = toRel(decode(d.path));
        current = { path: rel, skip: ignored?.(rel, false) ?? false, lines: new Map(), hits: [] };
      } else if (msg.type === "end") {
        endFile();
      } else if ((msg.type === "match" || msg.type === "context") && current && !current.skip) {
        const text = lineText(d.lines);
        const no = d.line_number ?? 0;
        if (ctx > 0) current.lines.set(no, cut(text, 0));
        if (msg.type === "match") {
          const byteCol = d.submatches?.[0]?.start ?? 0;
          const col = byteCol === 0 ? 0 : Buffer.from(text).subarray(0, byteCol).toString("utf8").length;
          current.hits.push({
            path: current.path,
            line: no,
            text: cut(text, col),
            before: [],
            after: [],
          });
        }
      }
    };
    rgJsonLines(
      child.stdout,
      (line) => {
        if (capped || settled) return;
        try {
          onMessage(JSON.parse(line));
        } catch {}
      },
      (head, after, bytes) => {
        if (capped || settled) return;
        const msg = longMatch(head, after, bytes);
        if (msg) onMessage(msg);
      },
    );
    child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString();
    });
    child.on("error", (err) => settle(new ToolError(`Search failed to start: ${err.message}`, "io")));
    child.on("close", (code) => {
      if (settled) return;
      endFile();
      if (capped || code === 0 || code === 1) return settle();
      // Exit 2 also reports unreadable files (silenced by --no-messages); only a bad pattern is an error.
      const bad = rgError(stderr);
      settle(bad ? new ToolError(bad) : undefined);
    });
  });
}

/**
 * A match or context record whose line was too long to hold (see rgJsonLines): the line's text is replaced
 * by a marker that says how long it is and where the match starts. `undefined` when it cannot be read.
 */
function longMatch(
  head: string,
  after: string,
  bytes: number,
): { type: string; data: Record<string, unknown> } | undefined {
  let msg: { type: string; data: Record<string, unknown> };
  try {
    msg = JSON.parse(`${head}"}}}`);
  } catch {
    return undefined;
  }
  const no = /"line_number":(\d+)/.exec(after);
  const start =
    /"submatches":\[\{"match":\{"(?:text|bytes)":"((?:[^"\\]|\\.){0,200})[\s\S]*?"start":(\d+)/.exec(after);
  let what = start ? `; a match starts at byte ${start[2]} of it` : "";
  try {
    if (start) what += `: ${JSON.parse(`"${start[1]}"`)}`;
  } catch {}
  msg.data.lines = { text: `[mcpfs: a line of about ${bytes} bytes, too long to show${what}]` };
  if (no) msg.data.line_number = Number(no[1]);
  msg.data.submatches = [];
  return msg;
}

function around(lines: Map<number, string>, from: number, to: number): GrepLine[] {
  const out: GrepLine[] = [];
  for (let n = Math.max(1, from); n <= to; n++) {
    const t = lines.get(n);
    if (t !== undefined) out.push({ line: n, text: t });
  }
  return out;
}

/** ripgrep's own message for a bad pattern (it names no path), or undefined. */
function rgError(stderr: string): string | undefined {
  const text = stderr.trim();
  if (!/regex parse error|error parsing regex|syntax error|compiled regex exceeds/i.test(text))
    return undefined;
  return `Invalid regular expression: ${text.replace(/^rg: /, "").slice(0, 1000)}`;
}
