/**
 * One verified open: a file under a root is opened only by safe-open.ts (`openVerified*`, which prove the
 * descriptor through `checkDescriptor`) or by atomic-write.ts (its temp file, checked the same way). A
 * second open beside them — how the in-process grep and check_file_size once skipped the check — fails
 * here unless it is listed below with the reason it never opens a client's path.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../src");

/** Modules that may call open themselves, and why. */
const ALLOWED: Record<string, string> = {
  "core/fs/safe-open.ts": "the verified open itself (and its pins, claims and rule-file reads)",
  "core/fs/atomic-write.ts": "creates its temp in a pinned directory, then checkDescriptor",
  "core/root.ts": "start-up probes of a root itself, before any path is resolved",
  "core/journal/journal.ts": "the undo journal, in the user's state directory outside every root",
  "core/journal/change-log.ts": "the undo journal, in the user's state directory outside every root",
  "core/journal/change-records.ts": "the undo journal, in the user's state directory outside every root",
  "core/log.ts": "the log file named by --log-file or the project's logs/ at start-up",
};

/** `fs.open(`, `fsSync.openSync(`, `fs.promises.open(`, `openSync(` imported bare, `import { open }`. */
const OPEN =
  /\b(?:fs|fsSync|fsp|promises)\s*\.\s*open(?:Sync)?\s*\(|(?<![.\w])openSync\s*\(|import\s*\{[^}]*\bopen(?:Sync)?\b[^}]*\}\s*from\s*"node:fs/;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    // The unit tests beside the modules are not the server's code (they make their fixtures as they like).
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("one verified open", () => {
  it("only the listed modules open files", () => {
    const offenders = sources(SRC)
      .map((p) => path.relative(SRC, p).split(path.sep).join("/"))
      .filter((rel) => !(rel in ALLOWED) && OPEN.test(fs.readFileSync(path.join(SRC, rel), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the pattern sees each way of opening", () => {
    for (const line of [
      "await fs.open(real, flags)",
      "fsSync.openSync(p, 'r')",
      "fs.promises.open(p)",
      "const fd = openSync(p)",
      'import { open } from "node:fs/promises";',
    ])
      expect(OPEN.test(line), line).toBe(true);
    expect(OPEN.test("await fs.opendir(dir)")).toBe(false);
  });

  it("every listed module still opens something (no stale exception)", () => {
    for (const rel of Object.keys(ALLOWED))
      expect(OPEN.test(fs.readFileSync(path.join(SRC, rel), "utf8")), rel).toBe(true);
  });
});
