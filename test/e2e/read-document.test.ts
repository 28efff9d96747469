/**
 * Black-box: read_document on both surfaces, through the installed package, on documents built here by the
 * libraries people make them with: PDF text per page (a page without text says so; an encrypted PDF and a
 * corrupt one are refused by name), .docx as Markdown, .xlsx/.ods/.csv sheets as tables with their range,
 * .pptx per slide; pages and ranges continue where the reply was cut; a zip bomb is refused; the gate and
 * .gitignore apply.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx, makeOds, makePdf, makePptx, makeXlsx, makeZipBomb } from "../../bench/lib/documents.mjs";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

const PAGES = [
  "Alpha page one\nsecond line of one",
  "Bravo page two",
  "",
  "Delta page four",
  "Echo page five",
];
const SLIDES = [["Welcome", "to the deck"], ["Agenda"], ["Thanks (and questions)"]];

let files: Record<string, Buffer | string>;
beforeAll(async () => {
  files = {
    "doc/report.pdf": makePdf(PAGES),
    "doc/locked.pdf": makePdf(["secret text"], { encrypted: true }),
    "doc/broken.pdf": Buffer.concat([makePdf(["x"]).subarray(0, 40), Buffer.from("garbage\n")]),
    "doc/report.docx": await makeDocx(),
    "doc/book.xlsx": await makeXlsx(),
    "doc/plan.ods": makeOds(),
    "doc/table.csv": 'name,qty,note\n"Smith, J",3,"said ""hi"""\nLee,4,\n',
    "doc/deck.pptx": await makePptx(SLIDES),
    "doc/bomb.docx": makeZipBomb(300),
    "doc/notes.txt": "plain text\n",
    ".gitignore": "hidden/\n",
    "hidden/secret.pdf": makePdf(["TOP SECRET MARKER"]),
  };
});

interface Surface {
  name: string;
  start(root: string): Promise<Connection>;
  file(root: string, rel: string): Record<string, string>;
  text: "content" | "result";
}

const SURFACES: Surface[] = [
  {
    name: "filesystem",
    start: (root) => startServer([root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-fs") } }),
    file: (root, rel) => ({ path: path.join(root, rel) }),
    text: "content",
  },
  {
    name: "workspace",
    start: (root) =>
      startServer(["--project-dir", root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-ws") } }),
    file: (_root, rel) => ({ file_path: rel }),
    text: "result",
  },
];

describe.each(SURFACES)("read_document, $name surface", (s) => {
  let root: string;
  let conn: Connection;
  beforeAll(async () => {
    root = area.tree(`${s.name}/root`, files);
    conn = await s.start(root);
  });
  afterAll(() => conn?.close());
  const read = (rel: string, extra: Record<string, unknown> = {}) =>
    conn.call("read_document", { ...s.file(root, rel), ...extra });

  it("returns a PDF's text per page with the page count, and says which page has no text layer", async () => {
    const r = await read("doc/report.pdf");
    expect(r.isError).toBe(false);
    expect(r.text).toContain("--- page 1 of 5 ---\nAlpha page one\nsecond line of one");
    expect(r.text).toContain("--- page 2 of 5 ---\nBravo page two");
    expect(r.text).toMatch(/--- page 3 of 5 ---\n\[no text layer: a scanned or image-only page/);
    expect(r.text).toContain("--- page 5 of 5 ---\nEcho page five");
    expect(r.structured).toMatchObject({ kind: "pdf", total: 5, noTextPages: [3] });
    expect(r.structured?.next).toBeUndefined();
  });

  it("reads the pages asked for ('2,4-5')", async () => {
    const r = await read("doc/report.pdf", { pages: "2,4-5" });
    expect(r.text).toBe(
      "--- page 2 of 5 ---\nBravo page two\n\n--- page 4 of 5 ---\nDelta page four\n\n--- page 5 of 5 ---\nEcho page five",
    );
  });

  it("cuts at whole pages and names the pages to ask for next", async () => {
    const r = await read("doc/report.pdf", { maxChars: 150 });
    expect(r.text).toContain("Alpha page one");
    expect(r.text).not.toContain("Echo page five");
    const next = /Continue with pages="([^"]+)"/.exec(r.text)?.[1];
    expect(next).toBeDefined();
    expect(r.structured?.next).toBe(`pages="${next}"`);
    const rest = await read("doc/report.pdf", { pages: next });
    expect(rest.text).toContain("Echo page five");
    expect(rest.text).not.toContain("Alpha page one");
  });

  it("refuses an encrypted PDF and a corrupt one, naming the path", async () => {
    const locked = await read("doc/locked.pdf");
    expect(locked.isError).toBe(true);
    expect(locked.text).toMatch(/locked\.pdf: it is encrypted \(password-protected\)/);
    expect(locked.text).not.toContain("secret text");
    const broken = await read("doc/broken.pdf");
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(/broken\.pdf: it is not a readable PDF/);
  });

  it("returns a .docx as Markdown: headings, list, table", async () => {
    const r = await read("doc/report.docx");
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      [
        "# Quarterly Report",
        "",
        "Revenue grew in every region.",
        "",
        "## Regions",
        "",
        "- North leads",
        "- South follows",
        "",
        "| Region | Sales |",
        "| --- | --- |",
        "| North | 120 |",
        "| South | 80 |",
        "",
        "The end.",
      ].join("\n"),
    );
    expect(r.structured).toMatchObject({ kind: "docx", total: 15 });
  });

  it("returns .docx lines in ranges and names the next one", async () => {
    const r = await read("doc/report.docx", { range: "5-8" });
    expect(r.text).toBe("## Regions\n\n- North leads\n- South follows");
  });

  it("returns an .xlsx sheet as a table with its range, by name or number, and a cell range", async () => {
    const first = await read("doc/book.xlsx");
    expect(first.text).toBe(
      [
        'Sheet "Sales", used range A1:C4; sheets: Sales, Notes; cells A1:C4:',
        "| row | A | B | C |",
        "|---| --- | --- | --- |",
        "| 1 | Region | Units | Price |",
        "| 2 | North | 10 | 2.5 |",
        "| 3 | South | 20 | 3 |",
        "| 4 | East \\| West | 5 | 1 |",
      ].join("\n"),
    );
    expect(first.structured).toMatchObject({
      sheets: ["Sales", "Notes"],
      sheet: "Sales",
      usedRange: "A1:C4",
    });
    const notes = await read("doc/book.xlsx", { sheet: "2" });
    expect(notes.text).toContain('Sheet "Notes", used range B2:B2');
    expect(notes.text).toContain("| 2 | checked |");
    const part = await read("doc/book.xlsx", { sheet: "Sales", range: "B2:C3" });
    expect(part.text).toContain("| row | B | C |");
    expect(part.text).toContain("| 2 | 10 | 2.5 |\n| 3 | 20 | 3 |");
    expect(part.text).not.toContain("North");
  });

  it("continues a sheet with the next cell range", async () => {
    const r = await read("doc/book.xlsx", { maxChars: 120 });
    const next = /Continue with sheet="Sales", range="([^"]+)"/.exec(r.text)?.[1];
    expect(next).toMatch(/^A\d:C4$/);
    const rest = await read("doc/book.xlsx", { sheet: "Sales", range: next });
    expect(rest.text).toContain("| 4 | East \\| West | 5 | 1 |");
  });

  it("reads an .ods and a .csv as sheets", async () => {
    const ods = await read("doc/plan.ods");
    expect(ods.text).toContain("| 1 | Task | Owner |\n| 2 | Ship | Ana |\n| 3 | Test | Bo |");
    expect(ods.structured).toMatchObject({ sheet: "Plan", usedRange: "A1:B3" });
    const csv = await read("doc/table.csv");
    expect(csv.text).toContain('| 2 | Smith, J | 3 | said "hi" |\n| 3 | Lee | 4 |  |');
  });

  it("returns a .pptx's text per slide", async () => {
    const r = await read("doc/deck.pptx");
    expect(r.text).toBe(
      "--- slide 1 of 3 ---\nWelcome\nto the deck\n\n--- slide 2 of 3 ---\nAgenda\n\n--- slide 3 of 3 ---\nThanks (and questions)",
    );
    const one = await read("doc/deck.pptx", { pages: "2" });
    expect(one.text).toBe("--- slide 2 of 3 ---\nAgenda");
  });

  it("refuses a zip bomb before inflating it, and names the file", async () => {
    const r = await read("doc/bomb.docx");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/bomb\.docx: it inflates to more than \d+ bytes/);
    // The server still answers.
    expect((await read("doc/deck.pptx", { pages: "1" })).text).toContain("Welcome");
  });

  it("refuses a file that is not a document, and says what it reads", async () => {
    const r = await read("doc/notes.txt");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/notes\.txt.*\.pdf, \.docx, \.xlsx/);
  });

  it("keeps the gate: outside the roots and gitignored files are refused, their text never shown", async () => {
    const outside = area.tree(`${s.name}-outside`, { "x.pdf": makePdf(["OUTSIDE MARKER"]) });
    const far = await conn.call("read_document", {
      [s.name === "filesystem" ? "path" : "file_path"]:
        s.name === "filesystem" ? path.join(outside, "x.pdf") : `../${s.name}-outside/x.pdf`,
    });
    expect(far.isError).toBe(true);
    expect(far.text).not.toContain("OUTSIDE MARKER");
    if (s.name === "workspace") {
      const hidden = await read("hidden/secret.pdf");
      expect(hidden.isError).toBe(true);
      expect(hidden.text).not.toContain("TOP SECRET MARKER");
    }
    expect(fs.existsSync(path.join(outside, "x.pdf"))).toBe(true);
  });
});
