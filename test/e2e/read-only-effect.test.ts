/**
 * Read-only roots are enforced by effect: a read-only directory nested two levels inside a writable root
 * survives every mutating tool aimed at it, at its parent or at its grandparent — every byte, mode and name
 * under it is unchanged afterwards.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { snapshotWithModes, tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-ro-effect-");
afterAll(() => area.cleanup());

/** A fresh writable root `w` with `w/a/b/ro` (read-only), a sibling file and a copy source tree. */
function fixture(name: string) {
  const w = area.tree(name, {
    "ok.txt": "ok\n",
    "a/b/ro/f.txt": "protected\n",
    "a/b/ro/sub/g.sh": "#!/bin/sh\necho g\n",
    "a/b/side.txt": "side\n",
    "other/b/ro/f.txt": "overwritten\n",
    "other/b/ro/sub/g.sh": "overwritten\n",
  });
  fs.chmodSync(path.join(w, "a/b/ro/sub/g.sh"), 0o750);
  fs.chmodSync(path.join(w, "a/b/ro/f.txt"), 0o640);
  return { w, ro: path.join(w, "a/b/ro") };
}

function expectRefused(r: { isError: boolean; text: string }, what: string) {
  expect(r.isError, `${what}: ${r.text}`).toBe(true);
}

describe("filesystem surface: a read-only dir two levels inside a writable root", () => {
  let w: string;
  let ro: string;
  let conn: Connection;
  beforeEach(async () => {
    ({ w, ro } = fixture(`fs-${Math.random().toString(16).slice(2)}`));
    conn = await startServer([w, "--read-only-dir", ro]);
    return () => conn.close();
  });

  it("survives every mutating tool aimed at it, its parent or its grandparent", async () => {
    const before = snapshotWithModes(ro);
    const okBefore = fs.readFileSync(path.join(w, "ok.txt"), "utf8");
    const j = (rel: string) => path.join(w, rel);
    const patch = [
      "--- a/a/b/ro/f.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-protected",
      "diff --git a/a/b/ro/sub/g.sh b/a/b/moved.sh",
      "similarity index 100%",
      "rename from a/b/ro/sub/g.sh",
      "rename to a/b/moved.sh",
      "",
    ].join("\n");
    const calls: [string, Record<string, unknown>, string][] = [
      ["delete_directory", { path: j("a"), recursive: true }, j("a")],
      ["delete_directory", { path: j("a/b"), recursive: true }, j("a/b")],
      ["delete_directory", { path: ro, recursive: true }, ro],
      ["move_file", { source: j("a"), destination: j("moved-a") }, j("a")],
      ["move_file", { source: j("a/b"), destination: j("moved-b") }, j("a/b")],
      ["move_file", { source: ro, destination: j("moved-ro") }, ro],
      ["move_file", { source: j("ok.txt"), destination: j("a/b/ro/f.txt") }, j("a/b/ro/f.txt")],
      ["copy_file", { source: j("other"), destination: j("a"), overwrite: true }, j("a")],
      ["copy_file", { source: j("other/b"), destination: j("a/b"), overwrite: true }, j("a/b")],
      ["copy_file", { source: j("other/b/ro/f.txt"), destination: j("a/b/ro/f.txt"), overwrite: true }, ""],
      ["write_file", { path: j("a/b/ro/f.txt"), content: "x" }, j("a/b/ro/f.txt")],
      ["write_file", { path: j("a/b/ro/new.txt"), content: "x" }, j("a/b/ro/new.txt")],
      ["append_file", { path: j("a/b/ro/f.txt"), content: "x" }, j("a/b/ro/f.txt")],
      ["edit_file", { path: j("a/b/ro/f.txt"), edits: [{ oldText: "protected", newText: "x" }] }, ""],
      [
        "edit_files",
        {
          files: [
            { path: j("ok.txt"), edits: [{ oldText: "ok", newText: "changed" }] },
            { path: j("a/b/ro/f.txt"), edits: [{ oldText: "protected", newText: "x" }] },
          ],
        },
        "",
      ],
      ["apply_patch", { patch, directory: w }, ""],
      ["create_directory", { path: j("a/b/ro/newdir") }, j("a/b/ro/newdir")],
      ["delete_file", { path: j("a/b/ro/f.txt") }, j("a/b/ro/f.txt")],
    ];
    for (const [tool, args, named] of calls) {
      const r = await conn.call(tool, args);
      expectRefused(r, `${tool} ${JSON.stringify(args)}`);
      if (named) expect(r.text, tool).toContain(`Access denied - read-only location: ${named}`);
      expect(snapshotWithModes(ro), `${tool} ${JSON.stringify(args)}`).toEqual(before);
    }
    expect(fs.readFileSync(path.join(w, "ok.txt"), "utf8")).toBe(okBefore);
    expect(fs.existsSync(j("moved-a")) || fs.existsSync(j("moved-b")) || fs.existsSync(j("moved-ro"))).toBe(
      false,
    );
    // The writable parts stay writable.
    expect((await conn.call("write_file", { path: j("a/b/side.txt"), content: "new" })).isError).toBe(false);
    expect((await conn.call("delete_file", { path: j("a/b/side.txt") })).isError).toBe(false);
  });
});

// A reference project inside the project is ignored at startup (mcp-workspace's rule: it names a
// subdirectory, which stays part of the writable project), so the nested read-only case is --read-only-dir.
describe("workspace surface: a read-only dir two levels inside the project", () => {
  let w: string;
  let ro: string;
  let conn: Connection;
  beforeEach(async () => {
    ({ w, ro } = fixture(`ws-${Math.random().toString(16).slice(2)}`));
    conn = await startServer(["--project-dir", w, "--read-only-dir", ro], { client: "v2" });
    return () => conn.close();
  });

  it("survives every mutating tool aimed at it, its parent or its grandparent", async () => {
    const before = snapshotWithModes(ro);
    const calls: [string, Record<string, unknown>, string][] = [
      ["delete_directory", { dir_path: "a", recursive: true }, "a"],
      ["delete_directory", { dir_path: "a/b", recursive: true }, "a/b"],
      ["delete_directory", { dir_path: "a/b/ro", recursive: true }, "a/b/ro"],
      ["move_file", { source_path: "a", destination_path: "moved-a" }, ""],
      ["move_file", { source_path: "a/b", destination_path: "moved-b" }, ""],
      ["move_file", { source_path: "a/b/ro", destination_path: "moved-ro" }, ""],
      ["move_file", { source_path: "ok.txt", destination_path: "a/b/ro/f.txt" }, ""],
      ["save_file", { file_path: "a/b/ro/f.txt", content: "x" }, "a/b/ro/f.txt"],
      ["save_file", { file_path: "a/b/ro/new.txt", content: "x" }, "a/b/ro/new.txt"],
      ["append_file", { file_path: "a/b/ro/f.txt", content: "x" }, "a/b/ro/f.txt"],
      ["edit_file", { file_path: "a/b/ro/f.txt", old_string: "protected", new_string: "x" }, ""],
      ["delete_this_file", { file_path: "a/b/ro/f.txt" }, "a/b/ro/f.txt"],
    ];
    for (const [tool, args, named] of calls) {
      const r = await conn.call(tool, args);
      expectRefused(r, `${tool} ${JSON.stringify(args)}`);
      if (named) expect(r.text, tool).toContain(`Access denied - read-only location: ${named}`);
      expect(snapshotWithModes(ro), `${tool} ${JSON.stringify(args)}`).toEqual(before);
    }
    expect(fs.readFileSync(path.join(w, "ok.txt"), "utf8")).toBe("ok\n");
    expect(
      fs
        .readdirSync(w)
        .filter((n) => n !== "logs")
        .sort(),
    ).toEqual(["a", "ok.txt", "other"]);
    expect((await conn.call("delete_this_file", { file_path: "a/b/side.txt" })).isError).toBe(false);
  });
});
