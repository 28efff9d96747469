/**
 * Lost-update protection, black-box on both surfaces: a file is read, then (in half of the attempts)
 * changed behind the server's back — same size, mtime restored, so only the content tells — then a
 * mutating tool is called with the hash from the read. A change must be refused exactly when the file
 * changed, and the other writer's content must survive: 0 silent overwrites.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/in-process.js";

const ATTEMPTS = 100; // per surface
const area = tempArea();
afterAll(() => area.cleanup());

function sneakyChange(file: string, i: number): string {
  const st = fs.statSync(file);
  const old = fs.readFileSync(file, "utf8");
  // Same length, different bytes, same mtime: only a content hash can tell.
  const changed = old.replace(/^v\d+/, (m) => `w${String(i % 10).repeat(m.length - 1)}`);
  fs.writeFileSync(file, changed);
  fs.utimesSync(file, st.atime, st.mtime);
  return changed;
}

async function attempt(
  file: string,
  hashOf: () => Promise<string>,
  mutate: (sha: string) => Promise<{ isError: boolean; text: string }>,
  i: number,
) {
  fs.writeFileSync(file, `v${i}\nbody line\n`);
  const sha = await hashOf();
  const modify = i % 2 === 0;
  const theirs = modify ? sneakyChange(file, i) : undefined;
  const r = await mutate(sha);
  const silent = modify && !r.isError;
  if (modify) {
    expect(r.text).toContain("changed since it was read");
    // The refusal shows what changed between the version read and the file now.
    expect(r.text, `attempt ${i}`).toContain("What changed since your read:");
    expect(r.text).toContain(`-v${i}\n+${theirs!.split("\n")[0]}`);
    expect(fs.readFileSync(file, "utf8")).toBe(theirs);
  } else expect(r.isError, r.text).toBe(false);
  return { silent, refused: modify && r.isError };
}

describe("0 silent overwrites", () => {
  it(`filesystem surface: ${ATTEMPTS} read-then-change attempts`, async () => {
    const root = area.tree("fs", {});
    const conn = await startServer([root]);
    const file = path.join(root, "f.txt");
    let silent = 0;
    let refused = 0;
    try {
      const tools: ((sha: string, i: number) => Promise<{ isError: boolean; text: string }>)[] = [
        (sha, i) =>
          conn.call("edit_file", {
            path: file,
            edits: [{ oldText: "body", newText: `B${i}` }],
            expectedSha256: sha,
          }),
        (sha) => conn.call("append_file", { path: file, content: "more\n", expectedSha256: sha }),
        (sha) => conn.call("delete_file", { path: file, expectedSha256: sha }),
        (sha) =>
          conn.call("edit_files", {
            files: [{ path: file, edits: [{ oldText: "body", newText: "X" }], expectedSha256: sha }],
          }),
        (sha, i) => conn.call("write_file", { path: file, content: `mine ${i}\n`, expectedSha256: sha }),
        async (sha) => {
          const dest = path.join(root, "g.txt");
          const r = await conn.call("move_file", { source: file, destination: dest, expectedSha256: sha });
          fs.rmSync(dest, { force: true });
          return r;
        },
      ];
      for (let i = 0; i < ATTEMPTS; i++) {
        const r = await attempt(
          file,
          async () => (await conn.call("read_text_file", { path: file })).structured!.sha256 as string,
          (sha) => tools[Math.floor(i / 2) % tools.length]!(sha, i),
          i,
        );
        if (r.silent) silent++;
        if (r.refused) refused++;
      }
    } finally {
      await conn.close();
    }
    process.stderr.write(
      `lost-update (filesystem): ${ATTEMPTS} attempts, ${refused} refused, ${silent} silent overwrites\n`,
    );
    expect(silent).toBe(0);
    expect(refused).toBe(ATTEMPTS / 2);
  });

  it(`workspace surface: ${ATTEMPTS} read-then-change attempts`, async () => {
    const project = area.tree("ws", {});
    const audit = path.join(area.base, "ws-audit.jsonl");
    const conn = await startServer(["--project-dir", project, "--console-only", "--audit-log", audit]);
    const file = path.join(project, "f.txt");
    let silent = 0;
    let refused = 0;
    try {
      const tools: ((sha: string, i: number) => Promise<{ isError: boolean; text: string }>)[] = [
        (sha, i) =>
          conn.call("save_file", { file_path: "f.txt", content: `mine ${i}\n`, expected_sha256: sha }),
        (sha) => conn.call("append_file", { file_path: "f.txt", content: "more\n", expected_sha256: sha }),
        (sha) => conn.call("delete_this_file", { file_path: "f.txt", expected_sha256: sha }),
        async (sha) => {
          const r = await conn.call("move_file", {
            source_path: "f.txt",
            destination_path: "g.txt",
            expected_sha256: sha,
          });
          fs.rmSync(path.join(project, "g.txt"), { force: true });
          return r;
        },
        (sha, i) =>
          conn.call("edit_file", {
            file_path: "f.txt",
            old_string: "body line",
            new_string: `mine ${i}`,
            expected_sha256: sha,
          }),
      ];
      for (let i = 0; i < ATTEMPTS; i++) {
        const r = await attempt(
          file,
          async () => (await conn.call("read_file", { file_path: "f.txt" })).structured!.sha256 as string,
          (sha) => tools[Math.floor(i / 2) % tools.length]!(sha, i),
          i,
        );
        if (r.silent) silent++;
        if (r.refused) refused++;
      }
    } finally {
      await conn.close();
    }
    process.stderr.write(
      `lost-update (workspace): ${ATTEMPTS} attempts, ${refused} refused, ${silent} silent overwrites\n`,
    );
    expect(silent).toBe(0);
    expect(refused).toBe(ATTEMPTS / 2);
    // Every change and every refusal is in the audit log.
    const lines = fs
      .readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.op === "refused")).toHaveLength(ATTEMPTS / 2);
    expect(lines.filter((l) => l.ok).map((l) => l.tool)).toEqual(
      expect.arrayContaining(["save_file", "append_file", "delete_this_file", "move_file", "edit_file"]),
    );
    expect(lines.find((l) => l.tool === "save_file" && l.ok)).toMatchObject({
      op: "write",
      before: expect.any(String),
    });
  });
});

describe("write_file expectedSha256", () => {
  it("refuses a write over a file changed since it was read, and writes when unchanged", async () => {
    const root = area.tree("wf", { "f.txt": "v1\n" });
    const conn = await startServer([root]);
    try {
      const file = path.join(root, "f.txt");
      const sha = (await conn.call("read_text_file", { path: file })).structured!.sha256 as string;
      const theirs = sneakyChange(file, 3);
      const r = await conn.call("write_file", { path: file, content: "mine\n", expectedSha256: sha });
      expect(r.text).toContain("changed since it was read");
      expect(fs.readFileSync(file, "utf8")).toBe(theirs);
      const fresh = (await conn.call("read_text_file", { path: file })).structured!.sha256 as string;
      const ok = await conn.call("write_file", { path: file, content: "mine\n", expectedSha256: fresh });
      expect(ok.isError).toBe(false);
      expect(fs.readFileSync(file, "utf8")).toBe("mine\n");
    } finally {
      await conn.close();
    }
  });
});

describe("move_file expectedSha256 (filesystem surface)", () => {
  it("refuses to move a file changed since it was read, and moves it when unchanged", async () => {
    const root = area.tree("mv", { "f.txt": "v1\n" });
    const conn = await startServer([root]);
    try {
      const file = path.join(root, "f.txt");
      const sha = (await conn.call("read_text_file", { path: file })).structured!.sha256 as string;
      const theirs = sneakyChange(file, 3);
      const r = await conn.call("move_file", { source: file, destination: "g.txt", expectedSha256: sha });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("changed since it was read");
      expect(fs.readFileSync(file, "utf8")).toBe(theirs);
      expect(fs.existsSync(path.join(root, "g.txt"))).toBe(false);
      const fresh = (await conn.call("read_text_file", { path: file })).structured!.sha256 as string;
      const ok = await conn.call("move_file", { source: file, destination: "g.txt", expectedSha256: fresh });
      expect(ok.isError, ok.text).toBe(false);
      expect(fs.readFileSync(path.join(root, "g.txt"), "utf8")).toBe(theirs);
    } finally {
      await conn.close();
    }
  });
});

describe("edit_file expected_sha256 (workspace surface)", () => {
  it("refuses an edit of a file changed since it was read, and edits it when unchanged", async () => {
    const project = area.tree("wsedit", { "f.txt": "v1\nbody line\n" });
    const conn = await startServer(["--project-dir", project, "--console-only"]);
    try {
      const file = path.join(project, "f.txt");
      const sha = (await conn.call("read_file", { file_path: "f.txt" })).structured!.sha256 as string;
      const theirs = sneakyChange(file, 3);
      const edit = { file_path: "f.txt", old_string: "body line", new_string: "mine" };
      const r = await conn.call("edit_file", { ...edit, expected_sha256: sha });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("changed since it was read");
      expect(fs.readFileSync(file, "utf8")).toBe(theirs);
      const fresh = (await conn.call("read_file", { file_path: "f.txt" })).structured!.sha256 as string;
      const ok = await conn.call("edit_file", { ...edit, expected_sha256: fresh });
      expect(ok.isError, ok.text).toBe(false);
      expect(fs.readFileSync(file, "utf8")).toBe(theirs.replace("body line", "mine"));
    } finally {
      await conn.close();
    }
  });
});

describe("create_directory is audited", () => {
  it("appends an mkdir line to --audit-log", async () => {
    const root = area.tree("mk", {});
    const log = path.join(area.base, "mk-audit.jsonl");
    const conn = await startServer([root, "--audit-log", log]);
    try {
      expect((await conn.call("create_directory", { path: path.join(root, "a/b") })).isError).toBe(false);
    } finally {
      await conn.close();
    }
    const lines = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.tool === "create_directory" && l.op === "mkdir" && l.ok === true)).toBe(true);
  });
});
