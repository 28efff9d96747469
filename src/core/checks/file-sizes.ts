import fs from "node:fs/promises";
import path from "node:path";
import { type OpenTarget, openVerifiedFile, type VerifiedHandle } from "../fs/safe-open.js";
import { isIgnoredBy, levelsForDir } from "../ignore.js";
import { isGitDirName } from "../paths.js";
import { TextCheck } from "../text/decode.js";
import { LineCounter, lfPieces } from "../text/lines.js";
import { eachChunk } from "../text/reader.js";
import { walk } from "../walk.js";
import { namesOf, type Root } from "../workspace.js";

export const ALLOWLIST_NAME = ".large-files-allowlist";

export interface FileSizeReport {
  /** Over-limit files not allow-listed, most lines first. */
  violations: { path: string; lines: number }[];
  /** UTF-8 files counted. */
  checked: number;
  /** Over-limit files the allowlist exempts. */
  allowlisted: number;
  /** Allowlist entries that exempt nothing (under the limit, missing, binary or ignored), sorted. */
  stale: string[];
}

/** Allowlist entries: one path per line, `#` comments (whole-line or inline), backslashes as `/`. */
export function parseAllowlist(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of lfPieces(text.replace(/\r\n?/g, "\n"))) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const hash = line.indexOf("#");
    if (hash !== -1) line = line.slice(0, hash).trim();
    if (line !== "") out.add(line.replace(/\\/g, "/"));
  }
  return out;
}

/**
 * Lines of a UTF-8 text file as every read counts them (text/lines.ts: "a\nb" and "a\nb\n" are both 2; a
 * lone CR is content), streamed. Undefined for a file that is not valid UTF-8 or cannot be read.
 */
async function countTextLines(target: OpenTarget): Promise<number | undefined> {
  let fh: VerifiedHandle;
  try {
    const opened = await openVerifiedFile(target);
    fh = opened.fh;
    if (!opened.st.isFile()) {
      await fh.close();
      return undefined;
    }
  } catch {
    return undefined;
  }
  try {
    // The reads' decode policy: a file that is not text has no lines to count.
    const check = new TextCheck();
    const counter = new LineCounter();
    await eachChunk(fh, {}, (chunk) => {
      counter.push(chunk);
      return !check.push(chunk).ok(false);
    });
    return check.ok() ? counter.lines : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/** The allowlist's text through the verified open ("" when absent or not a file): a link there is not followed. */
async function readAllowlist(root: Root): Promise<string> {
  const target = { root, requested: ALLOWLIST_NAME, real: path.join(root.real, ALLOWLIST_NAME) };
  try {
    const { fh, st } = await openVerifiedFile(target);
    try {
      return st.isFile() ? await fh.readFile("utf8") : "";
    } finally {
      await fh.close();
    }
  } catch {
    return "";
  }
}

/**
 * mcp-workspace's check_file_size: every UTF-8 file under the project except `.git/` and what the
 * project-root `.gitignore` matches, counted and compared with `maxLines`; `.large-files-allowlist` exempts
 * exact paths, and its entries that exempt nothing are reported as stale.
 */
export async function checkFileSizes(
  root: Root,
  maxLines: number,
  signal?: AbortSignal,
): Promise<FileSizeReport> {
  const hasGitignore = await fs
    .lstat(path.join(root.real, ".gitignore"))
    .then((s) => s.isFile())
    .catch(() => false);
  const levels = levelsForDir([], root.real, "", "", hasGitignore, false, namesOf(root).foldsCase);
  const { entries } = await walk({
    root,
    start: root.real,
    gitignore: false,
    signal,
    exclude: (rel, isDir) =>
      isGitDirName(rel.split("/").pop(), namesOf(root).foldsCase) || isIgnoredBy(levels, rel, isDir),
    include: (_rel, isDir) => !isDir,
  });
  const allowText = await readAllowlist(root);
  const allow = parseAllowlist(allowText);
  const violations: FileSizeReport["violations"] = [];
  const exempted = new Set<string>();
  let checked = 0;
  const files = entries.filter((e) => e.type === "file");
  // A few files in flight at once: line counting is I/O bound.
  for (let i = 0; i < files.length; i += 16) {
    const batch = files.slice(i, i + 16);
    const counts = await Promise.all(
      batch.map((e) => countTextLines({ root, requested: e.rel, real: e.real })),
    );
    batch.forEach((e, k) => {
      const n = counts[k];
      if (n === undefined) return;
      checked++;
      if (n <= maxLines) return;
      if (allow.has(e.rel)) exempted.add(e.rel);
      else violations.push({ path: e.rel, lines: n });
    });
  }
  violations.sort((a, b) => b.lines - a.lines || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const stale = [...allow].filter((e) => !exempted.has(e)).sort();
  return { violations, checked, allowlisted: exempted.size, stale };
}
