/**
 * Definitions as the outline has them (extract.ts, symbol-rules.ts) and as a lookup finds them by name
 * (symbols.ts `matchSymbols`): real grammars, parsed in this process as the parser worker parses them.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import treeSitter from "@vscode/tree-sitter-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { extractOccurrences, extractSymbols, type SymbolNode } from "./extract.js";
import type { GrammarId } from "./languages.js";
import { checkSymbolName, flatten, matchSymbols } from "./symbols.js";

const { Language, Parser } = treeSitter;
const grammarDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm/package.json")),
  "wasm",
);
let parser: InstanceType<typeof Parser>;

beforeAll(async () => {
  await Parser.init({ locateFile: (file: string) => path.join(grammarDir, file) });
  parser = new Parser();
});

async function parse(grammar: GrammarId, text: string) {
  parser.setLanguage(
    await Language.load(await readFile(path.join(grammarDir, `tree-sitter-${grammar}.wasm`))),
  );
  return parser.parse(text)!;
}

async function symbolsOf(grammar: GrammarId, text: string): Promise<SymbolNode[]> {
  const tree = await parse(grammar, text);
  try {
    return extractSymbols(tree.rootNode, grammar, text);
  } finally {
    tree.delete();
  }
}

/** Each symbol as `depth kind name Lstart-end`, outermost first. */
const listed = (symbols: SymbolNode[]) =>
  flatten(symbols).map(
    (f) => `${f.depth} ${f.symbol.kind} ${f.symbol.name} L${f.symbol.startLine}-${f.symbol.endLine}`,
  );

/** The qualified names and first lines a query finds. */
const found = (symbols: SymbolNode[], name: string) =>
  matchSymbols(symbols, { name }).map((f) => `${f.qualified} L${f.symbol.startLine}`);

describe("Ruby", () => {
  const RB = `class Shop::Admin::Panel < Object
  attr_accessor :owner, :currency
  attr_reader :items

  def render; end
end

module Billing
  class Invoice
    attr_writer :total
  end
end

attr_reader :loose
`;

  it("a compound class name is found by its last part, qualified or not, and its methods under it", async () => {
    const symbols = await symbolsOf("ruby", RB);
    expect(symbols[0]!.signature).toBe("class Shop::Admin::Panel < Object");
    expect(found(symbols, "Panel")).toEqual(["Shop::Admin::Panel L1"]);
    expect(found(symbols, "Shop::Admin::Panel")).toEqual(["Shop::Admin::Panel L1"]);
    expect(found(symbols, "Admin::Panel")).toEqual(["Shop::Admin::Panel L1"]);
    expect(found(symbols, "Panel.render")).toEqual(["Shop::Admin::Panel.render L5"]);
    expect(found(symbols, "Panel#render")).toEqual(["Shop::Admin::Panel.render L5"]);
    expect(found(symbols, "Admin")).toEqual([]);
  });

  it("attr_accessor, attr_reader and attr_writer in a class body are its properties", async () => {
    const symbols = await symbolsOf("ruby", RB);
    expect(listed(symbols)).toEqual([
      "0 class Shop::Admin::Panel L1-6",
      "1 property owner L2-2",
      "1 property currency L2-2",
      "1 property items L3-3",
      "1 method render L5-5",
      "0 module Billing L8-12",
      "1 class Invoice L9-11",
      "2 property total L10-10",
    ]);
    expect(found(symbols, "owner")).toEqual(["Shop::Admin::Panel.owner L2"]);
    expect(found(symbols, "Invoice.total")).toEqual(["Billing.Invoice.total L10"]);
  });
});

describe("namespaces a lookup may name", () => {
  it("PHP: a file's `namespace App\\Repository;` and a braced namespace qualify their classes", async () => {
    const symbols = await symbolsOf(
      "php",
      `<?php
namespace App\\Repository;

use Foo\\Bar;

class OrderRepository {
  function find() {}
}
`,
    );
    expect(listed(symbols)).toEqual([
      "0 namespace App\\Repository L2-2",
      "0 class OrderRepository L6-8",
      "1 method find L7-7",
    ]);
    expect(found(symbols, "App\\Repository\\OrderRepository")).toEqual([
      "App\\Repository.OrderRepository L6",
    ]);
    expect(found(symbols, "OrderRepository")).toEqual(["App\\Repository.OrderRepository L6"]);
    expect(found(symbols, "Repository\\OrderRepository::find")).toEqual([
      "App\\Repository.OrderRepository.find L7",
    ]);
    expect(found(symbols, "App\\Repository")).toEqual(["App\\Repository L2"]);

    const braced = await symbolsOf(
      "php",
      "<?php\nnamespace App\\Legacy {\n  class Report { function run() {} }\n}\n",
    );
    for (const name of ["App\\Legacy\\Report", "Legacy\\Report", "App.Legacy.Report", "Report"])
      expect(found(braced, name), name).toEqual(["App\\Legacy.Report L3"]);
    expect(found(braced, "Legacy\\Report::run")).toEqual(["App\\Legacy.Report.run L3"]);
  });

  it("PHP: each `namespace X;` holds the definitions up to the next one", async () => {
    const symbols = await symbolsOf(
      "php",
      "<?php\nnamespace A;\nfunction f() {}\nnamespace B;\nfunction f() {}\n",
    );
    expect(found(symbols, "f")).toEqual(["A.f L3", "B.f L5"]);
    expect(found(symbols, "B\\f")).toEqual(["B.f L5"]);
    expect(found(symbols, "B")).toEqual(["B L4"]);
  });

  it("C#: a file-scoped namespace qualifies the types after it, as a block namespace does", async () => {
    const symbols = await symbolsOf(
      "c-sharp",
      `using System;
namespace Acme.Pricing;

public class PriceCalculator {
  decimal Net(decimal gross) { return gross; }
}
`,
    );
    expect(listed(symbols)).toEqual([
      "0 namespace Acme.Pricing L2-2",
      "0 class PriceCalculator L4-6",
      "1 method Net L5-5",
    ]);
    expect(found(symbols, "Acme.Pricing.PriceCalculator.Net")).toEqual([
      "Acme.Pricing.PriceCalculator.Net L5",
    ]);
    expect(found(symbols, "PriceCalculator.Net")).toEqual(["Acme.Pricing.PriceCalculator.Net L5"]);
    const block = await symbolsOf("c-sharp", "namespace Acme.Pricing {\n  class P { void Net() {} }\n}\n");
    expect(found(block, "Acme.Pricing.P.Net")).toEqual(["Acme.Pricing.P.Net L2"]);
  });

  it("C++: a nested namespace's parts, and a definition outside its namespace or class", async () => {
    const symbols = await symbolsOf(
      "cpp",
      `namespace detail::io {
void show() {}
}
void detail::io::print() {}
struct Foo {
  void bar();
};
void Foo::bar() {}
`,
    );
    expect(found(symbols, "detail::io::show")).toEqual(["detail::io.show L2"]);
    expect(found(symbols, "io::show")).toEqual(["detail::io.show L2"]);
    expect(found(symbols, "detail::io::print")).toEqual(["detail::io.print L4"]);
    expect(found(symbols, "Foo::bar")).toEqual(["Foo.bar L6", "Foo.bar L8"]);
    expect(found(symbols, "show")).toEqual(["detail::io.show L2"]);
  });
});

describe("Go", () => {
  const GO = `package store

var (
\tErrNotFound = errors.New("not found")
\ta, b        = 1, 2
)

func f() {
\tvar (
\t\tlocal = 1
\t)
}

func (s *Store) Get(k string) int { return 0 }
func (c Cache[T]) Get() {}
func (*Pool[K, V]) Get() {}
func Get() {}
`;

  it("a grouped var block's names are variables, and their definitions are tagged so", async () => {
    const symbols = await symbolsOf("go", GO);
    expect(listed(symbols).slice(0, 3)).toEqual([
      "0 variable ErrNotFound L4-4",
      "0 variable a L5-5",
      "0 variable b L5-5",
    ]);
    expect(found(symbols, "local")).toEqual([]);
    const tree = await parse("go", GO);
    try {
      expect(extractOccurrences(tree.rootNode, "go", GO, "ErrNotFound").get("ErrNotFound")).toEqual([
        { line: 4, column: 2, tag: "definition" },
      ]);
    } finally {
      tree.delete();
    }
  });

  it("a method is found by its receiver's type: Store.Get, (*Store).Get", async () => {
    const symbols = await symbolsOf("go", GO);
    expect(found(symbols, "Store.Get")).toEqual(["Store.Get L14"]);
    expect(found(symbols, "(*Store).Get")).toEqual(["Store.Get L14"]);
    expect(found(symbols, "Cache.Get")).toEqual(["Cache.Get L15"]);
    expect(found(symbols, "(*Pool).Get")).toEqual(["Pool.Get L16"]);
    expect(found(symbols, "Get")).toEqual(["Store.Get L14", "Cache.Get L15", "Pool.Get L16", "Get L17"]);
    expect(symbols.find((s) => s.startLine === 14)!.name).toBe("Get");
    // A receiver with no type names no symbol: refused, as an empty name is, not matched with every one.
    expect(() => checkSymbolName("(*)")).toThrow();
  });
});

describe("JavaScript CommonJS exports", () => {
  const JS = `exports.x = function () {};
exports.y = function named(a) {
  return a;
};
module.exports.z = async () => {};
module.exports = { b: function () {}, c: () => 3, d() {}, n: 1 };
exports.w = void 0;
exports.K = class {};

function inner() {
  exports.notTop = function () {};
  const o = { e: function () {} };
}
call({ f: () => 1 });
const options = { g() {}, h: function () {} };
`;

  it("top-level exports assigned a function or class are outlined; other object literals are not", async () => {
    const symbols = await symbolsOf("javascript", JS);
    expect(listed(symbols)).toEqual([
      "0 function x L1-1",
      "0 function y L2-4",
      "0 function z L5-5",
      "0 function b L6-6",
      "0 function c L6-6",
      "0 method d L6-6",
      "0 class K L8-8",
      "0 function inner L10-13",
      "0 constant options L15-15",
      "1 method g L15-15",
    ]);
    expect(symbols[1]!.signature).toBe("exports.y = function named(a)");
    expect(symbols[2]!.signature).toBe("module.exports.z = async () =>");
    expect(symbols[3]!.signature).toBe("b: function ()");
    expect(found(symbols, "y")).toEqual(["y L2"]);
  });
});

describe("Python", () => {
  it("a type alias, a tuple's names, and names bound under a module's if/try/with are the module's", async () => {
    const symbols = await symbolsOf(
      "python",
      `type Vector = list[float]
a, b = 1, 2
A, (B, *C) = 1, (2, 3)
x = obj.attr = 1
try:
    from _speedups import fast
except ImportError:
    fast = None
for i in range(3):
    tmp = i


class K:
    type Alias = int
    if True:
        flag = 1


def main():
    local = 1
    type Local = int


if __name__ == "__main__":
    args = main()

    def helper():
        pass
`,
    );
    expect(listed(symbols)).toEqual([
      "0 type Vector L1-1",
      "0 variable a L2-2",
      "0 variable b L2-2",
      "0 constant A L3-3",
      "0 constant B L3-3",
      "0 constant C L3-3",
      "0 variable x L4-4",
      "0 variable fast L8-8",
      "0 class K L13-16",
      "1 type Alias L14-14",
      "1 property flag L16-16",
      "0 function main L19-21",
      "0 variable args L25-25",
      "0 function helper L27-28",
    ]);
  });
});
