/**
 * Moves judge every link they carry (issue 27, item 6): moving a directory whose relative symlink would
 * resolve outside the roots from the new place is refused before anything changes, on both surfaces, as
 * the same move of the link itself is. Judged by effect: the tree stays where it was, nothing reads outside.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-moved-links-");
// The root is area/root; area/t.txt beside it is outside. root/a/b/rel -> ../../t.txt points at root/t.txt
// now, and at area/t.txt (outside) once b is moved to root/b.
const root = area.tree("root", { "t.txt": "inside\n", "a/b/keep.txt": "k\n" });
fs.writeFileSync(path.join(area.base, "t.txt"), "SECRET-OUTSIDE\n");
fs.symlinkSync("../../t.txt", path.join(root, "a/b/rel"));
let fsConn: Connection;
let wsConn: Connection;

beforeAll(async () => {
  fsConn = await startServer([root]);
  wsConn = await startServer(["--project-dir", root]);
});
afterAll(async () => {
  await fsConn?.close();
  await wsConn?.close();
  area.cleanup();
});

function unchanged(): void {
  expect(fs.readlinkSync(path.join(root, "a/b/rel"))).toBe("../../t.txt");
  expect(fs.existsSync(path.join(root, "b"))).toBe(false);
  expect(fs.existsSync(path.join(root, "c"))).toBe(false);
}

describe("a directory holding a relative link that would point outside once moved", () => {
  it("is not moved by move_file (filesystem surface), as the link itself is not", async () => {
    const link = await fsConn.call("move_file", {
      source: path.join(root, "a/b/rel"),
      destination: path.join(root, "b-rel"),
    });
    expect(link.isError).toBe(true);
    const dir = await fsConn.call("move_file", {
      source: path.join(root, "a/b"),
      destination: path.join(root, "b"),
    });
    expect(dir.isError).toBe(true);
    unchanged();
    const read = await fsConn.call("read_text_file", { path: path.join(root, "b/rel") });
    expect(JSON.stringify(read.raw)).not.toContain("SECRET-OUTSIDE");
  });

  it("is not moved by move_file (workspace surface) nor copied by copy_file", async () => {
    const dir = await wsConn.call("move_file", { source_path: "a/b", destination_path: "c" });
    expect(JSON.stringify(dir.raw)).not.toContain('"result":true');
    unchanged();
    const copy = await fsConn.call("copy_file", {
      source: path.join(root, "a/b"),
      destination: path.join(root, "c"),
    });
    expect(copy.isError).toBe(true);
    unchanged();
  });

  it("a move that keeps the link inside still works", async () => {
    const ok = await fsConn.call("move_file", {
      source: path.join(root, "a/b"),
      destination: path.join(root, "a/b2"),
    });
    expect(ok.isError).toBe(false);
    expect(fs.readFileSync(path.join(root, "a/b2/rel"), "utf8")).toBe("inside\n");
  });
});
