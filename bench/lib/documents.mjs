/**
 * Documents for read_document's tests and benchmarks: PDFs written here (text pages, a page without a text
 * layer, an encrypted one), Office files built by the libraries people make them with (docx, exceljs,
 * pptxgenjs), an .ods and a zip bomb written by hand.
 */
import {
  AlignmentType,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from "docx";
import ExcelJS from "exceljs";
import { zipSync } from "fflate";
import PptxGenJS from "pptxgenjs";

/**
 * A small PDF writer for tests and benchmarks: one Helvetica text page per entry of `pages` (an empty string
 * makes a page with no text layer, as a scanned page has), with a correct cross-reference table. With
 * `encrypted`, the trailer names a Standard security handler whose user password is not empty, as a
 * password-protected PDF does (the document cannot be opened without it).
 */
export function makePdf(pages, opts = {}) {
  const objects = [];
  const add = (body) => objects.push(body);
  const n = pages.length;
  // 1 catalog, 2 pages, 3 font, then per page: page object, content stream.
  add("<< /Type /Catalog /Pages 2 0 R >>");
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(" ");
  add(`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  for (let i = 0; i < n; i++) {
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
    );
    const lines = pages[i] === "" ? [] : pages[i].split("\n");
    const ops = lines.map((l, k) => `${k === 0 ? "72 720 Td" : "0 -16 Td"} (${pdfString(l)}) Tj`).join("\n");
    const stream = lines.length === 0 ? "0 0 1 rg 72 72 200 200 re f" : `BT /F1 12 Tf\n${ops}\nET`;
    add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
  }
  if (opts.encrypted) {
    const key32 = "A1".repeat(32);
    add(`<< /Filter /Standard /V 1 /R 2 /O <${key32}> /U <${"5C".repeat(32)}> /P -44 >>`);
  }
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  const encrypt = opts.encrypted
    ? ` /Encrypt ${objects.length} 0 R /ID [<${"0123456789ABCDEF".repeat(2)}> <${"0123456789ABCDEF".repeat(2)}>]`
    : "";
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const pdfString = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);

export async function makeDocx() {
  const cell = (text) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly Report", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("Revenue grew in every region.")] }),
          new Paragraph({ text: "Regions", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "North leads", bullet: { level: 0 } }),
          new Paragraph({ text: "South follows", bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell("Region"), cell("Sales")] }),
              new TableRow({ children: [cell("North"), cell("120")] }),
              new TableRow({ children: [cell("South"), cell("80")] }),
            ],
          }),
          new Paragraph({ text: "The end.", alignment: AlignmentType.LEFT }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** Two sheets: "Sales" (a header and three rows) and "Notes" (one cell at B2). */
export async function makeXlsx() {
  const wb = new ExcelJS.Workbook();
  const sales = wb.addWorksheet("Sales");
  sales.addRow(["Region", "Units", "Price"]);
  sales.addRow(["North", 10, 2.5]);
  sales.addRow(["South", 20, 3]);
  sales.addRow(["East | West", 5, 1]);
  const notes = wb.addWorksheet("Notes");
  notes.getCell("B2").value = "checked";
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A workbook of `rows` rows x 8 columns of mixed text and numbers (about 10 MB at 200,000 rows). */
export async function makeBigXlsx(rows) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Data");
  for (let r = 1; r <= rows; r++)
    ws.addRow([`item ${r}`, r, r * 1.5, `city ${r % 97}`, r % 13, `note ${r % 1000}`, r * 7, "x"]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function makePptx(slides) {
  const p = new PptxGenJS();
  for (const lines of slides) {
    const s = p.addSlide();
    lines.forEach((t, i) => {
      s.addText(t, { x: 0.5, y: 0.5 + i, w: 8, h: 0.8 });
    });
  }
  return await p.write({ outputType: "nodebuffer" });
}

const enc = (s) => new TextEncoder().encode(s);

/** An OpenDocument spreadsheet with one table "Plan": a header row and two data rows. */
export function makeOds() {
  const cell = (v) => `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
  const row = (...v) => `<table:table-row>${v.map(cell).join("")}</table:table-row>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet>
<table:table table:name="Plan">${row("Task", "Owner")}${row("Ship", "Ana")}${row("Test", "Bo")}<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>
</office:spreadsheet></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  return Buffer.from(
    zipSync({
      mimetype: [enc("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
      "content.xml": enc(content),
      "META-INF/manifest.xml": enc(manifest),
    }),
  );
}

/** A .docx-shaped zip whose one part inflates to `mb` MiB of zeros (a decompression bomb). */
export function makeZipBomb(mb) {
  return Buffer.from(
    zipSync({
      "[Content_Types].xml": enc("<Types/>"),
      "word/document.xml": [new Uint8Array(mb * 1024 * 1024), { level: 9 }],
    }),
  );
}
