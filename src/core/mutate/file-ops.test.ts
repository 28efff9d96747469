import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { snapshot, tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { clientMessage } from "../../surfaces/wording.js";
import { createAuditSink } from "../audit.js";
import { editFiles } from "../edit/multi-edit.js";
import { ToolError } from "../errors.js";
import { sha256Of } from "../fs/hash.js";
import { TEMP_NAME } from "../fs/safe-open.js";
import { createLogger } from "../log.js";
import { makeRoot, Workspace } from "../workspace.js";
import { appendToFile } from "./append.js";
import { copyPath } from "./copy.js";
import { deleteDirectory, deleteFile } from "./remove.js";

const area = tempArea();
afterAll(() => area.cleanup());
let dir: string;
let outside: string;
let ws: Workspace;
let n = 0;
beforeEach(async () => {
  dir = area.tree(`f${n}`, {
    "a.txt": "alpha\n",
    "crlf.txt": "\uFEFFone\r\ntwo\r\n",
    "tree/x.txt": "x\n",
    "tree/deep/y.sh": "#!/bin/sh\n",
    "tree/empty/": null,
  });
  outside = area.tree(`out${n++}`, { "secret.txt": "secret\n" });
  fs.chmodSync(path.join(dir, "tree/deep/y.sh"), 0o750);
  ws = new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
});
const w = (p: string) => ws.resolve(p, { intent: "write" });
const read = (p: string) => fs.readFileSync(path.join(dir, p), "utf8");
const contains = (real: string) => ws.contains(real);

describe("appendToFile", () => {
  it("appends verbatim, creates unless mustExist, keeps CRLF and BOM, honours the expected hash", async () => {
    const r = await appendToFile(await w("a.txt"), "beta\n");
    expect(read("a.txt")).toBe("alpha\nbeta\n");
    expect(r).toMatchObject({ kind: "write", before: sha256Of("alpha\n"), after: sha256Of("alpha\nbeta\n") });
    await appendToFile(await w("crlf.txt"), "three\nfour\n");
    expect(read("crlf.txt")).toBe("\uFEFFone\r\ntwo\r\nthree\r\nfour\r\n");
    expect(await wordedRejection(appendToFile(await w("new.txt"), "x", { mustExist: true }))).toMatch(
      /No such file/,
    );
    expect((await appendToFile(await w("new.txt"), "x")).kind).toBe("create");
    expect(read("new.txt")).toBe("x");
    expect(
      await wordedRejection(appendToFile(await w("a.txt"), "z", { expectedSha256: sha256Of("alpha\n") })),
    ).toMatch(/changed since it was read/);
    await appendToFile(await w("a.txt"), "z", { expectedSha256: sha256Of("alpha\nbeta\n") });
    expect(read("a.txt")).toBe("alpha\nbeta\nz");
  });
});

describe("copyPath", () => {
  it("copies a file with its mode, refusing to overwrite unless asked", async () => {
    await copyPath(await w("tree/deep/y.sh"), await w("y-copy.sh"), { contains });
    expect(read("y-copy.sh")).toBe("#!/bin/sh\n");
    expect(fs.statSync(path.join(dir, "y-copy.sh")).mode & 0o777).toBe(0o750);
    expect(await wordedRejection(copyPath(await w("a.txt"), await w("y-copy.sh"), { contains }))).toMatch(
      /already exists.*overwrite: true/,
    );
    await copyPath(await w("a.txt"), await w("y-copy.sh"), { contains, overwrite: true });
    expect(read("y-copy.sh")).toBe("alpha\n");
  });

  it("copies a directory tree (files, empty dirs, inside links as links) and leaves no hidden temp", async () => {
    fs.symlinkSync("x.txt", path.join(dir, "tree/link-in"));
    const r = await copyPath(await w("tree"), await w("copy"), { contains });
    expect(r).toMatchObject({ files: 2, links: 1 });
    expect(read("copy/x.txt")).toBe("x\n");
    expect(fs.statSync(path.join(dir, "copy/empty")).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(dir, "copy/deep/y.sh")).mode & 0o777).toBe(0o750);
    expect(fs.readlinkSync(path.join(dir, "copy/link-in"))).toBe("x.txt");
    expect(fs.readdirSync(dir).filter((f) => TEMP_NAME.test(f))).toEqual([]);
    expect(await wordedRejection(copyPath(await w("tree"), await w("copy"), { contains }))).toMatch(
      /already exists/,
    );
    expect(
      await wordedRejection(copyPath(await w("tree"), await w("tree/deep/inner"), { contains })),
    ).toMatch(/into itself/);
  });

  it("refuses, writing nothing, a tree with a link that points outside from its new place", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "tree/out-link"));
    const before = snapshot(dir);
    expect(await wordedRejection(copyPath(await w("tree"), await w("copy"), { contains }))).toMatch(
      /the symlink out-link in tree would point outside/,
    );
    expect(snapshot(dir)).toEqual(before);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("never writes through a symlink standing in the destination tree", async () => {
    fs.mkdirSync(path.join(dir, "dest"));
    fs.symlinkSync(outside, path.join(dir, "dest/deep"));
    expect(
      await wordedRejection(copyPath(await w("tree"), await w("dest"), { contains, overwrite: true })),
    ).toMatch(/not a directory/);
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
  });
});

describe("deleteFile and deleteDirectory", () => {
  it("deletes a file (a link as a link), refusing a directory and a changed file", async () => {
    fs.symlinkSync(path.join(dir, "a.txt"), path.join(dir, "link"));
    expect(await wordedRejection(deleteFile(await w("tree")))).toMatch(/Is a directory/);
    expect(
      await wordedRejection(deleteFile(await w("a.txt"), { expectedSha256: sha256Of("other") })),
    ).toMatch(/changed since it was read/);
    const r = await deleteFile(await w("a.txt"), { expectedSha256: sha256Of("alpha\n") });
    expect(r).toMatchObject({ kind: "delete", before: sha256Of("alpha\n") });
    expect(fs.existsSync(path.join(dir, "a.txt"))).toBe(false);
    expect(await wordedRejection(deleteFile(await w("a.txt")))).toMatch(/No such file/);
  });

  it("deletes a tree recursively, never following links out, and reports every entry", async () => {
    fs.symlinkSync(outside, path.join(dir, "tree/deep/out"));
    expect(await wordedRejection(deleteDirectory(await w("tree"), false))).toMatch(/not empty/);
    const r = await deleteDirectory(await w("tree"), true);
    expect(r.map((e) => e.rel)).toEqual([
      "tree",
      "tree/deep",
      "tree/deep/out",
      "tree/deep/y.sh",
      "tree/empty",
      "tree/x.txt",
    ]);
    expect(fs.existsSync(path.join(dir, "tree"))).toBe(false);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("refuses a root and a file", async () => {
    expect(await wordedRejection(deleteDirectory(await w("."), true))).toMatch(
      /Refusing to delete an allowed directory/,
    );
    expect(await wordedRejection(deleteDirectory(await w("a.txt"), false))).toMatch(/Not a directory/);
    await deleteDirectory(await w("tree/empty"), false);
    expect(fs.existsSync(path.join(dir, "tree/empty"))).toBe(false);
  });
});

describe("editFiles", () => {
  const replace = (text: string, e: { from: string; to: string }, requested: string) => {
    if (!text.includes(e.from)) throw new ToolError(`Could not find the text to replace in ${requested}`);
    return text.replace(e.from, e.to);
  };
  it("edits several files together, dry run writes nothing and returns the combined diff", async () => {
    const files = [
      { target: await w("a.txt"), edits: { from: "alpha", to: "ALPHA" } },
      { target: await w("tree/x.txt"), edits: { from: "x", to: "X" } },
    ];
    const before = snapshot(dir);
    const dry = await editFiles(files, replace, { dryRun: true });
    expect(snapshot(dir)).toEqual(before);
    expect(dry.diff).toContain("-alpha\n+ALPHA");
    expect(dry.diff).toContain("-x\n+X");
    const done = await editFiles(files, replace);
    expect(done.changes).toHaveLength(2);
    expect(read("a.txt")).toBe("ALPHA\n");
    expect(read("tree/x.txt")).toBe("X\n");
  });

  it("changes no file when any edit fails, naming each failure", async () => {
    const before = snapshot(dir);
    const err = await editFiles(
      [
        { target: await w("a.txt"), edits: { from: "alpha", to: "A" } },
        { target: await w("tree/x.txt"), edits: { from: "nope", to: "N" } },
        { target: await w("gone.txt"), edits: { from: "a", to: "b" } },
      ],
      replace,
    ).then(
      () => new Error("expected a refusal"),
      (e: Error) => e,
    );
    // Each file's error as data, the group worded item by item (as the runner words it).
    const text = clientMessage(err);
    expect(text).toMatch(/^2 of 3 files could not be edited; no file was changed/);
    expect(text).toContain("Could not find the text to replace in tree/x.txt");
    expect(text).toContain("No such file: gone.txt");
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("audit sink", () => {
  it("appends one JSON line per entry to the audit file", async () => {
    const file = path.join(dir, "logs/audit.jsonl");
    const sink = createAuditSink({ file, log: createLogger({ level: "fatal", console: false }) });
    const e = {
      time: new Date().toISOString(),
      tool: "write_file",
      path: "a.txt",
      op: "write" as const,
      ms: 3,
      ok: true,
    };
    await sink.write([e]);
    await sink.write([{ ...e, path: "b.txt", bytes: 2 }]);
    const lines = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([e, { ...e, path: "b.txt", bytes: 2 }]);
  });
});
