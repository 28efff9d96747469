/**
 * No glob stalls the server: `*a*a*a*a*a*a*a*a*b` against a 60-character name took the backtracking matcher
 * over 30 s on the main thread, freezing every session. Each entry point that takes a user glob runs it
 * while a second, ordinary call on the same server must be answered within 2 s; the hostile call itself
 * answers (correctly) soon after. A glob over the length cap is refused with a clear error.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, serverPool } from "../helpers/in-process.js";

const HOSTILE = "*a*a*a*a*a*a*a*a*b";
const LONG_NAME = "a".repeat(60);
const area = tempArea("mcpfs-globs-");
const dir = area.tree("tree", {
  [LONG_NAME]: "needle\n",
  [`sub/${LONG_NAME}`]: "needle\n",
  "ok.txt": "fine\n",
});
afterAll(() => area.cleanup());
const start = serverPool();

type Reply = { isError: boolean; text: string };

/** Races `p` against `ms`: the reply, or "late". */
async function within(ms: number, p: Promise<Reply>): Promise<Reply | "late"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  const out = await Promise.race([p, late]);
  clearTimeout(timer);
  return out;
}

async function expectNoStall(hostile: () => Promise<Reply>, probe: () => Promise<Reply>): Promise<Reply> {
  const running = within(10_000, hostile());
  // Give the hostile call a head start so the probe queues behind it on the server.
  await new Promise((r) => setTimeout(r, 100));
  const answered = await within(2000, probe());
  expect(answered, "an ordinary call while the hostile glob runs").not.toBe("late");
  expect((answered as Reply).isError).toBe(false);
  const r = await running;
  expect(r, "the hostile call itself").not.toBe("late");
  return r as Reply;
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
