/** The two surfaces as the code tools' black-box tests drive them: how each starts and spells arguments. */
import path from "node:path";
import { type Connection, startServer } from "./server.js";

export interface Surface {
  name: string;
  start(root: string): Promise<Connection>;
  /** A file argument as this surface takes it. */
  file(root: string, rel: string): Record<string, string>;
  tree(root: string, rel?: string): Record<string, string>;
  text: "content" | "result";
  arg(name: string): string;
}

export const SURFACES: Surface[] = [
  {
    name: "filesystem",
    start: (root) => startServer([root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-fs") } }),
    file: (root, rel) => ({ path: path.join(root, rel) }),
    tree: (root, rel) => ({ path: rel ? path.join(root, rel) : root }),
    text: "content",
    arg: (n) => n,
  },
  {
    name: "workspace",
    start: (root) =>
      startServer(["--project-dir", root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-ws") } }),
    file: (_root, rel) => ({ file_path: rel }),
    tree: (_root, rel) => ({ path: rel ?? "." }),
    text: "result",
    arg: (n) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  },
];
