import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { Workspace } from "../core/workspace.js";
import type { createServerFactory, ServerDeps } from "./factory.js";
import { MAX_SESSION_SUBSCRIPTIONS } from "./file-watch.js";
import { isListen } from "./in-flight.js";
import { resolveResourceUri } from "./resources.js";

export interface ModernEndpoint {
  serve(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * The 2026-era endpoint: each request served on its own by the SDK's handler from the same factory as
 * the sessions, and a `subscriptions/listen` stream watching the files it names while it stays open.
 */
export function modernEndpoint(
  deps: ServerDeps,
  factory: ReturnType<typeof createServerFactory>,
  maxBody: number,
): ModernEndpoint {
  const { log } = deps;
  const modern = createMcpHandler(() => factory({ era: "modern", subscriptions: "advertise" }), {
    legacy: "reject",
    maxRequestBodySize: maxBody,
    onerror: (err) => log.debug({ err }, "http (2026 era) request rejected or failed"),
  });
  const node = toNodeHandler(modern, {
    maxRequestBodySize: maxBody,
    onerror: (err) => log.error({ err }, "http (2026 era) handler failed"),
  });
  // 2026-era clients have no roots: their workspace is the command line's.
  const ws = new Workspace(deps.roots, deps.policy.pathRules(deps.config), deps.urlOnlyReferences);

  /** Watches the listened resources' files while the stream stays open. */
  async function watchListened(res: ServerResponse, body: unknown): Promise<void> {
    const uris = listenedUris(body);
    if (!deps.watch || uris.length === 0) return;
    const disposers: (() => void)[] = [];
    res.once("close", () => {
      for (const d of disposers) d();
    });
    for (const uri of new Set(uris)) {
      try {
        const target = await resolveResourceUri(ws, uri);
        if (res.closed) return;
        disposers.push(deps.watch.watch(target.real, () => modern.notify.resourceUpdated(uri)));
      } catch {
        // Outside the roots or missing: acknowledged by the SDK, never notified.
      }
    }
  }

  return {
    async serve(req, res, body) {
      if (isListen(body)) void watchListened(res, body);
      await node(req, res, body);
    },
    close: () => modern.close().catch(() => {}),
  };
}

function listenedUris(body: unknown): string[] {
  const subs = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } })?.params
    ?.notifications?.resourceSubscriptions;
  // One listen stream holds at most a session's worth of subscriptions; the rest are never notified.
  return Array.isArray(subs)
    ? subs.filter((u): u is string => typeof u === "string").slice(0, MAX_SESSION_SUBSCRIPTIONS)
    : [];
}
