/**
 * Black-box: the code tools (outline, find_symbol, read_symbol, find_references, replace_symbol,
 * insert_symbol, repo_map) on both surfaces, through the built server: right symbols and lines, comments and
 * strings never counted as references, edits through the journal (undo_change restores the bytes), a
 * result with new syntax errors refused, lost updates refused, the gate and .gitignore applied, and a file
 * without a grammar answered, not failed.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SURFACES } from "../helpers/code-surfaces.js";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, ROOT, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

const PARSER_TS = `import { helper } from "../util";

/** Parses things. */
export class Parser {
  private depth = 0;

  parse(input: string): string {
    // helper is mentioned in this comment
    return helper(input) + "helper";
  }
}

export function standalone(a: number, b: number): number {
  return a + b;
}
`;

const UTIL_TS = `export function helper(x: string): string {
  return x.trim();
}

export const LIMIT = 3;
`;

const APP_PY = `import os


class Greeter:
    """Says hello."""

    def __init__(self, name):
        self.name = name

    @property
    def greeting(self):
        return "hello " + self.name


def main():
    Greeter("x").greeting
`;

const SETTINGS_PY = `MAX_SIZE = 10
_cache = _seen = {}
a, b = 1, 2


@dataclass
class Options:
    name: str
    size: int = MAX_SIZE

    def scaled(self):
        factor = 2
        return self.size * factor
`;

const GO = `package geo

type Point struct {
\tX int
\tY int
}

func (p Point) Norm() int {
\treturn p.X*p.X + p.Y*p.Y
}

func main() {}
`;

const MD = `# Title

Intro.

## Install

\`\`\`sh
# not a heading
\`\`\`

## Use

### Details
`;

const LONG_TS = `export function configure(options: { verbose: boolean; retries: number }, callback: (err: Error | null) => void): Promise<void> {
  return Promise.resolve();
}

export interface Settings {
  verbose: boolean;
  retries: number;
}

export function apply(budget: Settings): void {}
`;

const TALLY_TS = `import { count } from "./count";

export function tally(xs: number[]): number {
  const a = count(xs);
  const b = count(xs.slice(1));
  // count in a comment
  const c = count;
  return a + b + c(xs);
}
`;

const CONFIG_YAML = `# settings
server:
  port: 8080
  tls:
    cert: a.pem

logging:
  level: info
`;

// Valid C (gcc -fsyntax-only accepts it) that names a parameter `new`, as the Linux kernel's lists do: C++'s
// keywords are identifiers in C.
const LIST_C = `#include <stddef.h>
#include "list.h"

struct node {
\tstruct node *next, *prev;
};

static void list_add(struct node *new, struct node *head)
{
\tnew->next = head->next;
\tnew->prev = head;
\thead->next = new;
}
`;

const FILES: Record<string, string> = {
  "src/parser.ts": PARSER_TS,
  "src/util.ts": UTIL_TS,
  "app.py": APP_PY,
  "settings.py": SETTINGS_PY,
  "geo.go": GO,
  "README.md": MD,
  "notes.xyz": "nothing to parse\n",
  "lib/long.ts": LONG_TS,
  "lib/tally.ts": TALLY_TS,
  "config.yaml": CONFIG_YAML,
  "Cargo.toml": '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n',
  ".gitignore": "ignored/\n",
  "ignored/secret.ts": "export function secretThing() {}\n",
};

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(SURFACES)("code tools, $name surface", (s) => {
  const root = area.tree(`${s.name}/root`, FILES);
  let conn: Connection;
  beforeAll(async () => {
    conn = await s.start(root);
  });
  afterAll(() => conn.close());
  const treeArgs = (rel?: string) => s.tree(root, rel);
  /** Files under root/`folder` for one test only: the suite's other tests never see them. */
  async function inFolder(
    folder: string,
    files: Record<string, string>,
    test: (dir: string) => Promise<void>,
  ) {
    const dir = path.join(root, folder);
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    try {
      await test(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("outline gives each symbol's kind and exact lines, nested", async () => {
    const r = await conn.call("outline", treeArgs("src/parser.ts"));
    expect(r.isError).toBe(false);
    expect(r.text).toContain("L4-11 export class Parser");
    expect(r.text).toContain("  L7-10 parse(input: string): string");
    expect(r.text).toContain("L13-15 export function standalone(a: number, b: number): number");
    const symbols = r.structured!.symbols as {
      name: string;
      startLine: number;
      endLine: number;
      children?: unknown[];
    }[];
    expect(symbols.map((x) => [x.name, x.startLine, x.endLine])).toEqual([
      ["Parser", 4, 11],
      ["standalone", 13, 15],
    ]);
    expect(symbols[0]!.children).toHaveLength(2);
  });

  it("outline lines are lean: members folded into their owner, long parameter lists by name", async () => {
    const r = await conn.call("outline", treeArgs("lib/long.ts"));
    expect(r.text.split("\n")).toEqual([
      "L1-3 export function configure(options, callback): Promise<void>",
      "L5-8 export interface Settings { verbose, retries }",
      "L10 export function apply(budget: Settings): void",
    ]);
    const p = await conn.call("outline", treeArgs("src/parser.ts"));
    expect(p.text).toContain("L4-11 export class Parser { depth }\n  L7-10 parse(input: string): string");
    const symbols = r.structured!.symbols as { name: string; children?: { name: string }[] }[];
    expect(symbols[1]!.children!.map((c) => c.name)).toEqual(["verbose", "retries"]);
  });

  it("a file without a grammar gets an outline by indentation or sections", async () => {
    const y = await conn.call("outline", treeArgs("config.yaml"));
    expect(y.isError, y.text).toBe(false);
    expect(y.text.split("\n").slice(0, 3)).toEqual(["L2-5 server:", "  L4-5 tls:", "L7-8 logging:"]);
    expect(y.text).toContain("by indentation");
    const t = await conn.call("outline", treeArgs("Cargo.toml"));
    expect(t.isError, t.text).toBe(false);
    expect(t.text.split("\n").slice(0, 2)).toEqual(["L1-2 [package]", "L4-5 [dependencies]"]);
  });

  it("outlines Python, Go and Markdown (headings outside code fences)", async () => {
    const py = await conn.call("outline", { ...treeArgs("app.py"), signatures: false });
    expect(py.text.split("\n")).toEqual([
      "L4-12 class Greeter",
      "  L7-8 method __init__",
      "  L10-12 method greeting",
      "L15-16 function main",
    ]);
    // What a module and a class body assign, as Python's ast has them; a function's locals are not symbols.
    const settings = await conn.call("outline", { ...treeArgs("settings.py"), signatures: false });
    expect(settings.text.split("\n")).toEqual([
      "L1 constant MAX_SIZE",
      "L2 variable _cache",
      "L2 variable _seen",
      "L3 variable a",
      "L3 variable b",
      "L6-13 class Options { name, size }",
      "  L11-13 method scaled",
    ]);
    const go = await conn.call("outline", { ...treeArgs("geo.go"), signatures: false });
    expect(go.text).toContain("L3-6 struct Point");
    expect(go.text).toContain("L8-10 method Norm");
    const md = await conn.call("outline", treeArgs("README.md"));
    expect(md.text.split("\n")).toEqual([
      "L1-13 # Title",
      "  L5-10 ## Install",
      "  L11-13 ## Use",
      "    L13 ### Details",
    ]);
  });

  it("outlines Markdown as CommonMark reads it: setext headings, no # in a long fence or front matter", async () => {
    const notes = [
      "---",
      "title: notes",
      "# yaml comment",
      "---",
      "",
      "Guide",
      "=====",
      "",
      "````md",
      "```",
      "# inside 4-tick fence",
      "```",
      "````",
      "",
      "Usage",
      "-----",
      "",
      "# Appendix",
      "",
    ].join("\n");
    await inFolder("notes", { "notes.md": notes }, async () => {
      const o = await conn.call("outline", treeArgs("notes/notes.md"));
      expect(o.text.split("\n")).toEqual(["L6-17 # Guide", "  L15-17 ## Usage", "L18 # Appendix"]);
      const r = await conn.call("read_symbol", { ...s.file(root, "notes/notes.md"), name: "Usage" });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain("15→Usage\n16→-----\n17→\n");
      expect(r.text).not.toContain("18→");
    });
  });

  it("an outline of a file that does not parse says where the first syntax error is, alone or in a folder", async () => {
    // tree-sitter's recovery can swallow every symbol after the error: the model is told where to look.
    const files = {
      "b.ts": "export const ok = 1;\n\nfunction f( {\n  return 1;\n}\n\nexport class Lost {}\n",
      "c.py": "def f(:\n    pass\n",
    };
    await inFolder("broken", files, async () => {
      const one = await conn.call("outline", treeArgs("broken/b.ts"));
      expect(one.isError, one.text).toBe(false);
      expect(one.text).toMatch(
        /\[mcpfs: \d+ syntax errors? in the file, the first on line 3; symbols from there on may be missing\.\]$/,
      );
      const py = await conn.call("outline", treeArgs("broken/c.py"));
      expect(py.text).toContain("[mcpfs: 1 syntax error in the file, the first on line 1;");
      const all = await conn.call("outline", treeArgs("broken"));
      expect(all.text.split("\n")).toContain(
        "  (syntax error on line 3: symbols from there on may be missing)",
      );
      expect(all.text.split("\n")).toContain(
        "  (syntax error on line 1: symbols from there on may be missing)",
      );
    });
  });

  it("a file without a grammar is answered, not failed", async () => {
    const r = await conn.call("outline", treeArgs("notes.xyz"));
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/No code grammar for .*notes\.xyz/);
  });

  it("a directory outline lists each code file, never an ignored one, and pages", async () => {
    const r = await conn.call("outline", treeArgs());
    expect(r.isError).toBe(false);
    expect(r.text).toContain("src/parser.ts");
    expect(r.text).toContain("app.py");
    expect(r.text).not.toContain("secret");
  });

  it("a directory outline of many files answers every one, and Node warns of no listener leak", async () => {
    // Each file waits under the call's one cancel signal: a listener per file passed Node's warning at 11.
    const files = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`m${i}.ts`, `export const v${i} = ${i};\n`]),
    );
    await inFolder("many", files, async () => {
      const r = await conn.call("outline", treeArgs("many"));
      expect(r.isError).toBe(false);
      for (let i = 0; i < 40; i++) expect(r.text).toContain(`constant v${i}`);
      expect(conn.stderr()).not.toMatch(/MaxListenersExceeded|memory leak/);
    });
  });

  it("C reads with the C grammar: a parameter named new is no syntax error, and an edit that uses it applies", async () => {
    // Read with the C++ grammar, the outline said "3 syntax errors" and this edit was refused ("4 where it had 3").
    await inFolder("kernel", { "list.c": LIST_C }, async (dir) => {
      const outline = await conn.call("outline", { ...treeArgs("kernel/list.c"), signatures: false });
      expect(outline.isError, outline.text).toBe(false);
      expect(outline.text.split("\n")).toEqual([
        "L4-6 struct node { next, prev }",
        "L8-13 function list_add",
      ]);
      const file = path.join(dir, "list.c");
      const edited = LIST_C.replace("\thead->next = new;", "\thead->next->prev = new;\n\thead->next = new;");
      const r = await conn.call("replace_symbol", {
        ...s.file(root, "kernel/list.c"),
        name: "list_add",
        [s.arg("newText")]: edited.slice(edited.indexOf("static void"), edited.lastIndexOf("}") + 1),
        [s.arg("expectedSha256")]: sha(LIST_C),
      });
      expect(r.isError, r.text).toBe(false);
      expect(fs.readFileSync(file, "utf8")).toBe(edited);
      const u = await conn.call("undo_change", { id: /^Change (\S+)/.exec(r.change ?? "")![1]! });
      expect(u.isError, u.text).toBe(false);
      expect(fs.readFileSync(file, "utf8")).toBe(LIST_C);
    });
  });

  it("a .h header reads as C, or as C++ when only C++ reads it without errors", async () => {
    const headers = {
      "list.h":
        "#ifndef LIST_H\n#define LIST_H\nstruct node;\nvoid list_add(struct node *new, struct node *head);\nextern int list_count;\n#endif\n",
      "graph.h":
        "#pragma once\nnamespace graph {\nclass Node {\n public:\n  int id() const { return id_; }\n\n private:\n  int id_;\n};\n}\n",
    };
    await inFolder("headers", headers, async () => {
      const c = await conn.call("outline", { ...treeArgs("headers/list.h"), signatures: false });
      expect(c.text.split("\n")).toEqual([
        "L2 macro LIST_H",
        "L4 function list_add",
        "L5 variable list_count",
      ]);
      const cpp = await conn.call("outline", { ...treeArgs("headers/graph.h"), signatures: false });
      expect(cpp.text.split("\n")).toEqual([
        "L2-10 namespace graph",
        "  L3-9 class Node { id_ }",
        "    L5 method id",
      ]);
    });
  });

  it("outline pages reach every file and every symbol of a file over a page, by following the notes", async () => {
    // big.ts alone is over a reply: the directory shows it cut, says how to see the rest of it, and goes on
    // to z.ts (the next page said "(no code files)" and the same offset forever); the file's own outline
    // pages by offset (it was ignored, and depth=1 did not fit either).
    const N = 3000;
    const big = Array.from(
      { length: N },
      (_, i) => `export function fn${i}(x: number): number { return x; }\n`,
    );
    const files = {
      "a.ts": "export function first() {}\n",
      "big.ts": big.join(""),
      "z.ts": "export function last() {}\n",
    };
    await inFolder("paged", files, async () => {
      const seen = new Set<string>();
      const note = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN);
      const names = (text: string) => [...text.matchAll(/\b(fn\d+|first|last)\b/g)].map((m) => m[1]!);
      let offset = 0;
      let fileOffset = Number.NaN;
      for (let page = 0; ; page++) {
        expect(page, "pages of the directory").toBeLessThan(10);
        const r = await conn.call("outline", { ...treeArgs("paged"), ...(offset ? { offset } : {}) });
        expect(r.isError, r.text).toBe(false);
        expect(r.text).not.toContain("(no code files");
        for (const n of names(r.text)) seen.add(n);
        const cut = note(
          r.text,
          /\n {2}\[mcpfs: showing symbols 1-\d+ of 3000; the rest: outline this file with offset=(\d+)\.\]/,
        );
        if (!Number.isNaN(cut)) fileOffset = cut;
        const next = note(r.text, / files\. Continue with offset=(\d+)\.\]$/);
        if (Number.isNaN(next)) break;
        expect(next).toBeGreaterThan(offset);
        offset = next;
      }
      expect(seen).toContain("first");
      expect(seen).toContain("last");
      expect(fileOffset).toBeGreaterThan(0);
      // The rest of big.ts through its own outline, from where the directory's page cut it.
      for (let page = 0; !Number.isNaN(fileOffset); page++) {
        expect(page, "pages of big.ts").toBeLessThan(20);
        const r = await conn.call("outline", { ...treeArgs("paged/big.ts"), offset: fileOffset });
        expect(r.isError, r.text).toBe(false);
        for (const n of names(r.text)) seen.add(n);
        const next = note(
          r.text,
          /\[mcpfs: output truncated: showing symbols \d+-\d+ of 3000\. Continue with offset=(\d+)\.\]$/,
        );
        if (!Number.isNaN(next)) {
          expect(next).toBeGreaterThan(fileOffset);
          expect(r.structured!.nextOffset).toBe(next);
        }
        fileOffset = next;
      }
      for (let i = 0; i < N; i++) expect(seen.has(`fn${i}`), `fn${i}`).toBe(true);
      // depth=1 pages from the same symbol indices.
      const top = await conn.call("outline", { ...treeArgs("paged/big.ts"), depth: 1, offset: 2990 });
      expect(top.text.split("\n")[0]).toBe("L2991 export function fn2990(x: number): number");
    });
  });

  it("find_symbol and find_references notes give the real count and the step that shows the rest", async () => {
    const inventory = [
      "public class Inventory {",
      "  private int sku;",
      ...Array.from({ length: 15 }, (_, i) => `  public int M${i}() { return sku + ${i}; }`),
      "}",
    ];
    const files = {
      "a.go": "package a\n\nfunc Get() int { return 1 }\n",
      "b.go":
        "package b\n\ntype S struct{}\n\nfunc (s S) Get() int { return 1 }\n\ntype T struct{}\n\nfunc (t T) Get() int { return 2 }\n",
      "c.go": "package c\n\nfunc Get() int { return 3 }\n",
      "Inventory.cs": `${inventory.join("\n")}\n`,
      "Many.cs": `class Many {\n  int sku;\n${"  int f() { return sku; }\n".repeat(3000)}}\n`,
    };
    const max = s.arg("maxResults");
    await inFolder("counts", files, async () => {
      const tree = await conn.call("find_symbol", { name: "Get", ...treeArgs("counts"), [max]: 1 });
      expect(tree.text).toMatch(
        new RegExp(
          `\\n\\[mcpfs: output truncated: showing 1 of at least 3 definitions\\. Continue with a larger ${max}\\.\\]$`,
        ),
      );
      const file = await conn.call("find_symbol", { name: "Get", ...treeArgs("counts/b.go"), [max]: 1 });
      expect(file.text).toMatch(/showing 1 of 2 definitions\. Continue with a larger /);
      const refs = await conn.call("find_references", {
        name: "sku",
        ...treeArgs("counts/Inventory.cs"),
        [max]: 3,
      });
      expect(refs.text.split("\n").slice(-1)[0]).toBe(
        `[mcpfs: output truncated: showing 3 of 16 occurrences. Continue with a larger ${max}.]`,
      );
      // Cut by the reply, not by maxResults: one file's rest is read from the first line not shown.
      const cut = await conn.call("find_references", {
        name: "sku",
        ...treeArgs("counts/Many.cs"),
        [max]: 5000,
      });
      const rows = cut.text.split("\n");
      const lastShown = Number(/^(\d+)/.exec(rows[rows.length - 2]!)?.[1]);
      expect(rows[rows.length - 1]).toBe(
        `[mcpfs: output truncated: showing ${lastShown - 1} of 3001 occurrences. Continue with a line range from line ${lastShown + 1}.]`,
      );
    });
  });

  it("a huge name or focus is echoed clipped by find_symbol, find_references and repo_map", async () => {
    const name = "x".repeat(60_000);
    for (const tool of ["find_symbol", "find_references"]) {
      const r = await conn.call(tool, { name, ...treeArgs() });
      expect(r.text, tool).toContain("…(60000 chars)");
      expect(r.text.length, tool).toBeLessThan(1000);
    }
    const many = Array.from({ length: 20 }, (_, i) => String.fromCharCode(97 + i).repeat(10_000));
    const map = await conn.call("repo_map", { ...treeArgs(), focus: many });
    expect(map.text).toMatch(
      /\[mcpfs: focus named no file, folder or name here: a+…\(10000 chars\), b+…\(10000 chars\), c+…\(10000 chars\) and 17 more\./,
    );
    expect(map.text.length).toBeLessThan(10_000);
    const one = await conn.call("repo_map", { ...treeArgs(), focus: ["y".repeat(50_000)] });
    expect(one.text).toMatch(/\[mcpfs: focus named no file, folder or name here: y+…\(50000 chars\)\./);
  });

  it("find_symbol finds definitions (qualified too), not mentions", async () => {
    const r = await conn.call("find_symbol", { name: "helper", ...treeArgs() });
    expect(r.text.split("\n")).toEqual([
      "src/util.ts:L1-3 function export function helper(x: string): string",
    ]);
    const q = await conn.call("find_symbol", {
      name: "Parser.parse",
      ...treeArgs(),
      [s.arg("includeBody")]: true,
    });
    expect(q.text).toContain("src/parser.ts:L7-10 method");
    expect(q.text).toContain(' 9→    return helper(input) + "helper";');
    const none = await conn.call("find_symbol", { name: "secretThing", ...treeArgs() });
    expect(none.text).not.toContain("secret.ts");
  });

  it("find_symbol and read_symbol find what the outline shows: compound and namespaced names, receivers, exports", async () => {
    // Before: each of these lookups found nothing, and the JavaScript file outlined as "(no symbols)".
    const files = {
      "panel.rb":
        "class Shop::Admin::Panel < Object\n  attr_accessor :owner, :currency\n  def render; end\nend\n",
      "repo.php": "<?php\nnamespace App\\Repository;\n\nclass OrderRepository {\n  function find() {}\n}\n",
      "Pricing.cs":
        "namespace Acme.Pricing;\n\nclass PriceCalculator {\n  decimal Net(decimal g) { return g; }\n}\n",
      "store.go":
        "package store\n\nfunc (s *Store) Get() int { return 1 }\n\nfunc (c *Cache) Get() int { return 2 }\n",
      "api.js": "exports.x = function () {};\nmodule.exports = { b: function () {}, c: () => 3 };\n",
    };
    await inFolder("lookups", files, async () => {
      const tree = treeArgs("lookups");
      const lookups: [string, string][] = [
        ["Panel", "panel.rb:L1-4 class class Shop::Admin::Panel < Object"],
        ["Shop::Admin::Panel", "panel.rb:L1-4 class class Shop::Admin::Panel < Object"],
        ["Panel.render", "panel.rb:L3-3 method def render; end"],
        ["owner", "panel.rb:L2-2 property attr_accessor :owner, :currency"],
        ["App\\Repository\\OrderRepository", "repo.php:L4-6 class class OrderRepository"],
        ["Acme.Pricing.PriceCalculator.Net", "Pricing.cs:L4-4 method decimal Net(decimal g)"],
        ["(*Store).Get", "store.go:L3-3 method func (s *Store) Get() int"],
        ["Cache.Get", "store.go:L5-5 method func (c *Cache) Get() int"],
      ];
      for (const [name, row] of lookups) {
        const r = await conn.call("find_symbol", { name, ...tree });
        expect(r.text, name).toBe(row);
      }
      const read = await conn.call("read_symbol", { ...s.file(root, "lookups/panel.rb"), name: "Panel" });
      expect(read.isError, read.text).toBe(false);
      expect(read.text).toContain("[mcpfs: Shop::Admin::Panel L1-4;");
      const js = await conn.call("outline", { ...treeArgs("lookups/api.js"), signatures: false });
      expect(js.text.split("\n")).toEqual(["L1 function x", "L2 function b", "L2 function c"]);
    });
  });

  it("an empty or blank name is refused by every symbol tool, says what to give, and changes nothing", async () => {
    // Before: find_symbol listed every symbol of the tree, find_references parsed it all for no answer.
    const file = s.file(root, "src/parser.ts");
    const calls: [string, Record<string, unknown>][] = [
      ["find_symbol", { name: "", ...treeArgs() }],
      ["find_references", { name: "  ", ...treeArgs("src") }],
      ["read_symbol", { ...file, name: "." }],
      ["replace_symbol", { ...file, name: "", [s.arg("newText")]: "x" }],
      ["insert_symbol", { ...file, name: " ", position: "after", text: "x" }],
    ];
    for (const [tool, args] of calls) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool}: ${r.text}`).toBe(true);
      expect(r.text, tool).toContain("The symbol name is empty");
      expect(r.text, tool).toContain("Parser.parse");
    }
    expect(fs.readFileSync(path.join(root, "src/parser.ts"), "utf8")).toBe(PARSER_TS);
  });

  it("read_symbol returns the numbered lines and the file's sha256", async () => {
    const r = await conn.call("read_symbol", { ...s.file(root, "src/parser.ts"), name: "standalone" });
    expect(r.text).toContain("13→export function standalone");
    expect(r.text).toContain("15→}");
    expect(r.text).not.toContain("12→");
    expect(r.structured!.sha256).toBe(sha(PARSER_TS));
  });

  it("find_references tags each occurrence and skips comments and strings", async () => {
    const r = await conn.call("find_references", { name: "helper", ...treeArgs() });
    expect(r.text).toContain("syntactic");
    expect(r.text).toContain("src/parser.ts\n1 import\n9 call: return helper(input)");
    expect(r.text).toContain("src/util.ts\n1 definition:");
    expect(r.text).not.toMatch(/\n\s*8 /); // the comment line
    expect(r.structured!.total).toBe(3);
  });

  it("find_references tags a run of lines once and shows an import by its line alone", async () => {
    const r = await conn.call("find_references", { name: "count", ...treeArgs("lib") });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.split("\n")).toEqual([
      "[syntactic matches, not type-resolved; an untagged line has the tag of the line above]",
      "tally.ts", // relative to the path asked, as grep shows it
      "1 import",
      "4 call: const a = count(xs);",
      "5: const b = count(xs.slice(1));",
      "7 other: const c = count;",
    ]);
    const files = r.structured!.files as { references: { line: number; tags: string[]; text: string }[] }[];
    expect(files[0]!.references[0]).toEqual({
      line: 1,
      tags: ["import"],
      text: 'import { count } from "./count";',
    });
    expect(files[0]!.references[2]).toEqual({
      line: 5,
      tags: ["call"],
      text: "const b = count(xs.slice(1));",
    });
  });

  it("find_references tags a parameter's type as a type, not an import", async () => {
    const r = await conn.call("find_references", { name: "Settings", ...treeArgs("lib") });
    expect(r.text).toContain("\n10 type: export function apply(budget: Settings): void {}");
  });

  it("replace_symbol writes through the journal, and undo_change restores the bytes", async () => {
    const file = path.join(root, "src/util.ts");
    const r = await conn.call("replace_symbol", {
      ...s.file(root, "src/util.ts"),
      name: "helper",
      [s.arg("newText")]: "export function helper(x: string): string {\n  return x.toUpperCase();\n}",
      [s.arg("expectedSha256")]: sha(UTIL_TS),
    });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe(UTIL_TS.replace("x.trim()", "x.toUpperCase()"));
    const id = /^Change (\S+)/.exec(r.change ?? "")![1]!;
    const u = await conn.call("undo_change", { id });
    expect(u.isError, u.text).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe(UTIL_TS);
  });

  it("replace_symbol refuses new syntax errors and a stale sha256, and changes nothing", async () => {
    const file = path.join(root, "src/util.ts");
    const bad = await conn.call("replace_symbol", {
      ...s.file(root, "src/util.ts"),
      name: "helper",
      [s.arg("newText")]: "export function helper(x: string {",
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("syntax errors");
    const stale = await conn.call("replace_symbol", {
      ...s.file(root, "src/util.ts"),
      name: "helper",
      [s.arg("newText")]: "export function helper() {}",
      [s.arg("expectedSha256")]: sha("something else"),
    });
    expect(stale.isError).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe(UTIL_TS);
  });

  it("insert_symbol indents unindented text as the symbol is; replace_symbol takes a copied first line's indent off", async () => {
    // Left at the margin, a method inserted before another ended its class and nested the next one in it,
    // with no syntax error to refuse (the file still parsed).
    const opts = "class Options:\n    size = 1\n\n    def scaled(self):\n        return self.size * 2\n";
    await inFolder("indent", { "opts.py": opts }, async (dir) => {
      const ins = await conn.call("insert_symbol", {
        ...s.file(root, "indent/opts.py"),
        name: "Options.scaled",
        position: "before",
        text: "def half(self):\n    return self.size / 2\n",
      });
      expect(ins.isError, ins.text).toBe(false);
      const rep = await conn.call("replace_symbol", {
        ...s.file(root, "indent/opts.py"),
        name: "Options.scaled",
        [s.arg("newText")]: "    def scaled(self):\n        return self.size * 3",
      });
      expect(rep.isError, rep.text).toBe(false);
      expect(fs.readFileSync(path.join(dir, "opts.py"), "utf8")).toBe(
        "class Options:\n    size = 1\n\n    def half(self):\n        return self.size / 2\n\n    def scaled(self):\n        return self.size * 3\n",
      );
      const outline = await conn.call("outline", { ...treeArgs("indent/opts.py"), signatures: false });
      expect(outline.text.split("\n")).toEqual([
        "L1-8 class Options { size }",
        "  L4-5 method half",
        "  L7-8 method scaled",
      ]);
    });
  });

  it("insert_symbol adds whole lines after a symbol; dryRun writes nothing", async () => {
    const file = path.join(root, "app.py");
    const text = "def extra():\n    return 1\n";
    const dry = await conn.call("insert_symbol", {
      ...s.file(root, "app.py"),
      name: "main",
      position: "after",
      text,
      [s.arg("dryRun")]: true,
    });
    expect(dry.text).toContain("+def extra():");
    expect(fs.readFileSync(file, "utf8")).toBe(APP_PY);
    const r = await conn.call("insert_symbol", {
      ...s.file(root, "app.py"),
      name: "main",
      position: "after",
      text,
    });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe(`${APP_PY}\n${text}`);
    fs.writeFileSync(file, APP_PY);
  });

  it("repo_map ranks the file everyone uses first and stays within its budget", async () => {
    const r = await conn.call("repo_map", { ...treeArgs(), [s.arg("maxTokens")]: 200 });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.split("\n")[0], r.text).toBe("src/util.ts:");
    expect(r.structured!.tokens as number).toBeLessThanOrEqual(200);
    expect(r.text).not.toContain("secret");
    const again = await conn.call("repo_map", { ...treeArgs(), [s.arg("maxTokens")]: 200 });
    expect(again.text).toBe(r.text);
  });

  it("repo_map: an ES module's unexported names are its own (a test's const text is not every file's text)", async () => {
    const files: Record<string, string> = {
      "lib.ts": "export function helper(text: string): string {\n  return text.trim();\n}\n",
      "lib.test.ts":
        'import { helper } from "./lib";\n\nconst text = "  fixture ";\nconst area = { text };\n\nhelper(area.text);\n',
    };
    for (const n of ["a", "b", "c", "d"])
      files[`${n}.ts`] =
        `import { helper } from "./lib";\n\nexport function use_${n}(text: string): string {\n  return helper(text);\n}\n`;
    await inFolder("esm", files, async () => {
      // Before: lib.test.ts came first, its private text and area drawing an edge from every file using `text`.
      const r = await conn.call("repo_map", { ...treeArgs("esm"), [s.arg("maxTokens")]: 40 });
      expect(r.isError, r.text).toBe(false);
      expect(r.text.split("\n").slice(0, 2)).toEqual([
        "lib.ts:",
        "  L1-3 export function helper(text: string): string",
      ]);
      expect(r.text).not.toContain("lib.test.ts");
    });
  });

  it("repo_map says which focus entries named nothing it mapped", async () => {
    const r = await conn.call("repo_map", {
      ...treeArgs(),
      focus: ["src/nope.ts", "helper", "lib", "Nowhere"],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      /\n\[mcpfs: focus named no file, folder or name here: src\/nope\.ts, Nowhere\. Paths are relative to the mapped path\.\]$/,
    );
    const all = await conn.call("repo_map", { ...treeArgs(), focus: ["src/util.ts", "helper"] });
    expect(all.text).not.toContain("focus named");
  });

  it("repo_map shows a line that declares several names once", async () => {
    const java =
      "public class Order {\n    protected String name, region;\n    public String label() { return name + region; }\n}\n";
    await inFolder("shared", { "Order.java": java }, async () => {
      const r = await conn.call("repo_map", treeArgs("shared"));
      expect(r.isError, r.text).toBe(false);
      expect(r.text.split("protected String name, region;").length, r.text).toBe(2);
    });
  });

  it("a file over the parse limit is refused by its own words and named by every tree-wide tool", async () => {
    // Generated code over 2 MiB: the code tools do not parse it, and an answer without it must say so.
    const huge = `export function bulky() {}\n${"// generated filler line\n".repeat(90_000)}`;
    const dir = area.tree(`${s.name}/root/gen`, {
      "huge.ts": huge,
      "use.ts": 'import { bulky } from "./huge";\nbulky();\n',
    });
    try {
      expect(huge.length).toBeGreaterThan(2 * 1024 * 1024);
      const one = await conn.call("outline", treeArgs("gen/huge.ts"));
      expect(one.isError).toBe(true);
      expect(one.text).toMatch(
        /too large for the code tools \(\d+ bytes; they parse up to 2097152\): .*huge\.ts\. .*grep/,
      );
      expect(one.text).not.toContain("change");
      const refs = await conn.call("find_references", { name: "bulky", ...treeArgs("gen") });
      expect(refs.text).toContain("use.ts\n1 import\n2 call: bulky();");
      expect(refs.text).toMatch(/\[mcpfs: not parsed, over 2 MiB: huge\.ts\. grep them instead\.\]$/);
      const sym = await conn.call("find_symbol", { name: "bulky", ...treeArgs("gen") });
      expect(sym.text).toMatch(
        /^No definition of 'bulky' found\..*\n\[mcpfs: not parsed, over 2 MiB: huge\.ts\./,
      );
      const tree = await conn.call("outline", treeArgs("gen"));
      expect(tree.text).toContain("huge.ts\n  (not parsed: over 2 MiB; grep it instead)");
      expect(tree.text).toContain("use.ts");
      const map = await conn.call("repo_map", treeArgs("gen"));
      expect(map.text).toMatch(/\[mcpfs: not parsed, over 2 MiB: huge\.ts\. grep them instead\.\]$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("paths outside the root are refused and nothing is read", async () => {
    const outside = area.tree(`${s.name}/outside`, { "x.ts": "export function leaked() {}\n" });
    const args =
      s.name === "workspace" ? { file_path: "../outside/x.ts" } : { path: path.join(outside, "x.ts") };
    const r = await conn.call("read_symbol", { ...args, name: "leaked" });
    expect(r.isError).toBe(true);
    expect(r.text).not.toContain("leaked()");
  });
});

// The compiled modules without the bundle (`node dist/cli/main.js DIR`, how a contributor runs a build):
// plain Node ESM loads the parser worker, whose parser package is CommonJS without named exports Node can
// see (a named import of it failed the first code tool there, while the bundle worked).
describe("code tools from the unbundled build", () => {
  const root = area.tree("unbundled/root", { "src/parser.ts": PARSER_TS, "src/list.c": LIST_C });
  it("outline answers, C too (its grammar from its own package)", async () => {
    const conn = await startServer([root], {
      bin: path.join(ROOT, "dist/cli/main.js"),
      env: { MCPFS_STATE_DIR: path.join(root, "..", "state") },
    });
    try {
      const r = await conn.call("outline", { path: path.join(root, "src/parser.ts") });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain("L4-11 export class Parser");
      const c = await conn.call("outline", { path: path.join(root, "src/list.c") });
      expect(c.isError, c.text).toBe(false);
      expect(c.text).toContain("L8-13 static void list_add(struct node *new, struct node *head)");
      expect(c.text).not.toContain("syntax error");
    } finally {
      await conn.close();
    }
  });
});

// A tree-wide tool sends many files to the parser under one call's signal: each request's abort listener
// must go when the request is answered (they piled up on the signal, and Node warned of a leak at 11).
describe("a tree-wide code tool over many files", () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++)
    files[`m${i}.ts`] = `export function f${i}(x: number) {\n  return helper(x);\n}\n`;
  const root = area.tree("many/root", files);
  it("leaves no listener behind per file (no leak warning)", async () => {
    const conn = await startServer([root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state") } });
    try {
      const r = await conn.call("find_references", { path: root, name: "helper" });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured!.total).toBe(30);
      const s = await conn.call("find_symbol", { path: root, name: "f", exact: false });
      expect(s.isError, s.text).toBe(false);
      expect(conn.stderr()).not.toContain("MaxListenersExceededWarning");
    } finally {
      await conn.close();
    }
  });
});
