/**
 * Black-box: nothing lost means nothing flushed. The undo journal's size cap cannot push a recent change out
 * of reach of undo: a flood of writes after a delete leaves the delete undoable, and the call that would drop
 * it is refused with nothing changed (naming --journal-min-age and the change). Records count toward the cap
 * (a flood of new files keeps no previous versions at all). `--journal-min-age 0` drops as before.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { snapshotWithModes, tempArea } from "../helpers/fixtures.js";
import { type Connection, runCli, startServer, type TextResult } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

function changeIdOf(r: TextResult): string {
  const m = /^Change ([0-9a-z]{9}-[0-9a-f]{12})/.exec(r.change ?? "");
  expect(m, `${r.text}\n${r.change}`).not.toBeNull();
  return m![1]!;
}

/** Calls `next(i)` until a call is refused (at most `max` calls); returns the refusal. */
async function floodUntilRefused(
  conn: Connection,
  max: number,
  next: (i: number) => [string, Record<string, unknown>],
): Promise<{ refused: TextResult; calls: number; lastArgs: Record<string, unknown> }> {
  for (let i = 0; i < max; i++) {
    const [tool, args] = next(i);
    const r = await conn.call(tool, args);
    if (r.isError) return { refused: r, calls: i, lastArgs: args };
  }
  throw new Error(`no call refused in ${max}`);
}

async function withServer(
  args: string[],
  name: string,
  fn: (conn: Connection, root: string) => Promise<void>,
) {
  const root = area.tree(name, { "precious.txt": "precious\n", "tree/a.bin": "a".repeat(3000) });
  const conn = await startServer([root, "--journal-max-bytes", "12000", ...args], {
    env: { MCPFS_STATE_DIR: path.join(area.base, `state-${name}`) },
  });
  try {
    await fn(conn, root);
  } finally {
    await conn.close();
  }
}

describe("--journal-min-age", () => {
  it("a flood of overwrites after a delete: the delete stays undoable, the write that would drop it is refused", async () => {
    await withServer([], "overwrites", async (conn, root) => {
      const del = await conn.call("delete_file", { path: path.join(root, "precious.txt") });
      const id = changeIdOf(del);
      const junk = path.join(root, "junk.txt");
      const { refused, calls } = await floodUntilRefused(conn, 40, (i) => [
        "write_file",
        { path: junk, content: `${i}`.padEnd(1500, "x") },
      ]);
      expect(calls).toBeGreaterThan(2);
      expect(refused.text).toContain("--journal-min-age");
      expect(refused.text).toContain(id);
      expect(refused.text).toContain("delete_file");
      // Nothing changed: the file holds the last write that was accepted.
      expect(fs.readFileSync(junk, "utf8")).toBe(`${calls - 1}`.padEnd(1500, "x"));
      // The tree a delete_directory would keep does not fit either: refused, the tree in place.
      const before = snapshotWithModes(root);
      const dd = await conn.call("delete_directory", { path: path.join(root, "tree"), recursive: true });
      expect(dd.isError, dd.text).toBe(true);
      expect(dd.text).toContain("--journal-min-age");
      expect(snapshotWithModes(root)).toEqual(before);
      const undo = await conn.call("undo_change", { id });
      expect(undo.isError, undo.text).toBe(false);
      expect(fs.readFileSync(path.join(root, "precious.txt"), "utf8")).toBe("precious\n");
    });
  });

  it("records count: a flood of new files (no previous versions) is refused before it drops the delete", async () => {
    await withServer([], "records", async (conn, root) => {
      const id = changeIdOf(await conn.call("delete_file", { path: path.join(root, "precious.txt") }));
      const { refused, lastArgs } = await floodUntilRefused(conn, 200, (i) => [
        "write_file",
        { path: path.join(root, `n${i}.txt`), content: "n" },
      ]);
      expect(refused.text).toContain("--journal-min-age");
      expect(refused.text).toContain(id);
      expect(fs.existsSync(lastArgs.path as string)).toBe(false);
      const listed = await conn.call("list_changes", { path: path.join(root, "precious.txt") });
      expect(listed.text).toContain(id);
      expect((await conn.call("undo_change", { id })).isError).toBe(false);
      expect(fs.readFileSync(path.join(root, "precious.txt"), "utf8")).toBe("precious\n");
    });
  });

  it("--journal-min-age 0: the cap drops the oldest change, as before", async () => {
    await withServer(["--journal-min-age", "0"], "off", async (conn, root) => {
      const id = changeIdOf(await conn.call("delete_file", { path: path.join(root, "precious.txt") }));
      for (let i = 0; i < 12; i++) {
        const r = await conn.call("write_file", {
          path: path.join(root, "junk.txt"),
          content: `${i}`.padEnd(1500),
        });
        expect(r.isError, r.text).toBe(false);
      }
      const undo = await conn.call("undo_change", { id });
      expect(undo.isError).toBe(true);
      expect(undo.text).toMatch(/No change/);
    });
  });

  it("a duration needs its unit", async () => {
    const root = area.tree("bad-flag", {});
    for (const bad of ["5", "1w", "-1h"]) {
      const r = await runCli([root, "--journal-min-age", bad], { input: "" });
      expect(r.code, bad).not.toBe(0);
      expect(r.stderr, bad).toMatch(/--journal-min-age must be a duration/);
    }
  });
});
