// The per-call floor of the official server's SDK generation (v1): one tool, as the SDK's examples write it.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { infoReply, NOOP_TEXT } from "./info-text.mjs";

const server = new McpServer({ name: "floor-sdk-v1", version: "1.0.0" });
server.registerTool(
  "get_file_info",
  {
    description: "Metadata of a file.",
    inputSchema: { path: z.string() },
    outputSchema: { content: z.string() },
  },
  async ({ path }) => infoReply(path),
);
// The SDK's own cost of a call, nothing else: a constant reply of a small read's size (bench cpu_per_call).
server.registerTool(
  "noop",
  {
    description: "A constant text.",
    inputSchema: { path: z.string() },
    outputSchema: { content: z.string() },
  },
  async () => ({ content: [{ type: "text", text: NOOP_TEXT }], structuredContent: { content: NOOP_TEXT } }),
);
await server.connect(new StdioServerTransport());
