import type { McpServer } from "@modelcontextprotocol/server";

/** A request handler as the SDK's protocol layer keeps it. */
export type SdkRequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

/**
 * The one reach into the SDK's internals: the request handler it registered for `method` (its protocol
 * layer's `_getRequestHandler`, which the pinned version has and does not export). Used to wrap the SDK's
 * own answers instead of rebuilding them. `test/unit/sdk-handlers.test.ts` fails loudly when an upgrade
 * drops it; here it throws rather than serving without the wrapper.
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

/**
 * Puts `wrap(sdk)` where the SDK keeps its handler for `method` (the protocol layer's handler map, which
 * `_getRequestHandler` reads). Not through `setRequestHandler`: that would validate the request and the
 * result a second time around the SDK's own handler, which already validates both (for tools/call: two
 * more request parses and a result parse, ~5 % of a call's CPU). The wrapper gets the request as it came
 * and passes on to `sdk` every request it does not answer itself. Throws when the SDK keeps its handlers
 * elsewhere (tested in `test/unit/sdk-handlers.test.ts`).
 */
export function wrapRequestHandler(
  server: McpServer,
  method: string,
  wrap: (sdk: SdkRequestHandler) => SdkRequestHandler,
): void {
  const sdk = sdkRequestHandler(server, method);
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map) || !handlers.has(method))
    throw new Error(
      "the MCP SDK no longer keeps its handlers in _requestHandlers: update src/server/sdk-handlers.ts",
    );
  handlers.set(method, wrap(sdk));
}
