import type { McpServer } from "@modelcontextprotocol/server";

/** A request handler as `setRequestHandler` takes it: the request already parsed by the SDK. */
export type SdkRequestHandler = (request: unknown, ctx: unknown) => unknown;

/** What to put around the handler the SDK's McpServer sets for a method. */
export type HandlerWraps = Partial<
  Record<"tools/call" | "tools/list", (sdk: SdkRequestHandler) => SdkRequestHandler>
>;

/**
 * Runs `register` (the McpServer's `registerTool` calls) with the handlers the McpServer sets for
 * `tools/call` and `tools/list` wrapped as it sets them: through the low-level server's public
 * `setRequestHandler`, intercepted on this one instance while `register` runs. The wrapper sits inside
 * the SDK's own request and result validation, which still runs once; nothing private is read or written.
 * The McpServer sets both handlers on its first `registerTool` — so it must be made without the tools
 * capability, which that call adds — and this throws when an SDK upgrade sets them elsewhere.
 */
export function wrapToolHandlers(server: McpServer, wraps: HandlerWraps, register: () => void): void {
  const low = server.server;
  const set = low.setRequestHandler;
  const own = Object.hasOwn(low, "setRequestHandler");
  const pending = new Set(Object.keys(wraps));
  low.setRequestHandler = function (this: typeof low, method: string, ...rest: unknown[]) {
    const wrap = wraps[method as keyof HandlerWraps];
    if (wrap && typeof rest[0] === "function") {
      pending.delete(method);
      rest[0] = wrap(rest[0] as SdkRequestHandler);
    }
    return (set as (...a: unknown[]) => void).call(this, method, ...rest);
  } as typeof set;
  try {
    register();
  } finally {
    if (own) low.setRequestHandler = set;
    else delete (low as Partial<typeof low>).setRequestHandler;
  }
  if (pending.size > 0)
    throw new Error(
      `the MCP SDK set no ${[...pending].join(", ")} handler while tools were registered: update src/server/sdk-handlers.ts`,
    );
}
