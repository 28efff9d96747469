/**
 * The cut is final: a mutating tool's reply, with the undo journal's "Change <id>" line, fits
 * `--max-output-bytes` whole — the runner holds room for that line before the tool runs — and the tool's own
 * note says how to go on (the runner's last-resort cut never fires). Both surfaces.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const BUDGET = 2048;
const area = tempArea("mcpfs-final-cut-");
afterAll(() => area.cleanup());
const lines = `${Array.from({ length: 1000 }, (_, i) => `v${i}`).join("\n")}\n`;

const replyBytes = (r: { raw: { content?: { type: string; text?: string }[] } }) =>
  (r.raw.content ?? []).reduce((n, c) => n + (c.type === "text" ? Buffer.byteLength(c.text ?? "") : 0), 0);

describe.each([
  [
    "filesystem",
    (dir: string) => [dir],
    (p: string) => ({ path: p, edits: [{ oldText: "v", newText: "x", replaceAll: true }] }),
  ],
  [
    "workspace",
    (dir: string) => ["--project-dir", dir],
    (p: string) => ({ file_path: path.basename(p), old_string: "v", new_string: "x", replace_all: true }),
  ],
] as const)("%s surface: edit_file with a long diff at a small budget", (surface, argsOf, editArgs) => {
  const dir = area.tree(surface, { "long.txt": lines });
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", String(BUDGET), ...argsOf(dir)]);
  });
  afterAll(() => conn?.close());

  it("fits the budget with its change line, cut by the tool's own note", async () => {
    const r = await conn.call("edit_file", editArgs(path.join(dir, "long.txt")));
    expect(r.isError).toBe(false);
    expect(r.change).toMatch(/^Change \S+ \(undo_change takes it back\)/);
    expect(replyBytes(r)).toBeLessThanOrEqual(BUDGET);
    expect(r.text).not.toContain("[mcpfs: reply cut at the");
    expect(conn.stderr()).not.toContain("final cut fired");
  });
});
