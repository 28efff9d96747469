import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory, type ServerDeps } from "./factory.js";
import { LineStdioTransport } from "./stdio-transport.js";

/**
 * Serves both protocol eras over stdio through the SDK's pipeline; the opening message picks the era of the
 * connection. The wire is our own line transport, so a request over the size limit gets an answer instead
 * of ending the session.
 */
export async function serveOverStdio(deps: ServerDeps): Promise<void> {
  const factory = createServerFactory(deps);
  const transport = new LineStdioTransport({
    onOversize: (bytes) => deps.log.warn(`stdio: refused a message of ${bytes} bytes (over the limit)`),
  });
  serveStdio((ctx) => factory({ era: ctx.era, subscriptions: ctx.era === "legacy" ? "serve" : "none" }), {
    transport,
    onerror: (err) => deps.log.error({ err }, "stdio transport error"),
  });
}
