/**
 * Symbols and identifier occurrences of one parsed file (runs in the parser worker). Definitions come from
 * the grammar's rule table (`symbol-rules.ts`); occurrences are the identifier leaves of the tree, so text
 * inside comments and strings (single leaves of their own) is never one.
 */
import type { Node } from "@vscode/tree-sitter-wasm";
import type { GrammarId, SymbolKind } from "./languages.js";
import { RULES, type Rule, WRAPPERS } from "./symbol-rules.js";

/** A definition. Lines are 1-based; `start`/`end` are UTF-16 offsets into the parsed text (for edits). */
export interface SymbolNode {
  name: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  start: number;
  end: number;
  signature: string;
  children: SymbolNode[];
  /**
   * What qualifies the name where the tree does not nest it (`A.B`, `A::B`, `A\B`, parts as lookups read
   * them): a Go method's receiver type, a C++ definition's `A::` outside its class or namespace, the namespace
   * a C# or PHP file declares without braces (`namespace App;`) for the definitions after it.
   */
  scope?: string;
}

export type RefTag = "definition" | "call" | "import" | "type" | "other";

export interface Occurrence {
  line: number;
  column: number;
  tag: RefTag;
}

const SIGNATURE_MAX = 200;

function kindOf(rule: Rule, n: Node): SymbolKind | undefined {
  return typeof rule.kind === "function" ? rule.kind(n) : rule.kind;
}

/**
 * The node whose range is the definition's: the lone declarator's declaration, then any wrappers. Each parent
 * is asked once (the tree finds a node's parent by walking down from the root).
 */
function outerOf(n: Node): Node {
  let o = n;
  let up = n.parent;
  if (
    n.type === "variable_declarator" &&
    up &&
    up.namedChildren.filter((c) => c?.type === "variable_declarator").length === 1
  ) {
    o = up;
    up = o.parent;
  }
  while (up && WRAPPERS.has(up.type)) {
    o = up;
    up = o.parent;
  }
  return o;
}

/** The last leaf of a node that is not a comment: a definition ends there, not at comments after its body. */
function lastCode(n: Node): Node {
  let c = n.lastChild;
  while (c && /comment/.test(c.type)) c = c.previousSibling;
  return c ? lastCode(c) : n;
}

/** The text from the definition's start up to its body, on one line. */
function signatureOf(n: Node, outer: Node, text: string): string {
  let value = n.childForFieldName("value");
  if (!value) {
    // `exports.f = function () {…}`: the function's body ends it, as `const f = () => {…}`'s does.
    const right = n.childForFieldName("right");
    if (right && /function|arrow|^class$/.test(right.type)) value = right;
  }
  const body = n.childForFieldName("body") ?? value?.childForFieldName("body") ?? null;
  // Comments between the header and the body (Python's `class A:` then `# …` lines) are not the header's.
  let head = body;
  while (head?.previousSibling && /comment/.test(head.previousSibling.type)) head = head.previousSibling;
  let end = head && head.startIndex > outer.startIndex ? head.startIndex : outer.endIndex;
  const firstBreak = text.indexOf("\n", outer.startIndex);
  if (!body && firstBreak !== -1) end = Math.min(end, firstBreak);
  let sig = text.slice(outer.startIndex, end).replace(/\s+/g, " ").trim();
  if (body) sig = sig.replace(/\s*(\{|=>|=|:)?$/, (m) => (m.includes("=>") ? " =>" : ""));
  return sig.length > SIGNATURE_MAX ? `${sig.slice(0, SIGNATURE_MAX - 1)}…` : sig;
}

function namesOf(rule: Rule, n: Node): Node[] {
  if (rule.names) return rule.names(n);
  const one = (rule.name ?? ((x: Node) => x.childForFieldName("name")))(n);
  return one ? [one] : [];
}

function symbolAt(n: Node, rule: Rule, nameNode: Node, kind: SymbolKind, text: string): SymbolNode {
  const outer = outerOf(n);
  const last = lastCode(outer);
  const end = last.endPosition;
  return {
    name: rule.nameText ? rule.nameText(nameNode) : nameNode.text,
    kind,
    startLine: outer.startPosition.row + 1,
    // A node that ends with its line break (a preprocessor line) ends on the line before.
    endLine: end.row + 1 - (end.column === 0 && end.row > outer.startPosition.row ? 1 : 0),
    start: outer.startIndex,
    end: last.endIndex,
    signature: signatureOf(n, outer, text),
    children: [],
  };
}

/** Node types of identifiers (leaves only count: a qualified name holds identifiers). */
const IDENTIFIER = /identifier$|^constant$|^name$/;

/** What a walk asks a grammar's trees for, computed once per grammar from its node types. */
interface GrammarTypes {
  /** Rule node type names (named or not: the tree matches by name; `rules` keeps the named ones). */
  ruleNames: string[];
  /** The named node type ids a rule applies to, with the rule. */
  rules: Map<number, Rule>;
  /** Node type names of identifier leaves. */
  identifiers: string[];
}

const typesByGrammar = new Map<GrammarId, GrammarTypes>();

function typesOf(root: Node, grammar: GrammarId): GrammarTypes {
  let t = typesByGrammar.get(grammar);
  if (t) return t;
  const lang = root.tree.language;
  const table = RULES[grammar];
  const rules = new Map<number, Rule>();
  const identifiers = new Set<string>();
  lang.types.forEach((name, id) => {
    if (typeof name !== "string") return;
    if (Object.hasOwn(table, name) && lang.nodeTypeIsNamed(id)) rules.set(id, table[name]!);
    if (IDENTIFIER.test(name)) identifiers.add(name);
  });
  t = { ruleNames: Object.keys(table), rules, identifiers: [...identifiers] };
  typesByGrammar.set(grammar, t);
  return t;
}

/**
 * The nodes a rule applies to, in document order (pre-order), with their rule. The tree collects them in
 * one call into WebAssembly: walking it from JavaScript costs several calls per node, most of the time.
 */
function ruleNodes(root: Node, grammar: GrammarId): [Node, Rule][] {
  const t = typesOf(root, grammar);
  const out: [Node, Rule][] = [];
  for (const n of root.descendantsOfType(t.ruleNames)) {
    const rule = n ? t.rules.get(n.typeId) : undefined;
    if (rule) out.push([n!, rule]);
  }
  return out;
}

/** The definitions of a tree, nested (a method under its class). */
export function extractSymbols(root: Node, grammar: GrammarId, text: string): SymbolNode[] {
  const top: SymbolNode[] = [];
  // The definitions enclosing the current node: a node starting at or past one's end is outside it.
  const open: { end: number; children: SymbolNode[] }[] = [];
  const yielding = new Set<SymbolNode>();
  // The name of the last namespace declared without braces (`namespace App;`): it holds the rest of the file.
  let fileNamespace: string | undefined;
  for (const [n, rule] of ruleNodes(root, grammar)) {
    while (open.length > 0 && open[open.length - 1]!.end <= n.startIndex) open.pop();
    const kind = kindOf(rule, n);
    if (!kind) continue;
    const into = open.length > 0 ? open[open.length - 1]!.children : top;
    const scope = rule.scope?.(n) ?? (into === top && kind !== "namespace" ? fileNamespace : undefined);
    let last: SymbolNode | undefined;
    for (const nameNode of namesOf(rule, n)) {
      last = symbolAt(n, rule, nameNode, kind, text);
      if (scope) last.scope = scope;
      into.push(last);
      if (rule.yields) yielding.add(last);
    }
    if (kind === "namespace" && into === top)
      fileNamespace = n.childForFieldName("body") ? undefined : last?.name;
    if (last) open.push({ end: n.endIndex, children: last.children });
  }
  return yielding.size === 0 ? top : withoutRedundant(top, yielding);
}

/** A list without its `yielding` symbols whose kind and name another symbol of the list has (`Rule.yields`). */
function withoutRedundant(list: SymbolNode[], yielding: Set<SymbolNode>): SymbolNode[] {
  const key = (s: SymbolNode) => `${s.kind} ${s.name}`;
  const defined = new Set(list.filter((s) => !yielding.has(s)).map(key));
  const kept = list.filter((s) => !yielding.has(s) || !defined.has(key(s)));
  for (const s of kept) s.children = withoutRedundant(s.children, yielding);
  return kept;
}

/** Every name node of a definition, by start offset (to tag occurrences that define). */
function definitionStarts(root: Node, grammar: GrammarId): Set<number> {
  const starts = new Set<number>();
  for (const [n, rule] of ruleNodes(root, grammar))
    if (kindOf(rule, n)) for (const name of namesOf(rule, n)) starts.add(name.startIndex);
  return starts;
}

const IMPORT =
  /import|^use_declaration$|^using_directive$|^preproc_include$|^namespace_use|^require(_once)?_expression$/;
const CALL =
  /^(call_expression|call|method_invocation|invocation_expression|new_expression|object_creation_expression|function_call_expression|member_call_expression|scoped_call_expression|nullsafe_member_call_expression)$/;
const ACCESS =
  /^(member_expression|field_expression|attribute|selector_expression|scoped_identifier|qualified_identifier|member_access_expression|scope_resolution|generic_name)$/;
const CALLEE_FIELDS = ["function", "name", "method", "constructor", "type"];

function tagOf(n: Node, defs: Set<number>): RefTag {
  if (defs.has(n.startIndex)) return "definition";
  for (let p = n.parent, i = 0; p && i < 6; p = p.parent, i++) if (IMPORT.test(p.type)) return "import";
  let callee: Node = n;
  while (
    callee.parent &&
    ACCESS.test(callee.parent.type) &&
    callee.parent.lastNamedChild?.startIndex === callee.startIndex
  )
    callee = callee.parent;
  const call = callee.parent;
  if (
    call &&
    CALL.test(call.type) &&
    CALLEE_FIELDS.some((f) => call.childForFieldName(f)?.startIndex === callee.startIndex)
  )
    return "call";
  if (n.type === "type_identifier" || /type/.test(n.parent?.type ?? "")) return "type";
  return "other";
}

/**
 * The identifier leaves of a tree, by name: each occurrence with its line, column and role (`tagged`
 * false: only definition or other, which is all the repository map needs and much cheaper).
 */
export function extractOccurrences(
  root: Node,
  grammar: GrammarId,
  text: string,
  only?: string,
  tagged = true,
): Map<string, Occurrence[]> {
  const defs = definitionStarts(root, grammar);
  const out = new Map<string, Occurrence[]>();
  for (const n of root.descendantsOfType(typesOf(root, grammar).identifiers)) {
    if (!n || (only !== undefined && !text.startsWith(only, n.startIndex)) || n.childCount > 0) continue;
    const name = text.slice(n.startIndex, n.endIndex);
    if (only !== undefined && name !== only) continue;
    const list = out.get(name) ?? [];
    if (list.length === 0) out.set(name, list);
    const tag: RefTag = defs.has(n.startIndex) ? "definition" : tagged ? tagOf(n, defs) : "other";
    list.push({ line: n.startPosition.row + 1, column: n.startPosition.column + 1, tag });
  }
  return out;
}

/**
 * The names a tree uses without defining them there, with counts, in the order each name first occurs (any
 * role): `extractOccurrences` untagged, counted, without an object per occurrence (the repository map reads
 * every file of a tree this way).
 */
export function extractUses(root: Node, grammar: GrammarId, text: string): [string, number][] {
  const defs = definitionStarts(root, grammar);
  const counts = new Map<string, number>();
  for (const n of root.descendantsOfType(typesOf(root, grammar).identifiers)) {
    if (!n || n.childCount > 0) continue;
    const name = text.slice(n.startIndex, n.endIndex);
    counts.set(name, (counts.get(name) ?? 0) + (defs.has(n.startIndex) ? 0 : 1));
  }
  return [...counts].filter(([, count]) => count > 0);
}

/**
 * The 1-based line of the first ERROR or MISSING node in document order, 0 when there is none: where an
 * outline may start missing symbols (tree-sitter's recovery can swallow the rest of the file).
 */
function firstErrorLine(root: Node): number {
  let n: Node | null = root.hasError ? root : null;
  while (n && !n.isError && !n.isMissing)
    n = n.children.find((c) => c !== null && (c.hasError || c.isMissing)) ?? null;
  return n ? n.startPosition.row + 1 : 0;
}

/** How many ERROR and MISSING nodes a tree holds. */
function errorCount(root: Node): number {
  if (!root.hasError) return 0;
  let count = 0;
  const visit = (n: Node): void => {
    if (n.isError || n.isMissing) count++;
    if (n.hasError) for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  return count;
}

/** The width of the indentation of the line holding `offset`. */
function lineIndent(text: string, offset: number): number {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0].length;
}

/** A body's statements, comments left out (they may sit at any column). */
const statementsOf = (n: Node) =>
  n.namedChildren.filter((c): c is Node => c !== null && !/comment/.test(c.type));

/** Lines of statements that start a line of their own at another column than `column`. */
function misaligned(stmts: Node[], column: number): number[] {
  return stmts
    .filter(
      (c, i) =>
        (i === 0 || c.startPosition.row > stmts[i - 1]!.endPosition.row) && c.startPosition.column !== column,
    )
    .map((c) => c.startPosition.row + 1);
}

/**
 * The 1-based lines of Python's indentation errors, which tree-sitter's Python grammar parses without an
 * ERROR node (so an edit could write a file Python refuses to compile): a body with no statement ("expected
 * an indented block"), a body not indented past the line that opens it, a top-level statement not at the
 * margin ("unexpected indent"), and a statement on a line of its own not aligned with its body's first
 * ("unindent does not match any outer indentation level").
 */
function pythonIndentFaults(root: Node, text: string): number[] {
  const faults = misaligned(statementsOf(root), 0);
  for (const block of root.descendantsOfType("block")) {
    if (!block) continue;
    const owner = block.parent;
    if (block.startIndex === block.endIndex) {
      faults.push(block.startPosition.row + 2);
      continue;
    }
    const stmts = statementsOf(block);
    const first = stmts[0];
    if (!first || !owner) continue;
    if (
      first.startPosition.row > owner.startPosition.row &&
      first.startPosition.column <= lineIndent(text, owner.startIndex)
    )
      faults.push(first.startPosition.row + 1);
    faults.push(...misaligned(stmts, first.startPosition.column));
  }
  return faults;
}

/**
 * A tree's syntax errors (an edit may not add any): its ERROR and MISSING nodes, and for Python the
 * indentation errors its compiler would report; `firstLine` is the first of them (0: none).
 */
export function syntaxFaults(
  root: Node,
  grammar: GrammarId,
  text: string,
): { count: number; firstLine: number } {
  const indent = grammar === "python" ? pythonIndentFaults(root, text) : [];
  const lines = [firstErrorLine(root), ...indent].filter((l) => l > 0);
  return { count: errorCount(root) + indent.length, firstLine: lines.length > 0 ? Math.min(...lines) : 0 };
}

/** Node types that annotate the definition after them (decorators, Rust/C#/PHP attributes, annotations). */
const ATTRIBUTES = /^(decorator|attribute_item|attribute_list|attribute_group|annotation|marker_annotation)$/;

/**
 * Where the definition starting at `at` begins with what is attached above it: the comments (its doc) and
 * attributes or decorators right before it, each on lines of its own with no blank line between. Text
 * inserted before a definition goes above these, so a doc comment or `#[derive]` stays with its definition.
 */
export function leadingStart(root: Node, text: string, at: number): number {
  let n: Node | null = root.descendantForIndex(at);
  while (n?.parent && n.parent.startIndex === at && n.parent.parent) n = n.parent;
  if (!n || n.startIndex !== at) return at;
  let lead = at;
  let row = n.startPosition.row;
  for (let p = n.previousSibling; p; p = p.previousSibling) {
    const attached = /comment/.test(p.type) || ATTRIBUTES.test(p.type);
    const ownLines = /^[ \t]*$/.test(text.slice(text.lastIndexOf("\n", p.startIndex - 1) + 1, p.startIndex));
    if (!attached || !ownLines || p.endPosition.row < row - 1) break;
    lead = p.startIndex;
    row = p.startPosition.row;
  }
  return lead;
}
