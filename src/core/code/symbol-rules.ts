/**
 * Which syntax nodes of each grammar define a symbol, what kind it is, and where its name is. One table per
 * grammar family; `extract.ts` walks a tree with them. Node names are those of the grammar builds
 * languages.ts loads (their packages pinned in package.json).
 */
import type { Node } from "@vscode/tree-sitter-wasm";
import type { GrammarId, SymbolKind } from "./languages.js";

export interface Rule {
  /** The kind, or `undefined` to skip this node (it is still descended into). */
  kind: SymbolKind | ((n: Node) => SymbolKind | undefined);
  /** The name node (default: the `name` field). */
  name?: (n: Node) => Node | null | undefined;
  /** Several names declared at once (`X, Y int`; `int a, b;`): one symbol each, with the node's range. */
  names?: (n: Node) => Node[];
  /**
   * A declaration that a symbol of the same kind and name beside it makes redundant (a C prototype before its
   * function): left out then, so the name designates one symbol to edit.
   */
  yields?: boolean;
  /** The name's text, where it is not the name node's (Ruby's `:owner` names `owner`). */
  nameText?: (name: Node) => string;
  /** What the syntax qualifies the name by outside the tree's nesting (a Go method's receiver type). */
  scope?: (n: Node) => string | undefined;
}

export type Rules = Readonly<Record<string, Rule>>;

const field = (f: string) => (n: Node) => n.childForFieldName(f);

/**
 * Down a C/C++ declarator (pointers, arrays, functions, parentheses, an initialiser) to the declared name as
 * written (maybe qualified, `A::B::name`); `fn`: the name's own declarator is a function's (`*f(void)`
 * declares a function, `(*f)(void)` a pointer).
 */
function declaredAs(d: Node | null): { name: Node; fn: boolean } | null {
  let fn = false;
  for (let i = 0; d && i < 16; i++) {
    if (/identifier$|^destructor_name$|^operator_name$/.test(d.type)) return { name: d, fn };
    if (/^(function|pointer|array)_declarator$/.test(d.type)) fn = d.type === "function_declarator";
    d =
      d.childForFieldName("declarator") ??
      d.namedChildren.find((c) => c?.type.endsWith("declarator")) ??
      null;
  }
  return null;
}

/** `A::B::name` → `name`. */
function unqualified(q: Node | null): Node | null {
  let n: Node | null = q;
  while (n?.type === "qualified_identifier") n = n.childForFieldName("name");
  return n;
}

/** The declared name without its qualifier, and whether it is a function's (`declaredAs`). */
function declared(d: Node | null): { name: Node; fn: boolean } | null {
  const as = declaredAs(d);
  const name = as ? unqualified(as.name) : null;
  return as && name ? { name, fn: as.fn } : null;
}

/** The name a node's `declarator` field declares (its first, when it has several). */
const declaratorName = (n: Node): Node | null => declared(n.childForFieldName("declarator"))?.name ?? null;

/** `void A::B::name() {…}` → `A::B`: what a definition outside its class or namespace names it by. */
function declaratorScope(n: Node): string | undefined {
  const q = declaredAs(n.childForFieldName("declarator"))?.name;
  const name = q?.type === "qualified_identifier" ? unqualified(q) : null;
  return q && name ? q.text.slice(0, name.startIndex - q.startIndex).replace(/\s*::\s*$/, "") : undefined;
}

/** Whether the nearest enclosing definition-bearing node is a class-like body. */
function inClass(n: Node, bodies: readonly string[]): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (bodies.includes(p.type)) return true;
    if (/function|method|lambda|arrow/.test(p.type)) return false;
  }
  return false;
}

/** The declarators' names of a field/variable declaration (Java, C#). */
function declarators(n: Node): Node[] {
  const holder = n.namedChildren.find((c) => c?.type === "variable_declaration") ?? n;
  return holder.namedChildren
    .filter((c) => c?.type === "variable_declarator")
    .map((d) => d!.childForFieldName("name") ?? d!.namedChildren[0])
    .filter((x): x is Node => !!x);
}

/** Every `name` field of a node (Go's `X, Y int`). */
const allNames = (n: Node) => n.childrenForFieldName("name").filter((x): x is Node => !!x);

const TS_VALUE_KIND: Record<string, SymbolKind> = {
  arrow_function: "function",
  function_expression: "function",
  function: "function",
  generator_function: "function",
  class: "class",
};

/**
 * `const x = …` at the top of a module or namespace: a function, class, constant or variable. Asked of every
 * declarator (locals, mostly), so each node's type is read once (a call into WebAssembly).
 */
function tsVariable(n: Node): SymbolKind | undefined {
  const decl = n.parent;
  const holder = decl?.parent;
  const where = holder?.type;
  if (!where || !/^(program|export_statement|statement_block|ambient_declaration)$/.test(where))
    return undefined;
  if (where === "statement_block" && holder!.parent?.type !== "internal_module") return undefined;
  if (n.childForFieldName("name")?.type !== "identifier") return undefined;
  const kind = TS_VALUE_KIND[n.childForFieldName("value")?.type ?? ""];
  if (kind) return kind;
  return decl?.text.startsWith("const") ? "constant" : "variable";
}

/** Whether an expression is a statement of the module itself (`exports.f = …`, not inside a function). */
function atModuleTop(n: Node): boolean {
  const statement = n.parent;
  return statement?.type === "expression_statement" && statement.parent?.type === "program";
}

/** `exports.f = function () {…}` (or `module.exports.f = …`) at the top of a module: what it exports. */
function commonJsExport(n: Node): SymbolKind | undefined {
  const kind = TS_VALUE_KIND[n.childForFieldName("right")?.type ?? ""];
  if (!kind) return undefined;
  const left = n.childForFieldName("left");
  if (left?.type !== "member_expression" || !/^(module\.)?exports\.[\w$]+$/.test(left.text)) return undefined;
  return atModuleTop(n) ? kind : undefined;
}

/**
 * `f: function () {…}` in `module.exports = {…}` at the top of a module: a function it exports. No other object
 * literal's (a file's literals are many, and an outline of them would cost more than it tells).
 */
function commonJsExportedPair(n: Node): SymbolKind | undefined {
  const kind = TS_VALUE_KIND[n.childForFieldName("value")?.type ?? ""];
  if (!kind) return undefined;
  const assignment = n.parent?.parent;
  return assignment?.type === "assignment_expression" &&
    assignment.childForFieldName("left")?.text === "module.exports" &&
    atModuleTop(assignment)
    ? kind
    : undefined;
}

/** A member of an interface or class (not of an object type in a signature: `(): { text: string }`). */
const inInterface = (kind: SymbolKind) => (n: Node) => {
  const up = n.parent;
  return up?.type === "object_type" && up.parent?.type !== "interface_declaration" ? undefined : kind;
};

const TS: Rules = {
  function_declaration: { kind: "function" },
  generator_function_declaration: { kind: "function" },
  function_signature: { kind: "function" },
  class_declaration: { kind: "class" },
  abstract_class_declaration: { kind: "class" },
  interface_declaration: { kind: "interface" },
  type_alias_declaration: { kind: "type" },
  enum_declaration: { kind: "enum" },
  internal_module: { kind: "namespace" },
  module: { kind: "module" },
  method_definition: {
    kind: (n) => (n.childForFieldName("name")?.text === "constructor" ? "constructor" : "method"),
  },
  method_signature: { kind: inInterface("method") },
  abstract_method_signature: { kind: "method" },
  public_field_definition: { kind: "property" },
  field_definition: { kind: "property", name: field("property") },
  property_signature: { kind: inInterface("property") },
  variable_declarator: { kind: tsVariable },
  assignment_expression: {
    kind: commonJsExport,
    name: (n) => n.childForFieldName("left")?.childForFieldName("property"),
  },
  pair: {
    kind: commonJsExportedPair,
    name: (n) => {
      const key = n.childForFieldName("key");
      return key?.type === "property_identifier" ? key : null;
    },
  },
};

/** Statements whose blocks bind names where they stand: `if __name__ == "__main__":`, `try:`/`except:`, `with`. */
const PY_TRANSPARENT =
  /^(block|if_statement|elif_clause|else_clause|try_statement|except_clause|except_group_clause|finally_clause|with_statement)$/;

/**
 * Whose names a statement binds: the module's or a class body's, through `if`/`try`/`with` blocks (not a
 * loop's, not a function's), as Python's `ast` differential counts them (test/slow/code-differential.test.ts).
 */
function pyBinder(statement: Node): "module" | "class" | undefined {
  for (let p = statement.parent; p; p = p.parent) {
    if (p.type === "module") return "module";
    if (p.type === "class_definition") return "class";
    if (!PY_TRANSPARENT.test(p.type)) return undefined;
  }
  return undefined;
}

/** Targets that bind names: `x`, `a, b`, `(a, b)`, `[a, *rest]`. */
const PY_TARGET = /^(identifier|pattern_list|tuple_pattern|list_pattern|list_splat_pattern)$/;

/** The names a target binds: itself, or each name of `a, (b, *c)`; none of an attribute or a subscript. */
function pyTargetNames(t: Node, out: Node[]): void {
  if (t.type === "identifier") out.push(t);
  else if (PY_TARGET.test(t.type)) for (const c of t.namedChildren) if (c) pyTargetNames(c, out);
}

/** Each name a chain of assignments binds (`x = y = 1`, `a, b = 1, 2`). */
function pyAssigned(n: Node): Node[] {
  const out: Node[] = [];
  for (let a: Node | null = n; a?.type === "assignment"; a = a.childForFieldName("right")) {
    const left = a.childForFieldName("left");
    if (left) pyTargetNames(left, out);
  }
  return out;
}

const PEP8_CONSTANT = /^_*[A-Z][A-Z0-9_]*$/;

/**
 * `NAME = …`, `a, b = …` or `name: T = …` as a statement of the module (a constant when its names are in
 * capitals, as PEP 8 spells one) or of a class body (an attribute, a dataclass field); never a function's
 * local. Asked of every assignment, so the cheapest test goes first.
 */
function pyAssignment(n: Node): SymbolKind | undefined {
  const left = n.childForFieldName("left");
  if (!left || !PY_TARGET.test(left.type)) return undefined;
  const statement = n.parent;
  const binder = statement?.type === "expression_statement" ? pyBinder(statement) : undefined;
  if (binder === "class") return "property";
  if (binder !== "module") return undefined;
  const constant =
    left.type === "identifier"
      ? PEP8_CONSTANT.test(left.text)
      : pyAssigned(n).every((name) => PEP8_CONSTANT.test(name.text));
  return constant ? "constant" : "variable";
}

const PYTHON: Rules = {
  class_definition: { kind: "class" },
  function_definition: { kind: (n) => (inClass(n, ["class_definition"]) ? "method" : "function") },
  assignment: { kind: pyAssignment, names: pyAssigned },
  // `type Vector = list[float]` (Python 3.12)
  type_alias_statement: {
    kind: (n) => (pyBinder(n) ? "type" : undefined),
    name: (n) => n.childForFieldName("left")?.descendantsOfType("identifier")[0],
  },
};

function goType(n: Node): SymbolKind {
  const t = n.childForFieldName("type")?.type;
  return t === "struct_type" ? "struct" : t === "interface_type" ? "interface" : "type";
}

const GO: Rules = {
  function_declaration: { kind: "function" },
  method_declaration: {
    kind: "method",
    // `func (s *Store[K]) Get()` is `Store.Get`: the receiver's type tells apart methods of one name.
    scope: (n) => n.childForFieldName("receiver")?.descendantsOfType("type_identifier")[0]?.text,
  },
  type_spec: { kind: goType },
  type_alias: { kind: "type" },
  method_elem: { kind: "method" },
  method_spec: { kind: "method" },
  field_declaration: { kind: "field", names: allNames },
  const_spec: {
    kind: (n) => (n.parent?.parent?.type === "source_file" ? "constant" : undefined),
    names: allNames,
  },
  var_spec: {
    kind: (n) => {
      // `var ( … )` holds its specs in a list, `const ( … )` does not.
      const list = n.parent;
      const declaration = list?.type === "var_spec_list" ? list.parent : list;
      return declaration?.parent?.type === "source_file" ? "variable" : undefined;
    },
    names: allNames,
  },
};

const RUST: Rules = {
  function_item: { kind: (n) => (inClass(n, ["impl_item", "trait_item"]) ? "method" : "function") },
  // A trait's method without a body, or a foreign function (`extern "C" { fn abs(x: i32) -> i32; }`).
  function_signature_item: {
    kind: (n) => (n.parent?.parent?.type === "foreign_mod_item" ? "function" : "method"),
  },
  associated_type: { kind: "type" },
  struct_item: { kind: "struct" },
  union_item: { kind: "struct" },
  enum_item: { kind: "enum" },
  enum_variant: { kind: "constant" },
  trait_item: { kind: "trait" },
  impl_item: { kind: "impl", name: field("type") },
  mod_item: { kind: "module" },
  type_item: { kind: "type" },
  const_item: { kind: "constant" },
  static_item: { kind: "variable" },
  macro_definition: { kind: "macro" },
  field_declaration: { kind: "field" },
};

const JAVA: Rules = {
  class_declaration: { kind: "class" },
  interface_declaration: { kind: "interface" },
  enum_declaration: { kind: "enum" },
  enum_constant: { kind: "constant" },
  record_declaration: { kind: "class" },
  annotation_type_declaration: { kind: "interface" },
  method_declaration: { kind: "method" },
  constructor_declaration: { kind: "constructor" },
  compact_constructor_declaration: { kind: "constructor" },
  annotation_type_element_declaration: { kind: "method" },
  field_declaration: { kind: "field", names: declarators },
  constant_declaration: { kind: "constant", names: declarators },
};

const CSHARP: Rules = {
  class_declaration: { kind: "class" },
  record_declaration: { kind: "class" },
  record_struct_declaration: { kind: "struct" },
  struct_declaration: { kind: "struct" },
  interface_declaration: { kind: "interface" },
  enum_declaration: { kind: "enum" },
  enum_member_declaration: { kind: "constant" },
  delegate_declaration: { kind: "type" },
  namespace_declaration: { kind: "namespace" },
  file_scoped_namespace_declaration: { kind: "namespace" },
  method_declaration: { kind: "method" },
  constructor_declaration: { kind: "constructor" },
  destructor_declaration: { kind: "method" },
  property_declaration: { kind: "property" },
  event_declaration: { kind: "property" },
  field_declaration: { kind: "field", names: declarators },
  event_field_declaration: { kind: "property", names: declarators },
  // `operator +(…)` and `implicit operator decimal(…)`, named as C# and ctags name them; `this[…]`.
  operator_declaration: {
    kind: "method",
    name: field("operator"),
    nameText: (op) => `operator ${op.text}`,
  },
  conversion_operator_declaration: {
    kind: "method",
    name: field("type"),
    nameText: (type) => `operator ${type.text}`,
  },
  indexer_declaration: { kind: "property", name: (n) => n.children.find((c) => c?.type === "this") },
  local_function_statement: { kind: "function" },
};

/** A class/struct/union/enum with a body (a bare `struct S;` or `struct S x;` defines nothing). */
const withBody = (kind: SymbolKind) => (n: Node) => (n.childForFieldName("body") ? kind : undefined);

/** The class a C++ member is declared in (its body's owner), or undefined. */
const ownerName = (n: Node) =>
  n.parent?.type === "field_declaration_list" ? n.parent.parent?.childForFieldName("name")?.text : undefined;

/**
 * A C++ function: a constructor when named as its class (`Timer()` in its body, `Timer::Timer()` outside it),
 * else a method in a class body, else a function.
 */
function cppFunction(n: Node): SymbolKind {
  const name = declaratorName(n)?.text;
  const owner = ownerName(n) ?? declaratorScope(n)?.split("::").pop();
  if (name !== undefined && name === owner) return "constructor";
  return inClass(n, ["field_declaration_list"]) ? "method" : "function";
}

const CPP: Rules = {
  function_definition: { kind: cppFunction, name: declaratorName, scope: declaratorScope },
  class_specifier: { kind: withBody("class") },
  struct_specifier: { kind: withBody("struct") },
  union_specifier: { kind: withBody("struct") },
  enum_specifier: { kind: withBody("enum") },
  enumerator: { kind: "constant" },
  namespace_definition: { kind: "namespace" },
  type_definition: { kind: "type", name: declaratorName },
  alias_declaration: { kind: "type" },
  declaration: {
    // A variable at file or namespace level (a prototype, with a function declarator, defines nothing); in a
    // class body, a constructor or destructor declared without a type (`explicit Shape(int);`, `~Shape();`).
    kind: (n) => {
      const fn = n.descendantsOfType("function_declarator").length > 0;
      if (ownerName(n) !== undefined) return fn ? cppFunction(n) : undefined;
      return /^(translation_unit|declaration_list)$/.test(n.parent?.type ?? "") && !fn
        ? "variable"
        : undefined;
    },
    name: declaratorName,
  },
  preproc_def: { kind: "macro" },
  preproc_function_def: { kind: "macro" },
  field_declaration: {
    kind: (n) =>
      n.parent?.type !== "field_declaration_list"
        ? undefined
        : n.descendantsOfType("function_declarator").length > 0
          ? "method"
          : "field",
    name: declaratorName,
  },
};

/**
 * Whether a C declaration is at file level: in the translation unit, or in an `#if`/`#ifdef` branch (a
 * header's include guard) or an `extern "C"` block there.
 */
function atFileLevel(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (p.type === "translation_unit") return true;
    if (!/^(preproc_(if|ifdef|else|elif|elifdef)|linkage_specification|declaration_list)$/.test(p.type))
      return false;
  }
  return false;
}

/** Every name a C declaration declares (`int a, *b;`, `typedef struct s s_t, *s_p;`). */
const cNames = (n: Node): Node[] =>
  n
    .childrenForFieldName("declarator")
    .map((d) => declared(d)?.name)
    .filter((x): x is Node => !!x);

/**
 * C, by its own grammar: functions, prototypes (each left out beside its function, see `yields`), file-level
 * variables, structs, unions, enums, typedefs, macros and members, every name of a declaration that has
 * several. A declaration's kind is its first declarator's (`int *f(void), x;` is rare).
 */
const C: Rules = {
  function_definition: { kind: "function", name: declaratorName },
  struct_specifier: { kind: withBody("struct") },
  union_specifier: { kind: withBody("struct") },
  enum_specifier: { kind: withBody("enum") },
  enumerator: { kind: "constant" },
  type_definition: { kind: "type", names: cNames },
  declaration: {
    kind: (n) =>
      !atFileLevel(n) ? undefined : declared(n.childForFieldName("declarator"))?.fn ? "function" : "variable",
    names: cNames,
    yields: true,
  },
  preproc_def: { kind: "macro" },
  preproc_function_def: { kind: "macro" },
  field_declaration: { kind: "field", names: cNames },
};

/** `attr_accessor :a, :b` (or `attr_reader`, `attr_writer`) in a class or module body: a property each. */
function rubyAccessor(n: Node): SymbolKind | undefined {
  if (!/^attr_(accessor|reader|writer)$/.test(n.childForFieldName("method")?.text ?? "")) return undefined;
  const body = n.parent;
  return body?.type === "body_statement" && /^(class|module|singleton_class)$/.test(body.parent?.type ?? "")
    ? "property"
    : undefined;
}

const RUBY: Rules = {
  class: { kind: "class" },
  module: { kind: "module" },
  method: { kind: "method" },
  singleton_method: { kind: "method" },
  call: {
    kind: rubyAccessor,
    names: (n) =>
      (n.childForFieldName("arguments")?.namedChildren ?? []).filter(
        (a): a is Node => a?.type === "simple_symbol",
      ),
    nameText: (symbol) => symbol.text.slice(1),
  },
  assignment: {
    kind: (n) =>
      n.childForFieldName("left")?.type === "constant" &&
      /^(program|body_statement)$/.test(n.parent?.type ?? "")
        ? "constant"
        : undefined,
    name: field("left"),
  },
};

const PHP: Rules = {
  class_declaration: { kind: "class" },
  interface_declaration: { kind: "interface" },
  trait_declaration: { kind: "trait" },
  enum_declaration: { kind: "enum" },
  enum_case: { kind: "constant" },
  namespace_definition: { kind: "namespace" },
  function_definition: { kind: "function" },
  method_declaration: {
    kind: (n) => (n.childForFieldName("name")?.text === "__construct" ? "constructor" : "method"),
  },
  property_declaration: {
    kind: "property",
    name: (n) => n.descendantsOfType("property_element")[0]?.descendantsOfType("name")[0] ?? null,
  },
  const_declaration: {
    kind: "constant",
    name: (n) => n.descendantsOfType("const_element")[0]?.namedChildren[0] ?? null,
  },
};

export const RULES: Readonly<Record<GrammarId, Rules>> = {
  typescript: TS,
  tsx: TS,
  javascript: TS,
  python: PYTHON,
  go: GO,
  rust: RUST,
  java: JAVA,
  "c-sharp": CSHARP,
  c: C,
  cpp: CPP,
  ruby: RUBY,
  php: PHP,
};

/** Wrappers whose range is the definition's: `export`, decorators, `template<…>`. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "export_statement",
  "decorated_definition",
  "template_declaration",
  "ambient_declaration",
]);
