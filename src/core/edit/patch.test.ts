import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { snapshot, tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { commitChanges } from "../mutate/transaction.js";
import { makeRoot, Workspace } from "../workspace.js";
import { planPatch } from "./patch.js";

const area = tempArea();
afterAll(() => area.cleanup());
let n = 0;

async function setup(files: Record<string, string | Buffer>) {
  const dir = area.tree(`p${n++}`, files);
  const ws = new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
  const apply = async (patch: string, fuzz?: number) => {
    const plan = await planPatch(patch, { resolve: (p) => ws.resolve(p, { intent: "write" }), fuzz });
    await commitChanges(plan.changes);
    return plan;
  };
  return { dir, apply, read: (p: string) => fs.readFileSync(path.join(dir, p), "utf8") };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** A file `f` holding `text`, planned through `patch` (nothing written): its new text and the notes. */
async function patched(text: string, patch: string, fuzz = 0) {
  const dir = area.tree(`h${n++}`, { f: text });
  const ws = new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
  const plan = await planPatch(patch, { resolve: (p) => ws.resolve(p, { intent: "write" }), fuzz });
  return { text: plan.texts[0]!.after, notes: plan.files[0]!.notes };
}

describe("hunks applied to a file", () => {
  const text = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n";
  it("applies at an offset when lines were added above, and says so", async () => {
    const p = "--- a/f\n+++ b/f\n@@ -4,3 +4,3 @@\n l4\n-l5\n+L5\n l6\n";
    const r = await patched(`new0\nnew1\n${text}`, p);
    expect(r.text).toBe(`new0\nnew1\n${text.replace("l5", "L5")}`);
    expect(r.notes[0]).toMatch(/offset 2/);
  });

  it("applies with fuzz when an outer context line differs, but not with fuzz 0", async () => {
    const p = "--- a/f\n+++ b/f\n@@ -3,5 +3,5 @@\n l3\n l4\n-l5\n+L5\n l6\n XX\n";
    expect(await wordedRejection(patched(text, p, 0))).toMatch(/^- f hunk #1 /m);
    const r = await patched(text, p, 1);
    expect(r.text).toBe(text.replace("l5", "L5"));
    expect(r.notes[0]).toMatch(/fuzz 1/);
  });

  it("keeps CRLF endings and the BOM when an LF patch applies to a CRLF file", async () => {
    const crlf = "\uFEFFa\r\nb\r\nc\r\n";
    const r = await patched(crlf, "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n");
    expect(r.text).toBe("\uFEFFa\r\nB\r\nB2\r\nc\r\n");
  });

  it("honours 'No newline at end of file' on either side", async () => {
    const drop = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n";
    expect((await patched("a\nb\n", drop)).text).toBe("a\nB");
    const add = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n";
    expect((await patched("a\nb", add)).text).toBe("a\nb\n");
  });

  it("reports each failing hunk with where it looked and the closest near-miss", async () => {
    const p = "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n l2\n-l3x\n+L3\n l4\n@@ -6,2 +6,2 @@\n-l6\n+L6\n l7\n";
    const refusal = await wordedRejection(patched(text, p, 2));
    expect(refusal.match(/^- /gm)).toHaveLength(1);
    expect(refusal).toMatch(
      /^- f hunk #1 \(@@ -2,3 \+2,3 @@\): its 3 context\/removed line\(s\) were not found/m,
    );
    expect(refusal).toContain('the patch expects "l3x" but the file has "l3"');
  });
});

describe("planPatch + commitChanges with real git diffs", () => {
  it("applies a multi-file git diff with modify, create in a new dir, delete, rename and exec bit", async () => {
    const s = await setup({
      "x.txt": "a\nb\nc\n",
      "old.txt": "keep\nme\n",
      "d.txt": "del\n",
      "s.sh": "echo\n",
    });
    git(s.dir, "init", "-q");
    git(s.dir, "add", ".");
    git(s.dir, "commit", "-qm", "i");
    fs.writeFileSync(path.join(s.dir, "x.txt"), "a\nB\nc\n");
    fs.mkdirSync(path.join(s.dir, "renamed"));
    git(s.dir, "mv", "old.txt", "renamed/new.txt");
    fs.appendFileSync(path.join(s.dir, "renamed/new.txt"), "more\n");
    git(s.dir, "rm", "-q", "d.txt");
    fs.mkdirSync(path.join(s.dir, "n/m"), { recursive: true });
    fs.writeFileSync(path.join(s.dir, "n/m/new.txt"), "n1\nn2");
    fs.chmodSync(path.join(s.dir, "s.sh"), 0o755);
    git(s.dir, "add", "-A");
    const patch = git(s.dir, "diff", "--cached", "-M");
    const wanted = snapshot(s.dir);
    git(s.dir, "reset", "-q", "--hard");
    git(s.dir, "clean", "-qfd");
    fs.chmodSync(path.join(s.dir, "s.sh"), 0o644);
    const plan = await s.apply(patch);
    expect(plan.files.map((f) => `${f.action} ${f.path}`).sort()).toEqual([
      "create n/m/new.txt",
      "delete d.txt",
      "modify s.sh",
      "modify x.txt",
      "rename renamed/new.txt",
    ]);
    const got = snapshot(s.dir);
    for (const k of [...got.keys()]) if (k.includes(`${path.sep}.git`)) got.delete(k);
    for (const k of [...wanted.keys()]) if (k.includes(`${path.sep}.git`)) wanted.delete(k);
    expect(got).toEqual(wanted);
    expect(fs.statSync(path.join(s.dir, "s.sh")).mode & 0o100).toBe(0o100);
  });

  it("is all-or-nothing: one bad hunk in the second file leaves the first untouched", async () => {
    const s = await setup({ "a.txt": "1\n2\n3\n", "b.txt": "x\ny\nz\n" });
    const before = snapshot(s.dir);
    const patch =
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n" +
      "--- a/b.txt\n+++ b/b.txt\n@@ -1,3 +1,3 @@\n x\n-nope\n+Y\n z\n" +
      "--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-q\n+r\n";
    const said = await wordedRejection(s.apply(patch));
    expect(said).toMatch(/^The patch was not applied \(nothing was changed\):/);
    expect(said).toContain("b.txt hunk #1");
    expect(said).toContain("missing.txt: no such file to patch");
    expect(snapshot(s.dir)).toEqual(before);
  });

  it("refuses a delete whose content differs, a create over an existing file, binary and empty patches", async () => {
    const s = await setup({ "a.txt": "1\n2\n" });
    expect(await wordedRejection(s.apply("--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-1\n"))).toMatch(
      /- a\.txt: the patch deletes it, but the file has content the patch does not remove/,
    );
    expect(await wordedRejection(s.apply("--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n"))).toMatch(
      /a\.txt: the patch creates it, but it already exists/,
    );
    expect(
      await wordedRejection(
        s.apply("diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n"),
      ),
    ).toMatch(/i\.png: binary patches are not supported/);
    expect(await wordedRejection(s.apply("hello\n"))).toMatch(/no file changes/);
    expect(await wordedRejection(s.apply("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+9\n", 7))).toBe(
      "fuzz must be a whole number from 0 to 3 (got 7)",
    );
    expect(s.read("a.txt")).toBe("1\n2\n");
  });

  it("refuses a patch path that leaves the root", async () => {
    const s = await setup({ "a.txt": "1\n" });
    expect(
      await wordedRejection(s.apply("--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-x\n+y\n")),
    ).toMatch(/Access denied/);
  });
});
