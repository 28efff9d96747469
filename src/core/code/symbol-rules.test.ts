/**
 * The C rules on real C, through the extraction the worker runs: the definitions Universal Ctags lists for the
 * same text (`ctags --kinds-C=+p`: functions, prototypes, variables, structs, unions, enums, typedefs, macros,
 * members, every name of a declaration of several), a prototype left out beside its function, and the tags
 * find_references gives C's identifiers.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseWith } from "../../../test/helpers/tree-sitter.js";
import { extractOccurrences, extractSymbols, type SymbolNode } from "./extract.js";
import type { GrammarId } from "./languages.js";
import { outlineLines } from "./outline.js";

/** Valid C (gcc -fsyntax-only accepts it with CONFIG_H defined) that names things `new`, `this` and `class`. */
const DEVICE_C = `#include <stdio.h>
#include CONFIG_H

#define BUF_MIN 16
#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct list_head { struct list_head *next, *prev; };

struct device {
    const char *name;
    unsigned flags : 4, ready : 1;
    int (*probe)(struct device *this);
    union {
        int id;
        void *data;
    };
    struct {
        int x, y;
    } pos;
};

typedef struct device device_t, *device_p;
typedef int (*visit_fn)(const char *s, void *ctx);
enum mode { MODE_READ, MODE_WRITE };
union value { int i; double d; };

int counter = 0, limit;
extern int errno_value;
int (*handler)(int);
void list_add(struct list_head *new, struct list_head *head);
static int helper(int class);
int (*get_handler(int n))(int);

static int helper(int class)
{
    return class + 1;
}

void list_add(struct list_head *new, struct list_head *head)
{
    struct list_head *this = head;
    new->next = this->next;
    helper(BUF_MIN);
}

#ifndef CONFIG_X
int under_ifndef(void);
#else
int under_else;
#endif
`;

const tree = await parseWith("c", DEVICE_C);
afterAll(() => tree.delete());

/** The outline as `L<start>-<end> kind name`, nested by indentation. */
function lines(symbols: SymbolNode[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${"  ".repeat(depth)}L${s.startLine}-${s.endLine} ${s.kind} ${s.name}`,
    ...lines(s.children, depth + 1),
  ]);
}

describe("C symbols", () => {
  it("lists what ctags lists, each name of a declaration of several, an anonymous union's members as its owner's", () => {
    expect(lines(extractSymbols(tree.rootNode, "c", DEVICE_C))).toEqual([
      "L4-4 macro BUF_MIN",
      "L5-5 macro MAX",
      "L7-7 struct list_head",
      "  L7-7 field next",
      "  L7-7 field prev",
      "L9-20 struct device",
      "  L10-10 field name",
      "  L11-11 field flags",
      "  L11-11 field ready",
      "  L12-12 field probe",
      "  L14-14 field id",
      "  L15-15 field data",
      "  L17-19 field pos",
      "    L18-18 field x",
      "    L18-18 field y",
      "L22-22 type device_t",
      "L22-22 type device_p",
      "L23-23 type visit_fn",
      "L24-24 enum mode",
      "  L24-24 constant MODE_READ",
      "  L24-24 constant MODE_WRITE",
      "L25-25 struct value",
      "  L25-25 field i",
      "  L25-25 field d",
      "L27-27 variable counter",
      "L27-27 variable limit",
      "L28-28 variable errno_value",
      "L29-29 variable handler",
      // the prototypes of list_add and helper (L30, L31) are left out beside their functions
      "L32-32 function get_handler",
      "L34-37 function helper",
      "L39-44 function list_add",
      "L47-47 function under_ifndef",
      "L49-49 variable under_else",
    ]);
  });

  it("tags an include's name import, a call call, a struct's name type, a definition's name definition", () => {
    const tags = (name: string) =>
      extractOccurrences(tree.rootNode, "c", DEVICE_C, name)
        .get(name)
        ?.map((o) => `${o.line} ${o.tag}`);
    expect(tags("CONFIG_H")).toEqual(["2 import"]);
    expect(tags("helper")).toEqual(["31 definition", "34 definition", "43 call"]);
    expect(tags("list_head")).toEqual([
      "7 definition",
      "7 type",
      "30 type",
      "30 type",
      "39 type",
      "39 type",
      "41 type",
    ]);
    expect(tags("new")).toEqual(["30 other", "39 other", "42 other"]);
  });
});

describe("C++ constructors", () => {
  it("a function named as its class is a constructor, in its body or outside it; declared-only ones count", async () => {
    const text = `class Shape {
 public:
  explicit Shape(int sides);
  virtual ~Shape();
  Shape(const Shape& other) : sides_(other.sides_) {}
  int sides() const { return sides_; }
 private:
  int sides_;
};
Shape::Shape(int sides) : sides_(sides) {}
Shape::~Shape() {}
`;
    const tree = await parseWith("cpp", text);
    expect(lines(extractSymbols(tree.rootNode, "cpp", text))).toEqual([
      "L1-9 class Shape",
      "  L3-3 constructor Shape",
      "  L4-4 method ~Shape",
      "  L5-5 constructor Shape",
      "  L6-6 method sides",
      "  L8-8 field sides_",
      "L10-10 constructor Shape",
      "L11-11 function ~Shape",
    ]);
    tree.delete();
  });
});

describe("enum members", () => {
  const cases: [GrammarId, string, string[]][] = [
    [
      "rust",
      "pub enum Event { Started, Stopped(i32), Moved { x: i32 } }\n",
      ["L1 pub enum Event { Started, Stopped }", "  L1 Moved { x }"],
    ],
    ["c", "enum color { RED, GREEN = 2 };\n", ["L1 enum color { RED, GREEN }"]],
    ["cpp", "enum class Unit { Meter, Foot };\n", ["L1 enum class Unit { Meter, Foot }"]],
    [
      "java",
      'enum Status { NEW("n") { void f() {} }, SHIPPED("s"); }\n',
      ["L1 enum Status { SHIPPED }", '  L1 NEW("n")', "    L1 void f()"],
    ],
    ["c-sharp", "enum Zone { Cold, Dry = 2, Hazmat }\n", ["L1 enum Zone { Cold, Dry, Hazmat }"]],
    [
      "php",
      '<?php\nenum Status: string { case Pending = "p"; case Done = "d"; }\n',
      ["L2 enum Status: string { Pending, Done }"],
    ],
  ];
  it.each(cases)(
    "%s: an enum's members are its constants, folded on its line (find_symbol finds them)",
    async (grammar, text, outline) => {
      const tree = await parseWith(grammar, text);
      const symbols = extractSymbols(tree.rootNode, grammar, text);
      expect(outlineLines(symbols, { language: grammar }).map((l) => l.text)).toEqual(outline);
      tree.delete();
    },
  );
});

describe("C# members", () => {
  it("operators, conversion operators, indexers and local functions are outlined", async () => {
    const text = `class W {
  public static W operator +(W a, W b) => a;
  public static implicit operator decimal(W c) => 0;
  public int this[string sku] { get => 0; set {} }
  void R() { int Add(int x) => x; }
}
`;
    const tree = await parseWith("c-sharp", text);
    expect(
      outlineLines(extractSymbols(tree.rootNode, "c-sharp", text), { language: "c-sharp" }).map(
        (l) => l.text,
      ),
    ).toEqual([
      "L1-6 class W { this }",
      "  L2 public static W operator +(W a, W b)",
      "  L3 public static implicit operator decimal(W c)",
      "  L5 void R()",
      "    L5 int Add(int x)",
    ]);
    tree.delete();
  });
});

describe("Rust declarations without a body", () => {
  it("a foreign function is a function, a trait's associated type a type", async () => {
    const text =
      'extern "C" {\n    fn abs(x: i32) -> i32;\n}\npub trait Sink {\n    type Output;\n    fn push(&mut self, x: u8);\n}\n';
    const tree = await parseWith("rust", text);
    expect(lines(extractSymbols(tree.rootNode, "rust", text))).toEqual([
      "L2-2 function abs",
      "L4-7 trait Sink",
      "  L5-5 type Output",
      "  L6-6 method push",
    ]);
    tree.delete();
  });
});
