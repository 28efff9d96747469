import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Config } from "../config/index.js";
import { DenyRules } from "../core/deny.js";
import { ToolError } from "../core/errors.js";
import type { Logger } from "../core/log.js";
import { expandHome } from "../core/paths.js";
import { makeRoot, namesOf, type Root, type Workspace } from "../core/workspace.js";

/**
 * Keeps a filesystem-surface connection's allowed directories in step with the client's MCP roots:
 * `roots/list` after initialization replaces the command-line directories; `list_changed` re-requests;
 * an answer overtaken by a newer request is discarded; tool calls wait until a fetch has settled.
 * With `bounds` (HTTP, where any local process may be the client) client roots only narrow: a root outside
 * every bound is dropped, one inside keeps the bound's read-only mode.
 */
export class RootsSync {
  private generation = 0;
  private pending: Promise<void> = Promise.resolve();
  private clientRootsApplied = false;
  /** Lazy mode: a fetch is owed and will ride on the next request's own response stream. */
  private owed: "initial" | "changed" | undefined;

  /**
   * `lazy` (HTTP sessions): fetch at the next request, as a message related to it, because a server
   * request with no related request needs the client's standalone GET stream, which may not be open yet.
   */
  constructor(
    private readonly server: McpServer,
    private readonly ws: Workspace,
    private readonly config: Config,
    private readonly extraRoots: readonly Root[],
    private readonly log: Logger,
    private readonly lazy = false,
    private readonly bounds?: readonly Root[],
  ) {}

  /** Wires the legacy-era hooks (the 2026-07-28 era has no roots/list push channel). */
  attach(): void {
    const low = this.server.server;
    low.oninitialized = () => {
      const caps = low.getClientCapabilities();
      if (caps?.roots) {
        if (this.lazy) this.owed = "initial";
        else this.refresh("initial");
      } else if (this.ws.roots.length > 0) {
        this.log.info("Client does not support MCP Roots, using allowed directories set from server args");
      }
    };
    low.setNotificationHandler("notifications/roots/list_changed", () => {
      if (this.lazy) this.owed ??= "changed";
      else this.refresh("changed");
    });
  }

  /**
   * Resolves once no roots fetch is in flight (a fetch started meanwhile is waited for too). In lazy mode
   * an owed fetch starts here, related to `relatedRequestId` when given.
   */
  async ready(relatedRequestId?: string | number): Promise<void> {
    if (this.owed) {
      const reason = this.owed;
      this.owed = undefined;
      this.refresh(reason, relatedRequestId);
    }
    for (;;) {
      const p = this.pending;
      await p;
      if (p === this.pending) return;
    }
  }

  private refresh(reason: "initial" | "changed", relatedRequestId?: string | number): void {
    const gen = ++this.generation;
    const run = async () => {
      let answer: { roots: { uri: string; name?: string }[] };
      try {
        answer = await this.server.server.listRoots(undefined, { timeout: 10_000, relatedRequestId });
      } catch (err) {
        this.log.warn(
          `Failed to request ${reason === "initial" ? "initial " : ""}roots from client: ${(err as Error).message}`,
        );
        return;
      }
      const roots = await validRoots(answer.roots, this.config, this.extraRoots, this.log, this.bounds);
      if (gen !== this.generation) {
        this.log.info("Discarded a stale roots/list answer: a newer roots update has started");
        return;
      }
      if (roots.length > 0) {
        this.ws.setRoots([...roots, ...this.extraRoots]);
        this.clientRootsApplied = true;
        this.log.info(`Updated allowed directories from MCP roots: ${roots.length} valid directories`);
      } else if (this.clientRootsApplied) {
        // Once the client's roots were in force, an empty update revokes them rather than falling back.
        this.ws.setRoots([...this.extraRoots]);
        this.log.warn(
          "No valid root directories provided by client; access revoked until it exposes a root again",
        );
      } else {
        this.log.warn("No valid root directories provided by client");
      }
    };
    const prev = this.pending;
    this.pending = prev.then(run, run).catch((err) => this.log.error({ err }, "roots refresh failed"));
  }
}

async function validRoots(
  list: { uri: string }[],
  config: Config,
  extraRoots: readonly Root[],
  log: Logger,
  bounds: readonly Root[] | undefined,
): Promise<Root[]> {
  const out: Root[] = [];
  // The command line's --deny rules hold in client roots too (validated at start-up).
  const deny = await DenyRules.compile(config.deny);
  for (const { uri } of list) {
    let dir: string;
    try {
      dir = uri.startsWith("file:") ? fileURLToPath(uri) : path.resolve(expandHome(uri));
    } catch {
      log.warn(`Skipping invalid path or inaccessible: ${uri}`);
      continue;
    }
    try {
      const made = await makeRoot(dir, "rw", "directory", { overrides: config.volumeOverrides });
      const root: Root = deny ? { ...made, deny } : made;
      const within = bounds?.filter((b) => namesOf(b).isAtOrBelow(root.real, b.real));
      if (within?.length === 0) {
        log.warn(
          `Dropping client root outside the server's directories (roots only narrow them over HTTP): ${uri}`,
        );
        continue;
      }
      // Compared by real path: a read-only directory named through a symlink still covers what lies in it.
      const ro =
        config.readOnly ||
        within?.some((b) => b.mode === "ro") ||
        extraRoots.some((r) => r.mode === "ro" && namesOf(r).isAtOrBelow(root.real, r.real));
      out.push(ro ? { ...root, mode: "ro" } : root);
    } catch (err) {
      log.warn(`Skipping invalid directory: ${dir} due to error: ${(err as Error).message}`);
    }
  }
  return out;
}

/** No directory to serve: a 2026-era client cannot give any (it has no MCP roots), an older one gave none. */
export function noRootsError(era: "legacy" | "modern"): ToolError {
  return new ToolError("no_roots", { reason: era === "modern" ? "client_cannot_give" : "client_gave_none" });
}
