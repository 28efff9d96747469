/**
 * Property: over random notebooks (every cell type, outputs of every kind, attachments, metadata, ids or
 * none, indented by one space, two or a tab) and random edit sequences, notebook_edit's core leaves a valid
 * notebook whose cells are what the edits say, every untouched cell byte-identical to its original text;
 * and through the installed server, undo_change restores the exact bytes.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { type Node, parseTree } from "jsonc-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editNotebookText, type NotebookEdit } from "../../src/core/structured/notebook.js";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

type Type = "code" | "markdown" | "raw";
type Gen<A> = A extends fc.Arbitrary<infer T> ? T : never;
const text = fc.string({ maxLength: 30 });
const lines = fc.array(
  fc.oneof(
    text,
    text.map((s) => `${s}\n`),
  ),
  { maxLength: 4 },
);
const mimeText = fc.oneof(text, lines);
const output = fc.oneof(
  fc.record({
    output_type: fc.constant("stream"),
    name: fc.constantFrom("stdout", "stderr"),
    text: mimeText,
  }),
  fc.record({
    output_type: fc.constant("execute_result"),
    execution_count: fc.option(fc.nat(99), { nil: null }),
    data: fc.record({ "text/plain": mimeText }),
    metadata: fc.constant({}),
  }),
  fc.record({
    output_type: fc.constant("display_data"),
    data: fc.record({ "image/png": fc.base64String({ maxLength: 40 }), "text/plain": mimeText }),
    metadata: fc.record({ width: fc.nat(500) }, { requiredKeys: [] }),
  }),
  fc.record({
    output_type: fc.constant("error"),
    ename: text,
    evalue: text,
    traceback: fc.array(text, { maxLength: 3 }),
  }),
);
const metadata = fc.record(
  {
    tags: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 3 }),
    collapsed: fc.boolean(),
    other: text,
  },
  { requiredKeys: [] },
);
const attachments = fc.option(
  fc.dictionary(
    fc.stringMatching(/^[a-z]{1,5}\.png$/),
    fc.record({ "image/png": fc.base64String({ maxLength: 20 }) }),
    { maxKeys: 2 },
  ),
  { nil: undefined },
);
const cell = fc.oneof(
  fc.record({
    cell_type: fc.constant("code"),
    execution_count: fc.option(fc.nat(99), { nil: null }),
    metadata,
    outputs: fc.array(output, { maxLength: 3 }),
    source: mimeText,
  }),
  fc
    .record({ cell_type: fc.constantFrom("markdown", "raw"), metadata, attachments, source: mimeText })
    .map((c) => {
      if (c.attachments === undefined) delete (c as { attachments?: unknown }).attachments;
      return c;
    }),
);
const notebook = fc.record({
  cells: fc.array(cell, { maxLength: 6 }),
  minor: fc.constantFrom(4, 5),
  indent: fc.constantFrom(1, 2, "\t"),
  meta: fc.record(
    { kernelspec: fc.constant({ name: "python3", display_name: "Python 3" }) },
    { requiredKeys: [] },
  ),
});
const editGen = fc.oneof(
  fc.record({
    kind: fc.constant("edit" as const),
    at: fc.nat(),
    source: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    type: fc.option(fc.constantFrom<Type>("code", "markdown", "raw"), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    type: fc.constantFrom<Type>("code", "markdown", "raw"),
    source: fc.string({ maxLength: 20 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
);

function serialize(n: Gen<typeof notebook>): string {
  const cells = n.cells.map((c, i) => (n.minor >= 5 ? { id: `c${i}`, ...c } : c));
  return `${JSON.stringify({ cells, metadata: n.meta, nbformat: 4, nbformat_minor: n.minor }, null, n.indent)}\n`;
}

const cellNodes = (t: string): Node[] =>
  parseTree(t)!.children!.find((p) => p.children![0]!.value === "cells")!.children![1]!.children!;
const slice = (t: string, n: Node) => t.slice(n.offset, n.offset + n.length);
const joined = (s: string | string[]) => (Array.isArray(s) ? s.join("") : s);

/** Turns generated edits into valid ones against a model of the cells (origin index or new). */
function plan(count: number, gen: Gen<typeof editGen>[]) {
  const model: { orig: number | null; touched: boolean; type?: Type; source?: string }[] = Array.from(
    { length: count },
    (_, i) => ({ orig: i, touched: false }),
  );
  const edits: NotebookEdit[] = [];
  for (const g of gen) {
    if (g.kind === "insert") {
      const at = g.at % (model.length + 1);
      model.splice(at, 0, { orig: null, touched: true, type: g.type, source: g.source });
      edits.push({ insert: { at, type: g.type, source: g.source } });
    } else if (model.length === 0) continue;
    else if (g.kind === "delete") {
      const at = g.at % model.length;
      model.splice(at, 1);
      edits.push({ delete: at });
    } else {
      const at = g.at % model.length;
      if (g.source === undefined && g.type === undefined) continue;
      Object.assign(model[at]!, {
        touched: true,
        ...(g.type ? { type: g.type } : {}),
        ...(g.source !== undefined ? { source: g.source } : {}),
      });
      edits.push({
        cell: at,
        ...(g.source !== undefined ? { source: g.source } : {}),
        ...(g.type ? { type: g.type } : {}),
      });
    }
  }
  return { model, edits };
}

describe("notebook edits (property)", () => {
  it("leave a valid notebook, the cells the edits say, and untouched cells byte-identical", async () => {
    await fc.assert(
      fc.asyncProperty(notebook, fc.array(editGen, { minLength: 1, maxLength: 5 }), async (n, gen) => {
        const before = serialize(n);
        const { model, edits } = plan(n.cells.length, gen);
        if (edits.length === 0) return;
        const after = await editNotebookText(before, edits, false);
        const nb = JSON.parse(after);
        const oldNodes = cellNodes(before);
        const newNodes = cellNodes(after);
        expect(nb.cells).toHaveLength(model.length);
        for (const [j, m] of model.entries()) {
          const c = nb.cells[j];
          if (m.orig !== null && !m.touched)
            expect(slice(after, newNodes[j]!)).toBe(slice(before, oldNodes[m.orig]!));
          if (m.type) expect(c.cell_type).toBe(m.type);
          if (m.source !== undefined) expect(joined(c.source)).toBe(m.source);
          // An independent structural check (beside the schema the tool validates with).
          expect("outputs" in c).toBe(c.cell_type === "code");
          expect("execution_count" in c).toBe(c.cell_type === "code");
          if (c.cell_type === "code") expect("attachments" in c).toBe(false);
          expect(typeof c.id === "string").toBe(n.minor >= 5);
          if (m.touched && c.cell_type === "code") expect(c.outputs).toEqual([]);
        }
        if (n.minor >= 5) expect(new Set(nb.cells.map((c: { id: string }) => c.id)).size).toBe(model.length);
      }),
      { numRuns: 300 },
    );
  });

  describe("through the server", () => {
    const area = tempArea();
    const root = area.tree("root");
    let conn: Connection;
    beforeAll(async () => {
      conn = await startServer([root], { env: { MCPFS_STATE_DIR: path.join(area.base, "state") } });
    });
    afterAll(async () => {
      await conn.close();
      area.cleanup();
    });

    it("undo_change restores the exact bytes after any edit sequence", async () => {
      let k = 0;
      await fc.assert(
        fc.asyncProperty(notebook, fc.array(editGen, { minLength: 1, maxLength: 4 }), async (n, gen) => {
          const before = serialize(n);
          const { edits } = plan(n.cells.length, gen);
          if (edits.length === 0) return;
          const file = path.join(root, `nb${k++}.ipynb`);
          fs.writeFileSync(file, before);
          const r = await conn.call("notebook_edit", { path: file, edits });
          expect(r.isError, r.text).toBe(false);
          const id = /^Change (\S+)/.exec(r.change ?? "")?.[1];
          if (id !== undefined) {
            const u = await conn.call("undo_change", { id });
            expect(u.isError, u.text).toBe(false);
          }
          expect(fs.readFileSync(file, "utf8")).toBe(before);
        }),
        { numRuns: 25 },
      );
    });
  });
});
