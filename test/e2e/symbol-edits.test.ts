/**
 * Black-box: symbol edits keep the code they do not name, on both surfaces, through the installed package.
 * Each case is one a review found writing the wrong file: text inserted between a definition and its doc
 * comment or attributes, a replacement written from the margin left unindented (Python's body outside its
 * def), a Python indentation error written, a field declared with another replaced with it, Ruby's
 * `private` doubled, spaces in a file indented with tabs; and same-named symbols that no name could reach.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SURFACES } from "../helpers/code-surfaces.js";
import { tempArea } from "../helpers/fixtures.js";
import type { Connection } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

const FILES: Record<string, string> = {
  "lib.rs": `/// What happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Event { Started, Stopped(i32) }

pub fn show(e: &Event) -> String { format!("{:?}", e) }
`,
  "svc.ts": `export class Service {
  @Log
  area(): number { return 1; }

  perimeter(): number {
    return 2;
  }
}

/** Adds numbers. */
export function add(a: number, b: number) { return a + b; }
`,
  "p.py": "class P:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n",
  "tabs.py": "class P:\n\tdef a(self):\n\t\treturn 1\n",
  "O.java": `public class O {
    protected String name, region;
    public O(String name) { this.name = name; }
    void process(int a) {}
    void process(String s) {}
}
`,
  "panel.rb": "class Panel\n  private def secret\n    :total\n  end\nend\n",
};

describe.each(SURFACES)("symbol edits, $name surface", (s) => {
  const root = area.tree(`${s.name}/root`, FILES);
  let conn: Connection;
  beforeAll(async () => {
    conn = await s.start(root);
  });
  afterAll(() => conn.close());
  const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

  /** The edit applied, the file as expected, then undone to the original bytes. */
  async function edits(tool: string, rel: string, args: Record<string, unknown>, expected: string) {
    const r = await conn.call(tool, { ...s.file(root, rel), ...args });
    expect(r.isError, r.text).toBe(false);
    expect(read(rel)).toBe(expected);
    const u = await conn.call("undo_change", { id: /^Change (\S+)/.exec(r.change ?? "")![1]! });
    expect(u.isError, u.text).toBe(false);
    expect(read(rel)).toBe(FILES[rel]);
  }

  /** The edit refused with words containing `says`, and the file unchanged. */
  async function refuses(tool: string, rel: string, args: Record<string, unknown>, says: string) {
    const r = await conn.call(tool, { ...s.file(root, rel), ...args });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toContain(says);
    expect(read(rel)).toBe(FILES[rel]);
  }

  it("insert_symbol before goes above the doc comment, attributes and decorators", async () => {
    await edits(
      "insert_symbol",
      "lib.rs",
      { name: "Event", position: "before", text: "pub struct Marker;" },
      FILES["lib.rs"]!.replace("/// What", "pub struct Marker;\n\n/// What"),
    );
    await edits(
      "insert_symbol",
      "svc.ts",
      { name: "Service.area", position: "before", text: "helper(): void {}" },
      FILES["svc.ts"]!.replace("  @Log", "  helper(): void {}\n\n  @Log"),
    );
    await edits(
      "insert_symbol",
      "svc.ts",
      { name: "add", position: "before", text: "const y = 2;" },
      FILES["svc.ts"]!.replace("/** Adds", "const y = 2;\n\n/** Adds"),
    );
  });

  it("replace_symbol text that brings a doc comment or decorator replaces the one above", async () => {
    await edits(
      "replace_symbol",
      "svc.ts",
      {
        name: "add",
        [s.arg("newText")]: "/** Sums. */\nexport function add(a: number, b: number) { return b + a; }",
      },
      FILES["svc.ts"]!.replace("/** Adds numbers. */", "/** Sums. */").replace("a + b", "b + a"),
    );
    await edits(
      "replace_symbol",
      "svc.ts",
      { name: "Service.area", [s.arg("newText")]: "@Log\n  area(): number { return 3; }" },
      FILES["svc.ts"]!.replace("return 1;", "return 3;"),
    );
  });

  it("replace_symbol indents text written from the margin as the symbol is", async () => {
    await edits(
      "replace_symbol",
      "p.py",
      { name: "P.a", [s.arg("newText")]: "def a(self):\n    return 10" },
      FILES["p.py"]!.replace("return 1\n", "return 10\n"),
    );
    await edits(
      "replace_symbol",
      "svc.ts",
      { name: "Service.perimeter", [s.arg("newText")]: "perimeter(): number {\n  return 4;\n}" },
      FILES["svc.ts"]!.replace("return 2;", "return 4;"),
    );
  });

  it("replace_symbol refuses a Python indentation error, which tree-sitter parses without one", async () => {
    await refuses(
      "replace_symbol",
      "p.py",
      { name: "P.a", [s.arg("newText")]: "def a(self):\n        x = 1\n      return x" },
      "syntax errors (1 where it had 0)",
    );
  });

  it("replace_symbol refuses a name declared together with others", async () => {
    await refuses(
      "replace_symbol",
      "O.java",
      { name: "region", [s.arg("newText")]: 'protected String region = "EU";' },
      "declared on line 2 together with name",
    );
  });

  it("same-named symbols are told apart by their first line (name@L5)", async () => {
    const both = await conn.call("read_symbol", { ...s.file(root, "O.java"), name: "O.process" });
    expect(both.isError).toBe(true);
    expect(both.text).toContain("Name one by its first line: 'O.process@L4'");
    const one = await conn.call("read_symbol", { ...s.file(root, "O.java"), name: "O.process@L5" });
    expect(one.isError, one.text).toBe(false);
    expect(one.text).toContain("5→    void process(String s) {}");
    await edits(
      "replace_symbol",
      "O.java",
      { name: "process@L5", [s.arg("newText")]: "void process(String s) { s.trim(); }" },
      FILES["O.java"]!.replace("process(String s) {}", "process(String s) { s.trim(); }"),
    );
  });

  it("Ruby: a copied `private def` is not doubled, and text inserted before it is indented", async () => {
    await edits(
      "replace_symbol",
      "panel.rb",
      { name: "secret", [s.arg("newText")]: "private def secret\n  :hidden\nend" },
      FILES["panel.rb"]!.replace(":total", ":hidden"),
    );
    await edits(
      "insert_symbol",
      "panel.rb",
      { name: "secret", position: "before", text: "def shown; end" },
      FILES["panel.rb"]!.replace("  private", "  def shown; end\n\n  private"),
    );
  });

  it("a file indented with tabs gets tabs", async () => {
    await edits(
      "insert_symbol",
      "tabs.py",
      { name: "P.a", position: "after", text: "def c(self):\n    if True:\n        return 3" },
      `${FILES["tabs.py"]}\n\tdef c(self):\n\t\tif True:\n\t\t\treturn 3\n`,
    );
  });
});
