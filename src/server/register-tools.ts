import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { Config } from "../cli/config.js";
import { type AuditEntry, type AuditSink, createAuditSink } from "../core/audit.js";
import { ToolError, ToolErrorGroup, toClientMessage } from "../core/errors.js";
import { ConflictError, conflictWithDiff } from "../core/files/precondition.js";
import { ReadMemory } from "../core/files/read-memory.js";
import type { Logger } from "../core/log.js";
import type { Workspace } from "../core/workspace.js";
import type { AnyToolDef, MutationRecord, ToolContext, ToolReply } from "../surfaces/tool.js";
import type { ClientLog } from "./client-log.js";

export interface RegisterDeps {
  ws: Workspace;
  config: Config;
  log: Logger;
  era: "legacy" | "modern";
  /** Awaited before every call (roots fetch in flight); throws when the server cannot operate. */
  gate: (relatedRequestId?: string | number) => Promise<void>;
  /** Log lines for clients that asked for them (besides stderr). */
  clientLog?: ClientLog;
}

const PATH_KEYS = ["path", "file_path", "dir_path", "source", "source_path", "destination_path"];

/** Which tools a configuration exposes: `--disable-tools` hides some, `--read-only` hides the mutating ones. */
export function exposedTools(tools: readonly AnyToolDef[], config: Config): AnyToolDef[] {
  return tools.filter((t) => !config.disableTools.includes(t.name) && !(config.readOnly && t.mutating));
}

export function registerTools(server: McpServer, tools: readonly AnyToolDef[], deps: RegisterDeps): void {
  const audit = createAuditSink({ file: deps.config.auditLog, log: deps.log });
  // One per connection (registerTools runs once per McpServer).
  const reads = new ReadMemory();
  for (const tool of exposedTools(tools, deps.config)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        ...(tool.output ? { outputSchema: tool.output } : {}),
        annotations: { title: tool.title, ...tool.annotations },
      },
      // biome-ignore lint/suspicious/noExplicitAny: the SDK hands over the parsed arguments
      (async (args: any, sctx: ServerContext) => runTool(tool, args, sctx, deps, audit, reads)) as never,
    );
  }
}

async function runTool(
  tool: AnyToolDef,
  args: Record<string, unknown>,
  sctx: ServerContext,
  deps: RegisterDeps,
  audit: AuditSink,
  reads: ReadMemory,
) {
  const started = performance.now();
  const mutations: MutationRecord[] = [];
  const progressToken = sctx.mcpReq._meta?.progressToken;
  const ctx: ToolContext = {
    ws: deps.ws,
    config: deps.config,
    log: deps.log,
    signal: sctx.mcpReq.signal,
    era: deps.era,
    reads,
    recordMutation: (m) => {
      mutations.push(m);
    },
    progress: async (done, total, message) => {
      if (progressToken === undefined) return;
      await sctx.mcpReq
        .notify({
          method: "notifications/progress",
          params: {
            progressToken,
            progress: done,
            ...(total !== undefined ? { total } : {}),
            ...(message ? { message } : {}),
          },
        })
        .catch(() => {});
    },
  };
  let reply: ToolReply;
  let failure: unknown;
  const requested = PATH_KEYS.map((k) => args?.[k]).find((v): v is string => typeof v === "string");
  try {
    await deps.gate(sctx.mcpReq.id);
    reply = await tool.handler(args, ctx);
  } catch (err) {
    failure = err;
    if (!(err instanceof ToolError)) deps.log.error({ err, tool: tool.name }, "tool failed unexpectedly");
    const message = withReadDiffs(err, reads) ?? toClientMessage(err, requested);
    // mcp-workspace (FastMCP) words every tool failure this way; clients may match on it.
    const text =
      deps.config.surface === "workspace" ? `Error executing tool ${tool.name}: ${message}` : message;
    reply = { content: [{ type: "text", text }], isError: true };
  }
  const ms = Math.round(performance.now() - started);
  const failed = reply.isError === true;
  if (tool.mutating) await audit.write(auditEntries(tool.name, mutations, ms, failure, requested, reply));
  // The workspace seed promises every call at INFO; the filesystem surface keeps stderr quiet (DEBUG), as
  // the official server does. The line is only built when someone will read it: this is the hot path.
  const level = deps.config.surface === "workspace" || failed ? "info" : "debug";
  const clientLevel = failed ? "warning" : "info";
  const toClient = deps.clientLog?.wants(clientLevel) === true;
  if (!toClient && !deps.log.isLevelEnabled(level)) return reply;
  const line = {
    tool: tool.name,
    params: summarizeParams(args),
    ms,
    ok: !failed,
    outcome: failed ? "error" : "success",
    ...(failed ? { error: firstText(reply) } : {}),
  };
  deps.log[level](line, `tool ${tool.name} ${failed ? "failed" : "ok"} (${ms}ms)`);
  if (toClient)
    await deps.clientLog?.send(sctx, clientLevel, {
      message: `tool ${tool.name} ${failed ? "failed" : "ok"}`,
      ...line,
    });
  return reply;
}

/**
 * A lost-update refusal (alone or among others) worded with a diff from the version this connection's
 * client read, when it was read whole here; `undefined` for any other error.
 */
function withReadDiffs(err: unknown, reads: ReadMemory): string | undefined {
  const one = (e: ToolError) => {
    const read = e instanceof ConflictError ? reads.recall(e.expected) : undefined;
    return read !== undefined ? conflictWithDiff(e as ConflictError, read) : e.message;
  };
  if (err instanceof ToolErrorGroup) return err.compose(err.errors.map(one));
  if (err instanceof ConflictError) return one(err);
  return undefined;
}

/** The audit lines of one call of a mutating tool: one per change, or one for a refused/failed call. */
function auditEntries(
  tool: string,
  mutations: readonly MutationRecord[],
  ms: number,
  failure: unknown,
  requested: string | undefined,
  reply: ToolReply,
): AuditEntry[] {
  const time = new Date().toISOString();
  const ok = failure === undefined && reply.isError !== true;
  const entries: AuditEntry[] = mutations.map((m) => ({ time, tool, ...m, ms, ok }));
  if (!ok && entries.length === 0)
    entries.push({
      time,
      tool,
      ...(requested !== undefined ? { path: requested } : {}),
      op: failure instanceof ToolError ? "refused" : "failed",
      ms,
      ok: false,
      error: firstText(reply).slice(0, 300),
    });
  return entries;
}

function firstText(reply: ToolReply): string {
  const block = reply.content.find((c) => c.type === "text");
  return block && block.type === "text" ? block.text.slice(0, 500) : "";
}

/** Parameters for the log: long strings (file contents) cut to a short prefix. */
export function summarizeParams(args: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args ?? {})) {
    out[k] = typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length} chars)` : v;
  }
  return out;
}
