// The per-call floor of mcpfs's SDK generation (v2, both protocol eras through serveStdio): one tool, as the
// SDK's examples write it.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { infoReply, NOOP_TEXT } from "./info-text.mjs";

serveStdio(() => {
  const server = new McpServer({ name: "floor-sdk-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "get_file_info",
    {
      description: "Metadata of a file.",
      inputSchema: z.object({ path: z.string() }),
      outputSchema: z.object({ content: z.string() }),
    },
    async ({ path }) => infoReply(path),
  );
  // The SDK's own cost of a call, nothing else: a constant reply of a small read's size (bench cpu_per_call).
  server.registerTool(
    "noop",
    {
      description: "A constant text.",
      inputSchema: z.object({ path: z.string() }),
      outputSchema: z.object({ content: z.string() }),
    },
    async () => ({ content: [{ type: "text", text: NOOP_TEXT }], structuredContent: { content: NOOP_TEXT } }),
  );
  return server;
});
