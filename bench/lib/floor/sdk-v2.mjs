// The per-call floor of mcpfs's SDK generation (v2, both protocol eras through serveStdio): one tool, as the
// SDK's examples write it.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { infoReply } from "./info-text.mjs";

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
  return server;
});
