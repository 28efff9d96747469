/**
 * The tool runner (src/server/register-tools.ts) on a fault that is not the caller's: a tool whose work
 * throws what a bundle lacking a package throws (MODULE_NOT_FOUND), or a TypeError. The reply says it is a
 * server bug and names the path only as not being the problem; the log has the error with its stack. A
 * system error on the path (ENOENT) stays an answer about the path, and is not logged as a fault.
 */
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultConfig } from "../config/index.js";
import { Workspace } from "../core/workspace.js";
import { filesystemPolicy } from "../surfaces/filesystem/policy.js";
import type { AnyToolDef } from "../surfaces/tool.js";
import { workspacePolicy } from "../surfaces/workspace/policy.js";
import { registerTools } from "./register-tools.js";

const throwing = (err: unknown): AnyToolDef => ({
  name: "directory_tree",
  title: "t",
  description: "d",
  input: z.object({ path: z.string() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler: async () => {
    throw err;
  },
});

async function callWith(err: unknown, policy = filesystemPolicy) {
  const lines: string[] = [];
  const log = pino(
    { level: "debug" },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  const server = new McpServer({ name: "mcpfs", version: "0" });
  registerTools(server, [throwing(err)], {
    ws: new Workspace([], filesystemPolicy.pathRules({})),
    config: defaultConfig(),
    policy,
    log,
    era: "legacy",
    gate: async () => {},
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(b);
  const r = (await client.callTool({ name: "directory_tree", arguments: { path: "src/app" } })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  await client.close();
  return { text: r.content[0]!.text, isError: r.isError, log: lines.join("") };
}

const missingModule = () =>
  Object.assign(new Error("Cannot find module 'ignore'\nRequire stack:\n- /abs/mcpfs-main.cjs"), {
    code: "MODULE_NOT_FOUND",
  });

describe("server faults", () => {
  it("a missing module is answered as a server bug and logged with its stack", async () => {
    const r = await callWith(missingModule());
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "Internal error in mcpfs while running directory_tree (a server bug, not a problem with src/app); details are in the server log.",
    );
    expect(r.text).not.toContain("Operation failed");
    expect(r.log).toContain("tool failed unexpectedly");
    expect(r.log).toContain("Cannot find module 'ignore'");
    expect(r.log).toMatch(/"stack":"Error: Cannot find module 'ignore'/);
  });

  it("the workspace surface words it the same way inside its own frame", async () => {
    const r = await callWith(new TypeError("x is undefined"), workspacePolicy);
    expect(r.text).toBe(
      "Error executing tool directory_tree: Internal error in mcpfs while running directory_tree (a server bug, not a problem with src/app); details are in the server log.",
    );
    expect(r.log).toContain("x is undefined");
  });

  it("a system error on the path stays an answer about the path, not a logged fault", async () => {
    const r = await callWith(Object.assign(new Error("ENOENT: /abs/src/app"), { code: "ENOENT" }));
    expect(r.text).toBe("No such file or directory: src/app");
    expect(r.log).not.toContain("tool failed unexpectedly");
  });
});
