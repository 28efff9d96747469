/**
 * The SDK's tool handlers wrapped through its public `setRequestHandler` (src/server/sdk-handlers.ts): the
 * wrapper is the handler the SDK dispatches, sits inside the SDK's own validation, and an SDK that sets
 * the handlers elsewhere fails loudly instead of serving without the wrapper.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { wrapToolHandlers } from "./sdk-handlers.js";

describe("the SDK's tool handlers, wrapped", () => {
  it("the wrapper answers what it takes and passes the rest to the SDK, which validates once", async () => {
    const server = new McpServer({ name: "t", version: "1" });
    const seen: unknown[] = [];
    wrapToolHandlers(
      server,
      {
        "tools/call": (sdk) => (request, ctx) => {
          seen.push(request);
          const name = (request as { params: { name: string } }).params.name;
          return name === "mine" ? { content: [{ type: "text", text: "wrapped" }] } : sdk(request, ctx);
        },
        "tools/list": (sdk) => async (request, ctx) => {
          const r = (await sdk(request, ctx)) as { tools: { name: string }[] };
          return { ...r, tools: r.tools.filter((t) => t.name !== "hidden") };
        },
      },
      () => {
        for (const name of ["echo", "hidden"])
          server.registerTool(
            name,
            { description: "d", inputSchema: z.object({ a: z.string() }) },
            async ({ a }) => ({
              content: [{ type: "text", text: a }],
            }),
          );
      },
    );
    expect(Object.hasOwn(server.server, "setRequestHandler")).toBe(false);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "t", version: "0" });
    await client.connect(b);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    expect(await client.callTool({ name: "echo", arguments: { a: "hi" } })).toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await client.callTool({ name: "hidden", arguments: { a: "h" } })).toMatchObject({
      content: [{ type: "text", text: "h" }],
    });
    expect(await client.callTool({ name: "mine", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "wrapped" }],
    });
    expect(seen).toHaveLength(3);
    await client.close();
  });

  it("a handler the SDK never set is an error, not a silent pass", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => wrapToolHandlers(server, { "tools/call": (sdk) => sdk }, () => {})).toThrow(
      /set no tools\/call handler/,
    );
  });
});
