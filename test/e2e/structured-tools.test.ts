/**
 * Black-box: notebook_read, notebook_edit, read_structured, edit_structured and edit_lines on both surfaces,
 * through the installed package: only the targeted bytes change, the journal undoes each edit to the exact
 * bytes, a stale sha256 is refused with the file unchanged, CRLF and BOM are kept, non-UTF-8 is refused.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());
const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");

const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "text"] },
      {
        cell_type: "code",
        execution_count: 2,
        id: "calc",
        metadata: {},
        outputs: [
          { output_type: "stream", name: "stdout", text: ["42\n"] },
          {
            output_type: "display_data",
            data: { "image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"] },
            metadata: {},
          },
        ],
        source: ["print(6 * 7)"],
      },
      {
        cell_type: "code",
        execution_count: 3,
        id: "keep",
        metadata: {},
        outputs: [{ output_type: "stream", name: "stdout", text: ["kept\n"] }],
        source: ["print('kept')"],
      },
    ],
    metadata: { kernelspec: { name: "python3", display_name: "Python 3" } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

const COMPOSE = `# services
x-base: &base
  restart: always # keep me
services:
  web:
    <<: *base
    image: "nginx:1.25"
    ports: [80]
  db:
    image: postgres:16
`;
const TSCONFIG = `{
  // comment kept
  "compilerOptions": {
    "strict": true,
    "target": "es2020" /* why */
  }
}
`;
const PYPROJECT = `[project]
name = "demo" # the name
version = "1.0.0"
`;
const CRLF = "\uFEFFone\r\ntwo\r\nthree\r\n";

const FILES = {
  "nb.ipynb": NOTEBOOK,
  "docker-compose.yml": COMPOSE,
  "tsconfig.json": TSCONFIG,
  "pyproject.toml": PYPROJECT,
  "crlf.txt": CRLF,
  "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
};

const SURFACES = [
  {
    name: "filesystem",
    start: (root: string) =>
      startServer([root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-fs") } }),
    file: (root: string, rel: string) => ({ path: path.join(root, rel) }),
    arg: (n: string) => n,
  },
  {
    name: "workspace",
    start: (root: string) =>
      startServer(["--project-dir", root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-ws") } }),
    file: (_root: string, rel: string) => ({ file_path: rel }),
    arg: (n: string) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  },
];

describe.each(SURFACES)("structured tools, $name surface", (s) => {
  const root = area.tree(`${s.name}/root`, FILES);
  let conn: Connection;
  beforeAll(async () => {
    conn = await s.start(root);
  });
  afterAll(() => conn.close());
  const at = (rel: string) => path.join(root, rel);

  async function undo(change: string | undefined, rel: string, before: Buffer | string) {
    const id = /^Change (\S+)/.exec(change ?? "")![1]!;
    const u = await conn.call("undo_change", { id });
    expect(u.isError, u.text).toBe(false);
    expect(fs.readFileSync(at(rel))).toEqual(Buffer.from(before));
  }

  it("notebook_read lists cells with outputs; images named, returned with outputs=all", async () => {
    const r = await conn.call("notebook_read", s.file(root, "nb.ipynb"));
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("## cell 1 code id=calc [2]");
    expect(r.text).toContain("print(6 * 7)");
    expect(r.text).toContain("→ stdout: 42");
    expect(r.text).toContain("image/png");
    expect(r.raw.content.some((c: { type: string }) => c.type === "image")).toBe(false);
    const all = await conn.call("notebook_read", {
      ...s.file(root, "nb.ipynb"),
      cells: ["calc"],
      outputs: "all",
    });
    expect(all.text).not.toContain("## cell 0");
    expect(all.raw.content.some((c: { type: string }) => c.type === "image")).toBe(true);
  });

  it("notebook_edit changes one cell, clears its outputs, keeps the rest byte-identical; undo restores", async () => {
    const r = await conn.call("notebook_edit", {
      ...s.file(root, "nb.ipynb"),
      edits: [
        { cell: "calc", source: "print(1)\nprint(2)" },
        { insert: { at: 0, type: "markdown", source: "new" } },
      ],
      [s.arg("expectedSha256")]: sha(NOTEBOOK),
    });
    expect(r.isError, r.text).toBe(false);
    const after = fs.readFileSync(at("nb.ipynb"), "utf8");
    const nb = JSON.parse(after);
    expect(nb.cells.map((c: { id: string }) => c.id).slice(1)).toEqual(["intro", "calc", "keep"]);
    expect(nb.cells[2]).toMatchObject({
      source: ["print(1)\n", "print(2)"],
      outputs: [],
      execution_count: null,
    });
    const keep = NOTEBOOK.slice(NOTEBOOK.indexOf('  {\n   "cell_type": "code",\n   "execution_count": 3'));
    expect(after.endsWith(keep)).toBe(true);
    await undo(r.change, "nb.ipynb", NOTEBOOK);
  });

  it("notebook_edit refuses a result that is not a valid notebook, and a stale sha256", async () => {
    const bad = await conn.call("notebook_edit", {
      ...s.file(root, "nb.ipynb"),
      edits: [{ cell: 9, source: "x" }],
    });
    expect(bad.isError).toBe(true);
    const stale = await conn.call("notebook_edit", {
      ...s.file(root, "nb.ipynb"),
      edits: [{ delete: 0 }],
      [s.arg("expectedSha256")]: sha("old"),
    });
    expect(stale.isError).toBe(true);
    expect(fs.readFileSync(at("nb.ipynb"), "utf8")).toBe(NOTEBOOK);
  });

  it("edit_structured sets a YAML value in place (comments and anchors kept); undo restores", async () => {
    const r = await conn.call("edit_structured", {
      ...s.file(root, "docker-compose.yml"),
      edits: [
        { set: "services.db.image", value: "postgres:17" },
        { merge: "services.web", value: { ports: [80, 443] } },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("+    image: postgres:17");
    expect(fs.readFileSync(at("docker-compose.yml"), "utf8")).toBe(
      COMPOSE.replace("postgres:16", "postgres:17").replace("[80]", "[80, 443]"),
    );
    await undo(r.change, "docker-compose.yml", COMPOSE);
  });

  it("edit_structured keeps JSONC comments and edits TOML in place", async () => {
    const j = await conn.call("edit_structured", {
      ...s.file(root, "tsconfig.json"),
      edits: [{ set: "compilerOptions.target", value: "es2022" }],
    });
    expect(j.isError, j.text).toBe(false);
    expect(fs.readFileSync(at("tsconfig.json"), "utf8")).toBe(TSCONFIG.replace("es2020", "es2022"));
    const t = await conn.call("edit_structured", {
      ...s.file(root, "pyproject.toml"),
      edits: [{ set: "project.version", value: "1.1.0" }],
    });
    expect(t.isError, t.text).toBe(false);
    expect(fs.readFileSync(at("pyproject.toml"), "utf8")).toBe(PYPROJECT.replace("1.0.0", "1.1.0"));
    await undo(t.change, "pyproject.toml", PYPROJECT);
  });

  it("read_structured returns only the value at a path", async () => {
    const r = await conn.call("read_structured", {
      ...s.file(root, "docker-compose.yml"),
      query: "services.web.ports",
    });
    expect(r.isError, r.text).toBe(false);
    expect(JSON.parse(r.text)).toEqual([80]);
    expect(r.text).not.toContain("postgres");
    // The merge key (<<: *base) is expanded, as docker-compose reads it.
    const web = await conn.call("read_structured", {
      ...s.file(root, "docker-compose.yml"),
      query: "services.web",
    });
    expect(JSON.parse(web.text)).toEqual({ restart: "always", image: "nginx:1.25", ports: [80] });
  });

  it("edit_lines needs the hash: a stale one changes nothing; CRLF and BOM are kept; undo restores", async () => {
    const stale = await conn.call("edit_lines", {
      ...s.file(root, "crlf.txt"),
      edits: [{ [s.arg("startLine")]: 2, [s.arg("endLine")]: 2, [s.arg("newText")]: "TWO" }],
      [s.arg("expectedSha256")]: sha("other"),
    });
    expect(stale.isError).toBe(true);
    expect(fs.readFileSync(at("crlf.txt"), "utf8")).toBe(CRLF);
    const missing = await conn.call("edit_lines", {
      ...s.file(root, "crlf.txt"),
      edits: [{ [s.arg("startLine")]: 2, [s.arg("endLine")]: 2, [s.arg("newText")]: "TWO" }],
    });
    expect(missing.isError).toBe(true);
    const r = await conn.call("edit_lines", {
      ...s.file(root, "crlf.txt"),
      edits: [
        { [s.arg("startLine")]: 2, [s.arg("endLine")]: 2, [s.arg("newText")]: "TWO\nTWO-B" },
        { [s.arg("startLine")]: 4, [s.arg("endLine")]: 3, [s.arg("newText")]: "four" },
      ],
      [s.arg("expectedSha256")]: sha(Buffer.from(CRLF)),
    });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(at("crlf.txt"), "utf8")).toBe("\uFEFFone\r\nTWO\r\nTWO-B\r\nthree\r\nfour\r\n");
    expect(r.text).toContain(sha(fs.readFileSync(at("crlf.txt"))));
    await undo(r.change, "crlf.txt", CRLF);
  });

  it("edit_lines refuses overlapping ranges and a non-UTF-8 file, changing nothing", async () => {
    const latin = fs.readFileSync(at("latin1.txt"));
    const r = await conn.call("edit_lines", {
      ...s.file(root, "latin1.txt"),
      edits: [{ [s.arg("startLine")]: 1, [s.arg("endLine")]: 1, [s.arg("newText")]: "x" }],
      [s.arg("expectedSha256")]: sha(latin),
    });
    expect(r.isError).toBe(true);
    expect(fs.readFileSync(at("latin1.txt"))).toEqual(latin);
    const o = await conn.call("edit_lines", {
      ...s.file(root, "crlf.txt"),
      edits: [
        { [s.arg("startLine")]: 1, [s.arg("endLine")]: 2, [s.arg("newText")]: "x" },
        { [s.arg("startLine")]: 2, [s.arg("endLine")]: 3, [s.arg("newText")]: "y" },
      ],
      [s.arg("expectedSha256")]: sha(Buffer.from(CRLF)),
    });
    expect(o.isError).toBe(true);
    expect(o.text).toContain("overlap");
    expect(fs.readFileSync(at("crlf.txt"), "utf8")).toBe(CRLF);
  });
});
