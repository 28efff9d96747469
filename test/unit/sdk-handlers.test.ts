/**
 * The one reach into the MCP SDK's internals (src/server/sdk-handlers.ts): with the pinned SDK the
 * registered tools/list handler is found and answers the SDK's own listing. If an upgrade drops
 * `_getRequestHandler`, this fails loudly (and the server refuses to start rather than list hidden tools).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sdkRequestHandler, wrapRequestHandler } from "../../src/server/sdk-handlers.js";

describe("the SDK's request handlers", () => {
  it("tools/list is found and answers the registered tools", async () => {
    const server = new McpServer({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    server.registerTool("one", { description: "d", inputSchema: z.object({ a: z.string() }) }, async () => ({
      content: [],
    }));
    const list = sdkRequestHandler(server, "tools/list");
    const answer = (await list({ method: "tools/list", params: {} }, {})) as { tools: { name: string }[] };
    expect(answer.tools.map((t) => t.name)).toEqual(["one"]);
  });

  it("a wrapped handler is the one the SDK dispatches, and what it passes on gets the SDK's own answer", async () => {
    const server = new McpServer({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    server.registerTool(
      "echo",
      { description: "d", inputSchema: z.object({ a: z.string() }) },
      async ({ a }) => ({ content: [{ type: "text", text: a }] }),
    );
    const seen: unknown[] = [];
    wrapRequestHandler(server, "tools/call", (sdk) => (request, ctx) => {
      seen.push(request);
      return sdk(request, ctx);
    });
    const call = sdkRequestHandler(server, "tools/call");
    const ctx = { mcpReq: { id: 1, signal: new AbortController().signal, requestState: () => undefined } };
    const ok = await call({ method: "tools/call", params: { name: "echo", arguments: { a: "hi" } } }, ctx);
    expect(ok).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    // The SDK still validates what the wrapper passes on: a malformed request is refused by the SDK.
    await expect(call({ method: "tools/call", params: {} }, ctx)).rejects.toThrow(/tools\/call/);
    expect(seen).toHaveLength(2);
  });

  it("wrapping a method without a handler is an error, not a silent pass", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => wrapRequestHandler(server, "no/such", (sdk) => sdk)).toThrow(/no no\/such handler/);
  });

  it("a method without a handler is an error, not a silent pass", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => sdkRequestHandler(server, "no/such")).toThrow(/no no\/such handler/);
  });
});
