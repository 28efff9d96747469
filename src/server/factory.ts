import { type jsonSchemaValidator, McpServer } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import type { Config } from "../config/index.js";
import type { Journal } from "../core/journal/journal.js";
import type { Logger } from "../core/log.js";
import { ReadBudget } from "../core/mutate/read-memory.js";
import type { UrlOnlyReference } from "../core/references.js";
import { type Root, Workspace } from "../core/workspace.js";
import { instructionsFor } from "../surfaces/instructions.js";
import type { SurfacePolicy } from "../surfaces/policy.js";
import type { AnyToolDef } from "../surfaces/tool.js";
import { ClientLog } from "./client-log.js";
import type { FileWatchHub } from "./file-watch.js";
import { registerTools } from "./register-tools.js";
import { registerResources } from "./resources.js";
import { noRootsError, RootsSync } from "./roots-sync.js";

/** What startup resolved once, shared read-only by every connection. */
export interface ServerDeps {
  config: Config;
  /** The selected surface's choices (error wording, call log level, client roots). */
  policy: SurfacePolicy;
  log: Logger;
  version: string;
  /** Roots from the command line (directories, project, references, read-only dirs). */
  roots: readonly Root[];
  /** Read-only directories that stay when client roots replace the command-line directories. */
  extraRoots: readonly Root[];
  /** Workspace surface: reference projects known only by URL (GitHub tools only). */
  urlOnlyReferences?: readonly UrlOnlyReference[];
  /** The process's file watcher; resource subscriptions are offered only when it is given. */
  watch?: FileWatchHub;
  /** The selected surface's tools (loaded once at startup). */
  tools: readonly AnyToolDef[];
  /** The change journal of this process (absent with `--no-journal`). */
  journal?: Journal;
}

export interface ConnectionOptions {
  era: "legacy" | "modern";
  /**
   * Whether this instance serves `resources/subscribe` itself (2025 era). On the 2026 era the serving
   * entry owns `subscriptions/listen`, so the instance only advertises the capability.
   */
  subscriptions?: "serve" | "advertise" | "none";
  /** Fetch client roots lazily, on the stream of the request that needs them (HTTP sessions). */
  lazyRoots?: boolean;
  /**
   * `narrow` (HTTP): client roots must lie inside the command-line roots (when there are any; without any,
   * startup demanded --allow-client-roots and a token). `replace` (stdio): the official semantics.
   */
  clientRoots?: "replace" | "narrow";
}

/**
 * One McpServer per connection (the SDK's advisory GHSA-345p-7cg4-v4c7): each instance has its own
 * Workspace, so one client's roots never leak into another's.
 */
export function createServerFactory(deps: ServerDeps) {
  // Shared by every connection this factory makes.
  const readBudget = new ReadBudget();
  return ({
    era,
    subscriptions = "none",
    lazyRoots = false,
    clientRoots = "replace",
  }: ConnectionOptions): McpServer => {
    const { config, log } = deps;
    const ws = new Workspace(deps.roots, deps.policy.pathRules(config), deps.urlOnlyReferences);
    const server = new McpServer(
      { name: "mcpfs", version: deps.version },
      {
        // No tools capability here: the first registerTool adds it (sdk-handlers.ts says why).
        capabilities: { logging: {} },
        jsonSchemaValidator: new LazyJsonSchemaValidator(),
        instructions: instructionsFor(config, deps.roots, deps.urlOnlyReferences ?? []),
      },
    );
    const clientLog = new ClientLog(era);
    clientLog.attach(server);
    let sync: RootsSync | undefined;
    if (deps.policy.clientRoots && era === "legacy") {
      const bounds = clientRoots === "narrow" && deps.roots.length > 0 ? deps.roots : undefined;
      sync = new RootsSync(server, ws, config, deps.extraRoots, log, lazyRoots, bounds);
      sync.attach();
    }
    const gate = async (relatedRequestId?: string | number) => {
      await sync?.ready(relatedRequestId);
      if (ws.roots.length === 0) throw noRootsError(era);
    };
    registerTools(server, deps.tools, {
      ws,
      config,
      policy: deps.policy,
      log,
      era,
      gate,
      clientLog,
      readBudget,
      journal: deps.journal,
    });
    registerResources(server, {
      ws,
      config,
      log,
      gate,
      watch: subscriptions === "serve" ? deps.watch : undefined,
    });
    if (subscriptions === "advertise")
      server.server.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
    return server;
  };
}

/**
 * The SDK's own ajv validator (it checks elicitation replies, which mcpfs never asks for), built on first
 * use through the server's public `jsonSchemaValidator` option: building it compiles ajv's meta-schemas,
 * a cost every connection's start would otherwise pay.
 */
class LazyJsonSchemaValidator implements jsonSchemaValidator {
  #inner?: AjvJsonSchemaValidator;
  getValidator: jsonSchemaValidator["getValidator"] = (schema) => {
    this.#inner ??= new AjvJsonSchemaValidator();
    return this.#inner.getValidator(schema);
  };
}
