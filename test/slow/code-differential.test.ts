/**
 * Differential: the definitions `outline` finds against each language's own parser on real code.
 * - TypeScript: the compiler API on the project's own src/ and on zod's sources (node_modules/zod/src).
 * - Python: `ast` on the top-level modules of the Python standard library on this machine (classes,
 *   functions, and the names a module or class body assigns: constants, variables, attributes; in its own
 *   statements and in those of its `if`/`try`/`with` blocks, which bind names where they stand).
 * - Go, Rust, Java, C#, C, C++, Ruby, PHP: Universal Ctags on the fixtures in test/fixtures/code/.
 * Compared: top-level definitions and their members (class, interface, struct, enum, function, method,
 * field, …), by name and line range (first line, last line). Each language's agreement is printed.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { type Connection, ROOT, startServer } from "../helpers/server.js";

interface Def {
  name: string;
  start: number;
  /** undefined: the reference does not say (ctags has no end line for some languages). */
  end?: number;
  /** 0 top level, 1 member; undefined: any depth (ctags). */
  level?: number;
}

interface Sym {
  name: string;
  startLine: number;
  endLine: number;
  children?: Sym[];
}

const conns: Connection[] = [];
afterAll(async () => {
  for (const c of conns) await c.close();
});

async function serve(dir: string): Promise<Connection> {
  const c = await startServer([dir], { timeoutMs: 120_000 });
  conns.push(c);
  return c;
}

/** Our symbols of a file, flattened with their depth. */
async function ours(conn: Connection, file: string): Promise<(Def & { level: number })[]> {
  const r = await conn.call("outline", { path: file });
  expect(r.isError, `${file}: ${r.text}`).toBe(false);
  const out: (Def & { level: number })[] = [];
  const walk = (list: Sym[], level: number) => {
    for (const s of list) {
      out.push({ name: s.name, start: s.startLine, end: s.endLine, level });
      walk(s.children ?? [], level + 1);
    }
  };
  walk((r.structured?.symbols as Sym[] | undefined) ?? [], 0);
  return out;
}

interface Tally {
  total: number;
  found: number;
  equal: number;
  misses: string[];
}

/** How many reference definitions we find (same name and level) and with equal line ranges. */
function compare(file: string, ref: Def[], got: (Def & { level: number })[], t: Tally, near = 0): void {
  const pool = got.slice();
  for (const d of ref) {
    t.total++;
    const sameName = (g: Def & { level: number }) =>
      g.name === d.name && (d.level === undefined || g.level === d.level);
    const exact = pool.findIndex(
      (g) =>
        sameName(g) &&
        (d.end === undefined
          ? g.start <= d.start && d.start <= (g.end ?? g.start) // only the name's line is known: it lies in our range
          : g.end === d.end && g.start <= d.start && d.start - g.start <= near),
    );
    if (exact !== -1) {
      t.found++;
      t.equal++;
      pool.splice(exact, 1);
      continue;
    }
    const named = pool.findIndex(sameName);
    if (named !== -1) {
      t.found++;
      const g = pool[named]!;
      t.misses.push(`${file}: ${d.name} L${d.start}-${d.end ?? "?"} vs L${g.start}-${g.end}`);
      pool.splice(named, 1);
    } else t.misses.push(`${file}: ${d.name} L${d.start}-${d.end ?? "?"} not found`);
  }
}

const tally = (): Tally => ({ total: 0, found: 0, equal: 0, misses: [] });
const report = (lang: string, t: Tally) =>
  console.log(
    `${lang}: ${t.total} definitions, found ${t.found} (${((100 * t.found) / t.total).toFixed(2)} %), equal lines ${t.equal} (${((100 * t.equal) / t.total).toFixed(2)} %)` +
      (t.misses.length > 0 ? `\n  ${t.misses.slice(0, 15).join("\n  ")}` : ""),
  );

/** The compiler's top-level declarations and their members. */
function tsDefs(file: string, text: string): Def[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const out: Def[] = [];
  const add = (level: number, name: string, n: ts.Node) =>
    out.push({ level, name, start: line(n.getStart(sf)), end: line(n.getEnd()) });
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const decls = st.declarationList.declarations;
      for (const d of decls) if (ts.isIdentifier(d.name)) add(0, d.name.text, decls.length === 1 ? st : d);
      continue;
    }
    const named =
      ts.isFunctionDeclaration(st) ||
      ts.isClassDeclaration(st) ||
      ts.isInterfaceDeclaration(st) ||
      ts.isTypeAliasDeclaration(st) ||
      ts.isEnumDeclaration(st);
    if (!named || !st.name) continue;
    add(0, st.name.getText(sf), st);
    if (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st))
      for (const m of st.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>) {
        if (ts.isConstructorDeclaration(m)) add(1, "constructor", m);
        else if (
          m.name &&
          (ts.isMethodDeclaration(m) ||
            ts.isPropertyDeclaration(m) ||
            ts.isGetAccessor(m) ||
            ts.isSetAccessor(m) ||
            ts.isPropertySignature(m) ||
            ts.isMethodSignature(m))
        )
          add(1, m.name.getText(sf), m);
      }
  }
  return out;
}

function filesUnder(dir: string, ext: RegExp): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => ext.test(f) && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f))
    .sort();
}

describe("outline against each language's own parser", () => {
  it.each([
    ["TypeScript (the project's src/)", path.join(ROOT, "src")],
    ["TypeScript (zod's sources)", path.join(ROOT, "node_modules", "zod", "src")],
  ])("%s: the TypeScript compiler API", async (label, dir) => {
    const conn = await serve(dir);
    const t = tally();
    for (const file of filesUnder(dir, /\.tsx?$/)) {
      const text = fs.readFileSync(file, "utf8");
      compare(path.relative(dir, file), tsDefs(file, text), await ours(conn, file), t);
    }
    report(label, t);
    expect(t.total).toBeGreaterThan(500);
    expect(t.equal / t.total).toBeGreaterThanOrEqual(0.99);
  });

  it("Python: ast on the standard library's top-level modules", async () => {
    const stdlib = execFileSync(
      "python3",
      ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
      {
        encoding: "utf8",
      },
    ).trim();
    const files = fs
      .readdirSync(stdlib)
      .filter((f) => f.endsWith(".py"))
      .sort()
      .map((f) => path.join(stdlib, f));
    const script = `
import ast, json, sys
out = {}
for f in sys.argv[1:]:
    try:
        tree = ast.parse(open(f, "rb").read())
    except SyntaxError:
        continue
    defs = []
    def start(n):
        return min([d.lineno for d in n.decorator_list] + [n.lineno])
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    def names(t):
        # The names a target binds: x; each name of a, (b, *c); none of an attribute or a subscript
        if isinstance(t, ast.Name):
            return [t.id]
        if isinstance(t, (ast.Tuple, ast.List)):
            return [x for e in t.elts for x in names(e)]
        if isinstance(t, ast.Starred):
            return names(t.value)
        return []
    def named(n):
        # The names an assignment statement binds: NAME = ..., x = y = ..., a, b = ..., name: T [= ...]
        if isinstance(n, ast.Assign):
            return [x for t in n.targets for x in names(t)]
        if isinstance(n, ast.AnnAssign):
            return names(n.target)
        return []
    tries = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
    def statements(body):
        # A body's statements and those of its if/try/with blocks, which bind names where they stand
        for n in body:
            yield n
            if isinstance(n, ast.If):
                yield from statements(n.body)
                yield from statements(n.orelse)
            elif isinstance(n, tries):
                yield from statements(n.body)
                for h in n.handlers:
                    yield from statements(h.body)
                yield from statements(n.orelse)
                yield from statements(n.finalbody)
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                yield from statements(n.body)
    for n in statements(tree.body):
        if isinstance(n, kinds):
            defs.append([0, n.name, start(n), n.end_lineno])
            if isinstance(n, ast.ClassDef):
                for m in statements(n.body):
                    if isinstance(m, kinds):
                        defs.append([1, m.name, start(m), m.end_lineno])
                    for name in named(m):
                        defs.append([1, name, m.lineno, m.end_lineno])
        for name in named(n):
            defs.append([0, name, n.lineno, n.end_lineno])
    out[f] = defs
print(json.dumps(out))`;
    const ref = JSON.parse(
      execFileSync("python3", ["-c", script, ...files], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }),
    ) as Record<string, [number, string, number, number][]>;
    const conn = await serve(stdlib);
    const t = tally();
    for (const [file, defs] of Object.entries(ref))
      compare(
        path.basename(file),
        defs.map(([level, name, start, end]) => ({ level, name, start, end })),
        await ours(conn, file),
        t,
      );
    report("Python (standard library)", t);
    expect(t.total).toBeGreaterThan(2000);
    expect(t.equal / t.total).toBeGreaterThanOrEqual(0.99);
  });

  /** Kinds of ctags that name no definition an outline shows (imports, packages). */
  const SKIP = new Set(["package", "packageName", "alias", "unknown"]);
  /** Ruby's `attr_accessor :a` is one property `a` in an outline; ctags tags its writer `a=` too. */
  const isWriter = (tag: { kind: string; name: string }) => tag.kind === "accessor" && tag.name.endsWith("=");
  const FIXTURES = path.join(ROOT, "test", "fixtures", "code");
  let fixtures: Connection | undefined;

  it.each([
    ["Go", "shapes.go"],
    ["Rust", "store.rs"],
    ["Java", "Library.java"],
    ["C#", "Inventory.cs"],
    ["C", "buffer.c"],
    ["C++", "graph.cpp"],
    ["Ruby", "billing.rb"],
    ["PHP", "Cart.php"],
  ])("%s: Universal Ctags", async (lang, name) => {
    const file = path.join(FIXTURES, name);
    const tags = execFileSync(
      "ctags",
      ["--output-format=json", "--fields=+neKZ", "--kinds-C=+p", "-f", "-", file],
      { encoding: "utf8" },
    )
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { name: string; kind: string; line: number; end?: number })
      // ctags names an anonymous struct or union `__anon<hash>`; an outline has no name for it.
      .filter((tag) => !SKIP.has(tag.kind) && !tag.name.startsWith("__anon") && !isWriter(tag))
      // A C prototype beside its function is left out of the outline (symbol-rules.ts, `yields`).
      .filter(
        (tag, _, all) =>
          tag.kind !== "prototype" || !all.some((t) => t.kind === "function" && t.name === tag.name),
      );
    fixtures ??= await serve(FIXTURES);
    const got = await ours(fixtures, file);
    const t = tally();
    // ctags gives the line of the name; a definition starts up to 3 lines above it (annotations,
    // attributes, `template <…>`).
    // ctags 5.9 gives no end line for Rust, PHP and C typedefs: there its line must lie in our range.
    compare(
      name,
      tags.map((tag) => ({ name: tag.name, start: tag.line, end: tag.end })),
      got,
      t,
      3,
    );
    report(lang, t);
    expect(t.total).toBeGreaterThan(8);
    expect(t.equal / t.total).toBeGreaterThanOrEqual(0.99);
  });
});
