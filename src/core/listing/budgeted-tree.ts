/**
 * directory_tree's builder: a walk kept to what one reply can show, rendered as 2-space-indented JSON that
 * fits the reply's budget. Whole top levels are kept (breadth first) rather than one deep branch. A tree
 * that fits whole is written straight from the walk's records (no node objects, no JSON.stringify), so a
 * million-entry tree costs its records and its text.
 */
import path from "node:path";
import { byteLength, type ReplyBudget } from "../budget.js";
import { STOP, type WalkEachOptions, type WalkEntry, type WalkStats, walkEach } from "../walk.js";
import type { Workspace } from "../workspace.js";
import { describeLink } from "./listing.js";

interface TreeNode {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  target?: string;
  children?: TreeNode[];
  truncated?: boolean;
}

/**
 * One walked entry at a depth the reply might still show: a compact record, never its path. `kids` are the
 * recorded children (dirs only); `count` all the children the walk kept, recorded or not.
 */
interface Rec {
  name: string;
  type: WalkEntry["type"];
  depth: number;
  kids: Rec[] | undefined;
  count: number;
  /** Absolute path, for symlinks only (their target is described when shown). */
  abs?: string;
}

/**
 * Upper bound on entries walked for one tree. Deep entries are only counted (see collect), so memory stays
 * flat; the bound caps the work, like the time limit (a 1.1M-entry tree walks in ~4 s on a quiet machine).
 */
export const MAX_WALK_ENTRIES = 5_000_000;

function nodeType(t: WalkEntry["type"]): TreeNode["type"] {
  return t === "dir" ? "directory" : t;
}

/** Bytes an entry adds to 2-space-indented JSON, slightly over-estimated. */
function cost(name: string, type: WalkEntry["type"], depth: number): number {
  const indent = 4 * depth;
  return byteLength(JSON.stringify(name)) + 3 * indent + (type === "dir" ? 70 : 40);
}

const byName = (a: Rec, b: Rec) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Walks the tree keeping records only down to the depth the budget can reach. The reply shows whole top
 * levels (breadth first), so once the estimated size of levels 1..d exceeds the budget nothing below d can
 * be shown: deeper entries are only counted, and that depth only ever gets shallower as the walk goes on.
 * Read level by level, the walk learns it before it meets the deep entries.
 */
async function collect(opts: WalkEachOptions, budget: number) {
  const top: Rec[] = [];
  const links: Rec[] = [];
  const byDepth: Rec[][] = [];
  const costAt: number[] = [];
  let cutDepth = Number.POSITIVE_INFINITY;
  let total = 0;
  const lower = (depth: number) => {
    cutDepth = depth;
    for (let d = depth + 1; d < byDepth.length; d++) byDepth[d] = [];
    for (const r of byDepth[depth] ?? []) r.kids = undefined;
  };
  const stats = await walkEach<Rec>(opts, (name, _rel, type, depth, dirAbs, parent) => {
    if (total >= MAX_WALK_ENTRIES) return STOP;
    total++;
    if (parent) parent.count++;
    if (depth > cutDepth) return undefined;
    const rec: Rec = { name, type, depth, kids: type === "dir" ? [] : undefined, count: 0 };
    if (type === "symlink") {
      rec.abs = dirAbs === opts.start ? path.join(dirAbs, name) : `${dirAbs}/${name}`;
      links.push(rec);
    }
    (parent ? parent.kids! : top).push(rec);
    const level = byDepth[depth];
    if (level) level.push(rec);
    else byDepth[depth] = [rec];
    costAt[depth] = (costAt[depth] ?? 0) + cost(name, type, depth);
    let sum = 4;
    for (let d = 1; d < costAt.length && d <= cutDepth; d++) {
      sum += costAt[d] ?? 0;
      if (sum > budget) {
        if (d < cutDepth) lower(d);
        break;
      }
    }
    return rec;
  });
  // Nothing was ever left below a depth: every record was kept, the tree may fit whole.
  return { top, total, stats, links, whole: cutDepth === Number.POSITIVE_INFINITY };
}

/** Records in breadth-first order, children by name: the order in which the budget keeps them. */
function breadthFirst(top: Rec[]): Rec[] {
  const order = top.sort(byName).slice();
  for (let i = 0; i < order.length; i++) {
    const kids = order[i]!.kids;
    if (kids) for (const k of kids.sort(byName)) order.push(k);
  }
  return order;
}

/**
 * Moves a cut back to the start of the sibling group it falls in (breadth-first order keeps siblings
 * together), so every directory shown is either whole or shown empty with "truncated": true: a
 * `directory_tree` of that directory then gives exactly what was left out, with nothing shown twice. Top-level
 * entries are kept even when only some fit (there is no smaller path to send the client to).
 */
function wholeGroups(order: readonly Rec[], cut: number): number {
  if (cut >= order.length || cut === 0 || order[cut]!.depth === 1) return cut;
  const parentOf = new Map<Rec, Rec>();
  for (const r of order.slice(0, cut + 1)) for (const k of r.kids ?? []) parentOf.set(k, r);
  const parent = parentOf.get(order[cut]!);
  let at = cut;
  while (at > 0 && parentOf.get(order[at - 1]!) === parent) at--;
  return at;
}

function build(
  recs: readonly Rec[],
  kept: ReadonlySet<Rec>,
  links: ReadonlyMap<Rec, string>,
  complete: boolean,
): TreeNode[] {
  const node = (r: Rec): TreeNode => {
    const n: TreeNode = { name: r.name, type: nodeType(r.type) };
    const target = links.get(r);
    if (target !== undefined) n.target = target;
    if (r.type === "dir") {
      n.children = [];
      for (const k of r.kids ?? []) if (kept.has(k)) n.children.push(node(k));
      // Children the walk found but the reply leaves out.
      if (!complete && r.count > n.children.length) n.truncated = true;
    }
    return n;
  };
  return recs.filter((r) => r.depth === 1 && kept.has(r)).map(node);
}

export interface BudgetedTree {
  /** The tree as JSON, taken from the budget (at most what it had left). */
  json: string;
  /** Entries in the JSON. */
  shown: number;
  /** Entries the walk found (up to `MAX_WALK_ENTRIES`). */
  total: number;
  stats: WalkStats;
  /** Depth of the first entry left out, when some were. */
  firstLeftDepth: number | undefined;
}

/** Symlink targets, only for links shown and only when they stay inside the roots. */
async function linkTargets(ws: Workspace, shown: Iterable<Rec>): Promise<Map<Rec, string>> {
  const targets = new Map<Rec, string>();
  for (const r of shown) {
    if (r.type !== "symlink" || r.abs === undefined) continue;
    const link = await describeLink(ws, r.abs);
    if (link) targets.set(r, link.info.target);
  }
  return targets;
}

/** Walks `opts.start` and renders the part of its tree that fits in what `budget` has left; takes it. */
export async function budgetedTree(
  ws: Workspace,
  opts: WalkEachOptions,
  budget: ReplyBudget,
): Promise<BudgetedTree> {
  const room = budget.remaining;
  let { top, total, stats, links, whole } = await collect(opts, room);
  if (whole) {
    // Written as JSON.stringify(tree, null, 2) would write it, straight from the records, which are let
    // go as they are written.
    const text = new TextOut();
    writeChildren(text, top, "", await linkTargets(ws, links));
    if (text.bytes <= room) {
      const json = text.finish();
      budget.take(json);
      return { json, shown: total, total, stats, firstLeftDepth: undefined };
    }
    // The estimate is generous, so this should never happen: the records were let go, walk again.
    ({ top, total, stats } = await collect(opts, room));
  }
  const tree = cutTree(ws, top, total, room);
  const { json, shown, firstLeftDepth } = await tree;
  budget.take(json);
  return { json, shown, total, stats, firstLeftDepth };
}

/** The breadth-first part of a tree too big for `room`: whole top levels, cut groups marked truncated. */
async function cutTree(ws: Workspace, top: Rec[], total: number, room: number) {
  // Breadth first: the budget keeps whole top levels rather than one deep branch.
  const order = breadthFirst(top);
  let bytes = 4;
  let cut = order.length;
  for (let i = 0; i < order.length; i++) {
    const r = order[i]!;
    bytes += cost(r.name, r.type, r.depth);
    if (bytes > room) {
      cut = i;
      break;
    }
  }
  cut = wholeGroups(order, cut);
  const links = await linkTargets(ws, order.slice(0, cut));
  const render = () => {
    const kept = new Set(order.slice(0, cut));
    return JSON.stringify(build(order, kept, links, cut === total), null, 2);
  };
  let json = render();
  // The estimate is generous; should it ever fall short, drop the deepest entries until the text fits.
  while (byteLength(json) > room && cut > 0) {
    cut = wholeGroups(order, Math.floor(cut * 0.9));
    json = render();
  }
  return { json, shown: cut, firstLeftDepth: order[cut]?.depth };
}

/**
 * `recs` as the JSON array JSON.stringify(nodes, null, 2) writes at `indent` (children by name, keys in
 * the order name, type, target, children), without making the nodes.
 */
function writeChildren(out: TextOut, recs: Rec[], indent: string, targets: ReadonlyMap<Rec, string>): void {
  if (recs.length === 0) {
    out.write("[]");
    return;
  }
  recs.sort(byName);
  const item = `${indent}  `;
  const member = `${item}  `;
  out.write("[\n");
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i]!;
    const target = targets.get(r);
    const head =
      `${i === 0 ? "" : ",\n"}${item}{\n${member}"name": ${JSON.stringify(r.name)},\n${member}"type": "${nodeType(r.type)}"` +
      (target === undefined ? "" : `,\n${member}"target": ${JSON.stringify(target)}`);
    if (r.type !== "dir") {
      out.write(`${head}\n${item}}`);
      continue;
    }
    out.write(`${head},\n${member}"children": `);
    writeChildren(out, r.kids ?? [], member, targets);
    r.kids = undefined;
    out.write(`\n${item}}`);
  }
  out.write(`\n${indent}]`);
}

/**
 * Text written in pieces into a reused 1 MiB buffer, decoded a megabyte at a time: a long text costs its
 * own size (twice, briefly, when the pieces are joined), not one string per piece.
 */
class TextOut {
  private buf = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  private readonly parts: string[] = [];
  /** UTF-8 bytes written. */
  bytes = 0;

  write(text: string): void {
    // At most 3 bytes per UTF-16 unit.
    if (this.at + text.length * 3 > this.buf.length) this.flush(text.length * 3);
    const n = this.buf.write(text, this.at);
    this.at += n;
    this.bytes += n;
  }

  finish(): string {
    this.parts.push(this.buf.toString("utf8", 0, this.at));
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join("");
  }

  /** Decodes what is written; only whole pieces are ever in the buffer, so no character is split. */
  private flush(need: number): void {
    this.parts.push(this.buf.toString("utf8", 0, this.at));
    this.at = 0;
    if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need);
  }
}
