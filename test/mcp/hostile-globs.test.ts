/**
 * No glob stalls the server: `*a*a*a*a*a*a*a*a*b` against a 60-character name took the backtracking matcher
 * over 30 s on the main thread, freezing every session. Each entry point that takes a user glob runs it
 * while a second, ordinary call on the same server must be answered, and the hostile call itself must answer
 * (correctly). Judged by effect, not by a clock: the name has 250 characters, for which the backtracking
 * matcher needs about C(250, 8) ~ 10^14 tries, so a regression answers neither call before the test's
 * timeout. A glob over the length cap is refused with a clear error.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, serverPool } from "../helpers/in-process.js";

const HOSTILE = "*a*a*a*a*a*a*a*a*b";
const LONG_NAME = "a".repeat(250);
const area = tempArea("mcpfs-globs-");
const dir = area.tree("tree", {
  [LONG_NAME]: "needle\n",
  [`sub/${LONG_NAME}`]: "needle\n",
  "ok.txt": "fine\n",
});
afterAll(() => area.cleanup());
const start = serverPool();

type Reply = { isError: boolean; text: string };

/** Sends the hostile call, then the probe: both must be answered, the probe without error. */
async function expectNoStall(hostile: () => Promise<Reply>, probe: () => Promise<Reply>): Promise<Reply> {
  const running = hostile();
  const answered = await probe();
  expect(answered.isError, "an ordinary call while the hostile glob runs").toBe(false);
  return running;
}

describe("filesystem surface", () => {
  let conn: Connection;
  const probe = () => conn.call("read_text_file", { path: path.join(dir, "ok.txt") });

  it("search_files pattern", async () => {
    conn = await start([dir]);
    const r = await expectNoStall(
      () => conn.call("search_files", { path: dir, pattern: `**/${HOSTILE}` }),
      probe,
    );
    expect(r.isError).toBe(false);
    expect(r.text).toBe("No matches found");
  });

  it("search_files and directory_tree excludePatterns", async () => {
    const s = await expectNoStall(
      () => conn.call("search_files", { path: dir, pattern: "**/*", excludePatterns: [HOSTILE] }),
      probe,
    );
    expect(s.text).toContain(path.join(dir, "sub", LONG_NAME));
    const t = await expectNoStall(
      () => conn.call("directory_tree", { path: dir, excludePatterns: [HOSTILE] }),
      probe,
    );
    expect(t.isError).toBe(false);
    expect(t.text).toContain(LONG_NAME);
  });

  it.each(["js", "rg"])("grep glob (%s engine)", async (engine) => {
    const g = await start([dir], { env: { MCPFS_GREP_ENGINE: engine } });
    const r = await expectNoStall(
      () => g.call("grep", { path: dir, pattern: "needle", glob: HOSTILE }),
      () => g.call("read_text_file", { path: path.join(dir, "ok.txt") }),
    );
    expect(r.isError, r.text).toBe(false);
    expect(r.text).not.toContain(LONG_NAME);
  });

  it("a glob over the length cap is refused with a clear error", async () => {
    const r = await conn.call("search_files", { path: dir, pattern: "*a".repeat(600) });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Glob pattern too long \(1200 characters; the limit is 1024\)/);
  });
});

describe("workspace surface", () => {
  it("search_files glob", async () => {
    const conn = await start(["--project-dir", dir, "--console-only"]);
    const r = await expectNoStall(
      () => conn.call("search_files", { glob: HOSTILE }),
      () => conn.call("read_file", { file_path: "ok.txt" }),
    );
    expect(r.isError, r.text).toBe(false);
    expect(r.text).not.toContain(LONG_NAME);
  });
});
