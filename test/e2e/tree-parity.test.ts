/**
 * A complete directory_tree is the official server's tree, byte for byte once children are in name order:
 * written straight from the walk's records (no node objects), and, being over 1 MiB, sent by the stdio
 * transport a piece at a time. 15,000 entries (the 1M-entry case is in the bench: directory_tree_1m).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, OFFICIAL_BIN, startServer } from "../helpers/server.js";

interface Node {
  name: string;
  type: string;
  children?: Node[];
}

const area = tempArea("mcpfs-tree-parity-");
afterAll(() => area.cleanup());
const dir = area.tree("tree");
// Names the JSON must escape, and a character outside the BMP (a surrogate pair in the text).
const odd = ['quo"te', "back\\slash", "tab\tname", "é-composed", "emoji-😀", "ctl-\u0001"];
for (let a = 0; a < 150; a++) {
  const sub = path.join(dir, `dir-${String(a).padStart(3, "0")}-${odd[a % odd.length]}`);
  fs.mkdirSync(sub);
  for (let f = 0; f < 99; f++)
    fs.closeSync(fs.openSync(path.join(sub, `file-${f}-${odd[f % odd.length]}`), "w"));
}
fs.mkdirSync(path.join(dir, "empty"));

const byName = (nodes: Node[]): Node[] =>
  nodes
    .map((n) => (n.children ? { ...n, children: byName(n.children) } : n))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

describe("directory_tree of 15,000 entries, whole", () => {
  let mcpfs: Connection;
  let official: Connection;
  beforeAll(async () => {
    mcpfs = await startServer(["--max-output-bytes", String(4 * 2 ** 20), dir]);
    official = await startServer([dir], { bin: OFFICIAL_BIN });
  });
  afterAll(async () => {
    await mcpfs?.close();
    await official?.close();
  });

  it("is the official tree, children in name order, in the same JSON layout", async () => {
    const ours = await mcpfs.call("directory_tree", { path: dir });
    const theirs = await official.call("directory_tree", { path: dir });
    expect(ours.isError).toBe(false);
    expect(Buffer.byteLength(ours.text)).toBeGreaterThan(2 ** 20);
    expect(ours.structured?.truncated).toBe(false);
    expect(ours.structured?.content).toBe(ours.text);
    expect(ours.text).toBe(JSON.stringify(byName(JSON.parse(theirs.text)), null, 2));
  });
});
