import type { McpServer } from "@modelcontextprotocol/server";

/** A request handler as the SDK's protocol layer keeps it. */
export type SdkRequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

/**
 * The one reach into the SDK's internals: the request handler it registered for `method` (its protocol
 * layer's `_getRequestHandler`, which the pinned version has and does not export). Used to wrap the SDK's
 * own tools/list answer instead of rebuilding it. `test/unit/sdk-handlers.test.ts` fails loudly when an
 * upgrade drops it; here it throws rather than serving without the wrapper.
 */
export function sdkRequestHandler(server: McpServer, method: string): SdkRequestHandler {
  const low = server.server as unknown as {
    _getRequestHandler?: (m: string) => SdkRequestHandler | undefined;
  };
  if (typeof low._getRequestHandler !== "function")
    throw new Error("the MCP SDK no longer exposes _getRequestHandler: update src/server/sdk-handlers.ts");
  const handler = low._getRequestHandler(method);
  if (!handler) throw new Error(`the MCP SDK has no ${method} handler to wrap`);
  return handler.bind(low) as SdkRequestHandler;
}
