import type { ServerResponse } from "node:http";

/** A JSON-RPC error as the whole reply (or the end of a reply already under way). */
export function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
