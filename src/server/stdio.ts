import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory, type ServerDeps } from "./factory.js";
import { FastCallWire } from "./fast-calls.js";

/** Serves both protocol eras over stdio; the opening message picks the era of the connection. */
export async function serveOverStdio(deps: ServerDeps): Promise<void> {
  const factory = createServerFactory(deps);
  const wire = new FastCallWire(() => deps.log.debug("tools/call served from the stdio wire (fast path)"));
  // MCPFS_NO_FAST_CALLS=1 leaves every call to the SDK (for comparison and diagnosis).
  const fast = process.env.MCPFS_NO_FAST_CALLS !== "1";
  serveStdio(
    (ctx) =>
      factory({
        era: ctx.era,
        subscriptions: ctx.era === "legacy" ? "serve" : "none",
        // 2025-era calls of our tools are served from the wire (see FastCallWire); 2026-era ones by the SDK.
        ...(fast && ctx.era === "legacy" ? { onTools: (runner) => wire.attach(runner) } : {}),
      }),
    { transport: wire, onerror: (err) => deps.log.error({ err }, "stdio transport error") },
  );
}
