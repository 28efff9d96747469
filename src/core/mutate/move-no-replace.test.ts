import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { makeRoot, Workspace } from "../workspace.js";
import { makeDirectory } from "./make-directory.js";
import { moveNoReplace as moveEntry } from "./move-no-replace.js";

const area = tempArea();
afterAll(() => area.cleanup());

async function workspace(dir: string): Promise<Workspace> {
  return new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
}

describe("moveEntry, forced through the cross-device path (copy + remove)", () => {
  it("copies a tree with its modes, times and symlinks, then removes the source", async () => {
    const root = area.tree("copy", { "src/a.txt": "A", "src/sub/b.txt": "B" });
    fs.chmodSync(path.join(root, "src/a.txt"), 0o700);
    fs.symlinkSync("a.txt", path.join(root, "src/ln"));
    const past = new Date("2021-05-05T00:00:00Z");
    fs.utimesSync(path.join(root, "src/sub/b.txt"), past, past);
    const ws = await workspace(root);
    const src = await ws.resolveEntry(path.join(root, "src"), { intent: "write" });
    const dst = await ws.resolveEntry(path.join(root, "dst"), { intent: "write" });
    const r = await moveEntry(src, dst, { forceCopy: true });
    expect(r).toEqual({ copied: true, type: "dir" });
    expect(fs.existsSync(path.join(root, "src"))).toBe(false);
    expect(fs.statSync(path.join(root, "dst/a.txt")).mode & 0o777).toBe(0o700);
    expect(fs.readlinkSync(path.join(root, "dst/ln"))).toBe("a.txt");
    expect(fs.statSync(path.join(root, "dst/sub/b.txt")).mtime.getTime()).toBe(past.getTime());
    expect(fs.readdirSync(root)).toEqual(["dst"]);
  });

  it("moves a symlink as the link", async () => {
    const root = area.tree("link", { "t.txt": "T" });
    fs.symlinkSync("t.txt", path.join(root, "l"));
    const ws = await workspace(root);
    const src = await ws.resolveEntry(path.join(root, "l"), { intent: "write" });
    const dst = await ws.resolveEntry(path.join(root, "m"), { intent: "write" });
    expect(await moveEntry(src, dst, { forceCopy: true })).toEqual({ copied: true, type: "symlink" });
    expect(fs.readlinkSync(path.join(root, "m"))).toBe("t.txt");
    expect(fs.readFileSync(path.join(root, "t.txt"), "utf8")).toBe("T");
  });

  it("refuses an existing destination and a directory moved into itself", async () => {
    const root = area.tree("refuse", { "a.txt": "A", "b.txt": "B", "d/x": "x" });
    const ws = await workspace(root);
    const a = await ws.resolveEntry(path.join(root, "a.txt"), { intent: "write" });
    const b = await ws.resolveEntry(path.join(root, "b.txt"), { intent: "write" });
    expect(await wordedRejection(moveEntry(a, b, { forceCopy: true }))).toMatch(/Destination already exists/);
    const d = await ws.resolveEntry(path.join(root, "d"), { intent: "write" });
    const inside = await ws.resolveEntry(path.join(root, "d/inner"), { intent: "write" });
    expect(await wordedRejection(moveEntry(d, inside))).toMatch(/into itself/);
    expect(fs.readFileSync(path.join(root, "b.txt"), "utf8")).toBe("B");
  });

  it("a dangling destination symlink counts as an existing destination", async () => {
    const root = area.tree("dangling", { "a.txt": "A" });
    fs.symlinkSync("nowhere", path.join(root, "dl"));
    const ws = await workspace(root);
    const a = await ws.resolveEntry(path.join(root, "a.txt"), { intent: "write" });
    const dl = await ws.resolveEntry(path.join(root, "dl"), { intent: "write" });
    expect(await wordedRejection(moveEntry(a, dl))).toMatch(/Destination already exists/);
  });
});

describe("makeDirectory", () => {
  it("creates nested directories, accepts an existing one, refuses a file in the way", async () => {
    const root = area.tree("mk", { "f.txt": "x" });
    const ws = await workspace(root);
    expect(await makeDirectory(await ws.resolve(path.join(root, "a/b/c"), { intent: "write" }))).toEqual({
      created: true,
    });
    expect(await makeDirectory(await ws.resolve(path.join(root, "a/b"), { intent: "write" }))).toEqual({
      created: false,
    });
    expect(
      await wordedRejection(makeDirectory(await ws.resolve(path.join(root, "f.txt"), { intent: "write" }))),
    ).toMatch(/not a directory/);
  });
});
