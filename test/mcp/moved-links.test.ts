/**
 * Moves judge every link they carry (issue 27, item 6): moving a directory whose relative symlink would
 * resolve outside the roots from the new place is refused before anything changes, on both surfaces, as
 * the same move of the link itself is. Judged by effect: the tree stays where it was, nothing reads outside.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

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

describe("a directory holding a relative link that would point into a read-only root once moved", () => {
  // area/rw is writable, area/ro read-only (filesystem surface, --read-only-dir); rw/d/e/rel -> ../../ro/x.txt
  // names rw/ro/x.txt (absent) now, and area/ro/x.txt (in the read-only root) once e is moved to rw/e.
  const rw = area.tree("rw", { "d/e/keep.txt": "k\n", "d/ro-was-here.txt": "" });
  const ro = area.tree("ro", { "x.txt": "READ-ONLY\n" });
  fs.symlinkSync("../../ro/x.txt", path.join(rw, "d/e/rel"));

  it("is not moved (and nothing changes); a link that already pointed there moves", async () => {
    const conn = await startServer([rw, "--read-only-dir", ro]);
    try {
      const r = await conn.call("move_file", {
        source: path.join(rw, "d/e"),
        destination: path.join(rw, "e"),
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/read-only/);
      expect(fs.readlinkSync(path.join(rw, "d/e/rel"))).toBe("../../ro/x.txt");
      expect(fs.existsSync(path.join(rw, "e"))).toBe(false);
      // rw/f/already -> ../../ro/x.txt points into the read-only root before and after a move within rw/f.
      fs.mkdirSync(path.join(rw, "f/g"), { recursive: true });
      fs.symlinkSync("../../ro/x.txt", path.join(rw, "f/already"));
      const ok = await conn.call("move_file", {
        source: path.join(rw, "f"),
        destination: path.join(rw, "f2"),
      });
      expect(ok.isError, ok.text).toBe(false);
      expect(fs.readFileSync(path.join(rw, "f2/already"), "utf8")).toBe("READ-ONLY\n");
    } finally {
      await conn.close();
    }
  });
});
