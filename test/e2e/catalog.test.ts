/**
 * The shipped catalog: `tools/list` of the INSTALLED package (the bundle answers it from a build-time
 * catalog) on both surfaces, against
 * - the golden file beside this test (catalog.golden.json): any change of a name, title, description,
 *   annotation or schema fails here until the golden file is updated on purpose
 *   (`npx vitest run test/e2e/catalog.test.ts -u`, CONTRIBUTING.md), so the change shows in review;
 * - the MCP SDK's own conversion of the real zod schemas of src/: each tool definition registered on an
 *   McpServer of its own and listed through the SDK client (less what the catalog strips on purpose, `lean`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { afterAll, describe, expect, it } from "vitest";
import { filesystemTools } from "../../src/surfaces/filesystem/index.js";
import { workspaceTools } from "../../src/surfaces/workspace/index.js";
import { startServer } from "../helpers/server.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-catalog-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SURFACES = {
  filesystem: [dir],
  // Every tool listed: the GitHub tools too (auto would list them only with a token and a GitHub remote).
  workspace: ["--project-dir", dir, "--github-tools", "always", "--console-only"],
} as const;

type Listed = {
  name: string;
  title?: string;
  description?: string;
  annotations?: object;
  inputSchema: object;
  outputSchema?: object;
};

/** What a catalog entry says to a model, in a fixed key order. */
function entry(t: Listed) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    annotations: t.annotations,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
  };
}

async function shipped(args: readonly string[]) {
  const conn = await startServer([...args]);
  try {
    return ((await conn.client.listTools()).tools as Listed[]).map(entry);
  } finally {
    await conn.close();
  }
}

/**
 * What the catalog leaves out of a schema on purpose (docs/differences.md): the `$schema` dialect (MCP's
 * default) and the ±(2^53-1) bounds zod puts on every integer. Written here, not taken from src/, so that
 * stripping anything else shows as a difference.
 */
function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(
        ([k, v]) =>
          k !== "$schema" &&
          !(/^(maximum|minimum)$/.test(k) && Math.abs(v as number) === Number.MAX_SAFE_INTEGER),
      )
      .map(([k, v]) => [k, lean(v)]),
  );
}

const TOOLS = { filesystem: filesystemTools, workspace: workspaceTools } as const;

/** The real tool definitions of src/ registered on a bare McpServer: the SDK converts their zod schemas. */
async function sdkConversion(surface: keyof typeof SURFACES) {
  const server = new McpServer({ name: "catalog", version: "0" }, { capabilities: { tools: {} } });
  for (const t of TOOLS[surface])
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        // As the server registers them (server/register-tools.ts): the title among the annotations too.
        annotations: { title: t.title, ...t.annotations },
        inputSchema: t.input,
        ...(t.output ? { outputSchema: t.output } : {}),
      },
      async () => ({ content: [] }),
    );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "catalog", version: "0" });
  await client.connect(a);
  const { tools } = await client.listTools();
  await client.close();
  return (tools as Listed[]).map((t) =>
    entry({
      ...t,
      inputSchema: lean(t.inputSchema) as object,
      ...(t.outputSchema ? { outputSchema: lean(t.outputSchema) as object } : {}),
    }),
  );
}

const golden: Record<string, unknown> = {};

describe.each(Object.keys(SURFACES) as (keyof typeof SURFACES)[])("the %s catalog", (surface) => {
  it("is what the SDK makes of the real tool definitions, every tool with an output schema", async () => {
    const listed = await shipped(SURFACES[surface]);
    golden[surface] = listed;
    expect(listed).toEqual(await sdkConversion(surface));
    for (const t of listed) expect(t.outputSchema, t.name).toMatchObject({ type: "object" });
  });
});

describe("the golden catalog", () => {
  it("matches catalog.golden.json (update on purpose with -u)", async () => {
    expect(Object.keys(golden)).toEqual(Object.keys(SURFACES));
    await expect(`${JSON.stringify(golden, null, 2)}\n`).toMatchFileSnapshot("./catalog.golden.json");
  });
});
