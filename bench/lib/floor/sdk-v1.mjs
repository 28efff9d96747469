// The per-call floor of the official server's SDK generation (v1): one tool, as the SDK's examples write it.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { infoReply } from "./info-text.mjs";

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
await server.connect(new StdioServerTransport());
