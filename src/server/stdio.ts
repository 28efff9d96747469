import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory, type ServerDeps } from "./factory.js";

/**
 * Serves both protocol eras over stdio through the SDK's own transport and pipeline; the opening message
 * picks the era of the connection.
 */
export async function serveOverStdio(deps: ServerDeps): Promise<void> {
  const factory = createServerFactory(deps);
  serveStdio((ctx) => factory({ era: ctx.era, subscriptions: ctx.era === "legacy" ? "serve" : "none" }), {
    onerror: (err) => deps.log.error({ err }, "stdio transport error"),
  });
}
