/**
 * The one reach into the MCP SDK's internals (src/server/sdk-handlers.ts): with the pinned SDK the
 * registered tools/list handler is found and answers the SDK's own listing. If an upgrade drops
 * `_getRequestHandler`, this fails loudly (and the server refuses to start rather than list hidden tools).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sdkRequestHandler } from "../../src/server/sdk-handlers.js";

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

  it("a method without a handler is an error, not a silent pass", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => sdkRequestHandler(server, "no/such")).toThrow(/no no\/such handler/);
  });
});
