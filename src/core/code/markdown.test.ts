import { describe, expect, it } from "vitest";
import type { SymbolNode } from "./extract.js";
import { markdownSymbols } from "./markdown.js";

/** Each heading as `[startLine, level, name]`, outermost first (the level read from its `#`s). */
async function headings(text: string): Promise<[number, number, string][]> {
  const out: [number, number, string][] = [];
  const walk = (symbols: SymbolNode[]) => {
    for (const s of symbols) {
      out.push([s.startLine, /^#*/.exec(s.signature)![0].length, s.name]);
      walk(s.children);
    }
  };
  walk(await markdownSymbols(text));
  return out;
}

/** The outline as lines, `L<start>-<end> <signature>`, indented by depth. */
async function outline(text: string): Promise<string[]> {
  const out: string[] = [];
  const walk = (symbols: SymbolNode[], pad: string) => {
    for (const s of symbols) {
      out.push(`${pad}L${s.startLine}-${s.endLine} ${s.signature}`);
      walk(s.children, `${pad}  `);
    }
  };
  walk(await markdownSymbols(text), "");
  return out;
}

/**
 * The ATX and setext heading examples of the CommonMark spec 0.31.2 (inputs copied, tabs for its `→`): which
 * lines are headings and their levels are the spec's HTML output; a name is the heading's source text
 * (`Foo *bar*`, `foo \#`: what a caller sees in the file and types), one line for a setext heading of several.
 * Example 96 opens with `---`…`---`, front matter here (tested below).
 */
const SPEC_EXAMPLES: [number, string, [number, number, string][]][] = [
  [
    62,
    "# foo\n## foo\n### foo\n#### foo\n##### foo\n###### foo\n",
    [
      [1, 1, "foo"],
      [2, 2, "foo"],
      [3, 3, "foo"],
      [4, 4, "foo"],
      [5, 5, "foo"],
      [6, 6, "foo"],
    ],
  ],
  [63, "####### foo\n", []],
  [64, "#5 bolt\n\n#hashtag\n", []],
  [65, "\\## foo\n", []],
  [66, "# foo *bar* \\*baz\\*\n", [[1, 1, "foo *bar* \\*baz\\*"]]],
  [67, "#                  foo                     \n", [[1, 1, "foo"]]],
  [
    68,
    " ### foo\n  ## foo\n   # foo\n",
    [
      [1, 3, "foo"],
      [2, 2, "foo"],
      [3, 1, "foo"],
    ],
  ],
  [69, "    # foo\n", []],
  [70, "foo\n    # bar\n", []],
  [
    71,
    "## foo ##\n  ###   bar    ###\n",
    [
      [1, 2, "foo"],
      [2, 3, "bar"],
    ],
  ],
  [
    72,
    "# foo ##################################\n##### foo ##\n",
    [
      [1, 1, "foo"],
      [2, 5, "foo"],
    ],
  ],
  [73, "### foo ###     \n", [[1, 3, "foo"]]],
  [74, "### foo ### b\n", [[1, 3, "foo ### b"]]],
  [75, "# foo#\n", [[1, 1, "foo#"]]],
  [
    76,
    "### foo \\###\n## foo #\\##\n# foo \\#\n",
    [
      [1, 3, "foo \\###"],
      [2, 2, "foo #\\##"],
      [3, 1, "foo \\#"],
    ],
  ],
  [77, "****\n## foo\n****\n", [[2, 2, "foo"]]],
  [78, "Foo bar\n# baz\nBar foo\n", [[2, 1, "baz"]]],
  [
    79,
    "## \n#\n### ###\n",
    [
      [1, 2, ""],
      [2, 1, ""],
      [3, 3, ""],
    ],
  ],
  [
    80,
    "Foo *bar*\n=========\n\nFoo *bar*\n---------\n",
    [
      [1, 1, "Foo *bar*"],
      [4, 2, "Foo *bar*"],
    ],
  ],
  [81, "Foo *bar\nbaz*\n====\n", [[1, 1, "Foo *bar baz*"]]],
  [82, "  Foo *bar\nbaz*\t\n====\n", [[1, 1, "Foo *bar baz*"]]],
  [
    83,
    "Foo\n-------------------------\n\nFoo\n=\n",
    [
      [1, 2, "Foo"],
      [4, 1, "Foo"],
    ],
  ],
  [
    84,
    "   Foo\n---\n\n  Foo\n-----\n\n  Foo\n  ===\n",
    [
      [1, 2, "Foo"],
      [4, 2, "Foo"],
      [7, 1, "Foo"],
    ],
  ],
  [85, "    Foo\n    ---\n\n    Foo\n---\n", []],
  [86, "Foo\n   ----      \n", [[1, 2, "Foo"]]],
  [87, "Foo\n    ---\n", []],
  [88, "Foo\n= =\n\nFoo\n--- -\n", []],
  [89, "Foo  \n-----\n", [[1, 2, "Foo"]]],
  [90, "Foo\\\n----\n", [[1, 2, "Foo\\"]]],
  [
    91,
    '`Foo\n----\n`\n\n<a title="a lot\n---\nof dashes"/>\n',
    [
      [1, 2, "`Foo"],
      [5, 2, '<a title="a lot'],
    ],
  ],
  [92, "> Foo\n---\n", []],
  [93, "> foo\nbar\n===\n", []],
  [94, "- Foo\n---\n", []],
  [95, "Foo\nBar\n---\n", [[1, 2, "Foo Bar"]]],
  [97, "\n====\n", []],
  [98, "---\n---\n", []],
  [99, "- foo\n-----\n", []],
  [100, "    foo\n---\n", []],
  [101, "> foo\n-----\n", []],
  [102, "\\> foo\n------\n", [[1, 2, "\\> foo"]]],
  [103, "Foo\n\nbar\n---\nbaz\n", [[3, 2, "bar"]]],
  [104, "Foo\nbar\n\n---\n\nbaz\n", []],
  [105, "Foo\nbar\n* * *\nbaz\n", []],
  [106, "Foo\nbar\n\\---\nbaz\n", []],
];

describe("markdownSymbols", () => {
  it.each(SPEC_EXAMPLES)("reads the CommonMark spec's example %i", async (_n, text, expected) => {
    expect(await headings(text)).toEqual(expected);
  });

  it("reads setext headings, each section up to the next heading of its level or higher", async () => {
    expect(await outline("Title\n=====\n\nbody\n\nSub\n---\n\ntext\n\n# ATX\n")).toEqual([
      "L1-10 # Title",
      "  L6-10 ## Sub",
      "L11-11 # ATX",
    ]);
    // The heading is the whole paragraph above the underline, from its first line.
    expect(await outline("intro\n\nline one\nline two\n===\nbody\n")).toEqual(["L3-6 # line one line two"]);
  });

  it("sees no heading in a fenced block, which only a fence of its own character, as long or longer, closes", async () => {
    const fourTicks = "````md\n```\n# inside 4-tick fence\n```\n````\n# after\n";
    expect(await headings(fourTicks)).toEqual([[6, 1, "after"]]);
    expect(await headings("~~~~\n~~~\n```\n# in\n~~~~\n# out\n")).toEqual([[6, 1, "out"]]);
    // An unclosed fence runs to the end of the document, or of the block quote or list item it is in.
    expect(await headings("# top\n```\n# not closed\n")).toEqual([[1, 1, "top"]]);
    expect(await headings("> ```\n> # in quote\n\n# after quote\n")).toEqual([[4, 1, "after quote"]]);
  });

  it("sees no heading in an HTML block, which a blank line ends (or its own end condition)", async () => {
    expect(await headings("<div>\n# in html block\n</div>\n\n# after\n")).toEqual([[5, 1, "after"]]);
    expect(await headings("<!--\n# commented\n\n# still\n-->\n# after\n")).toEqual([[6, 1, "after"]]);
    expect(await headings("<pre>\n# pre\n\n# pre too\n</pre>\n# after\n")).toEqual([[6, 1, "after"]]);
  });

  it("skips front matter at the very start: YAML between --- lines (or closed by ...), TOML between +++", async () => {
    expect(await outline("---\ntitle: x\n# yaml comment\n---\n\n# Real\n")).toEqual(["L6-6 # Real"]);
    expect(await headings("---\n# a\n...\n# Real\n")).toEqual([[4, 1, "Real"]]);
    expect(await headings("+++\n# toml comment\n+++\n# Real\n")).toEqual([[4, 1, "Real"]]);
    // The spec's example 96 reads a setext heading `Foo` there; GitHub, Jekyll and Hugo read metadata.
    expect(await headings("---\nFoo\n---\nBar\n---\nBaz\n")).toEqual([[4, 2, "Bar"]]);
    // Unclosed, or not on the first line: a thematic break, and what follows is Markdown.
    expect(await headings("---\n# A\n")).toEqual([[2, 1, "A"]]);
    expect(await headings("\n---\n# B\n---\n")).toEqual([[3, 1, "B"]]);
  });

  it("reads headings in block quotes and list items (CommonMark renders them as headings), not in indented code", async () => {
    expect(await headings("> # Quote heading\n\n- # item heading\n\n  # still in the item\n")).toEqual([
      [1, 1, "Quote heading"],
      [3, 1, "item heading"],
      [5, 1, "still in the item"],
    ]);
    expect(await headings("text\n\n    # indented code\n")).toEqual([]);
    expect(await headings("   # three spaces\n    # four spaces\n\ttab\n")).toEqual([[1, 1, "three spaces"]]);
  });

  it("names a heading without its closing #s; an empty heading still starts a section", async () => {
    expect(await outline("# Title ##\ntext\n#\nmore\n## Sub #\n")).toEqual([
      "L1-2 # Title",
      "L3-5 #",
      "  L5-5 ## Sub",
    ]);
    const [empty] = (await markdownSymbols("#\n")) as [SymbolNode];
    expect(empty.name).toBe("");
  });

  it("reads --- after a blank line as a thematic break, and === with no paragraph above as text", async () => {
    expect(await headings("para\n\n---\n\n===\n\npara\n---\n")).toEqual([[7, 2, "para"]]);
  });

  it("gives offsets that cut out each section, with CRLF, a lone CR and no final newline", async () => {
    const text = "# A\r\nx\r\n## B\r\ny\r\n# C";
    const [a, c] = (await markdownSymbols(text)) as [SymbolNode, SymbolNode];
    expect(text.slice(a.start, a.end)).toBe("# A\r\nx\r\n## B\r\ny\r\n");
    expect(text.slice(a.children[0]!.start, a.children[0]!.end)).toBe("## B\r\ny\r\n");
    expect([c.name, c.startLine, c.endLine, text.slice(c.start, c.end)]).toEqual(["C", 5, 5, "# C"]);
    // A lone CR ends no line here (mcpfs counts lines by LF), so the heading is on line 2.
    expect(await headings("a\rb\n# H\n")).toEqual([[2, 1, "H"]]);
  });
});
