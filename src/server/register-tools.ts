import type { LoggingLevel, McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { Config } from "../config/index.js";
import { type AuditEntry, type AuditSink, createAuditSink } from "../core/audit.js";
import { ANY_COUNT, byteLength, finalCut, ReplyBudget } from "../core/budget.js";
import { isServerFault, ToolError, ToolErrorGroup } from "../core/errors.js";
import { GitHubPresence } from "../core/github/presence.js";
import type { Journal } from "../core/journal/journal.js";
import type { Logger } from "../core/log.js";
import { ConflictError, conflictWithDiff } from "../core/mutate/precondition.js";
import { type ReadBudget, ReadMemory } from "../core/mutate/read-memory.js";
import { printable } from "../core/paths.js";
import type { Workspace } from "../core/workspace.js";
import { type UnknownArgument, unknownArgumentsOf } from "../surfaces/arguments-taken.js";
import { inputSchemaOf } from "../surfaces/catalog.js";
import type { SurfacePolicy } from "../surfaces/policy.js";
import type { AnyToolDef, MutationRecord, ToolContext, ToolReply } from "../surfaces/tool.js";
import { clientMessage, ignoredArguments, unknownArguments } from "../surfaces/wording.js";
import type { ClientLog } from "./client-log.js";
import { type HandlerWraps, type SdkRequestHandler, wrapToolHandlers } from "./sdk-handlers.js";

export interface RegisterDeps {
  ws: Workspace;
  config: Config;
  /** The surface's error wording and call log level. */
  policy: SurfacePolicy;
  log: Logger;
  era: "legacy" | "modern";
  /** Awaited before every call (roots fetch in flight); throws when the server cannot operate. */
  gate: (relatedRequestId?: string | number) => Promise<void>;
  /** Log lines for clients that asked for them (besides stderr). */
  clientLog?: ClientLog;
  /** What the remembered reads of all connections may hold together (one per process). */
  readBudget?: ReadBudget;
  /** The process's change journal (absent with `--no-journal`). */
  journal?: Journal;
}

/** The start of the warning the runner logs when its final cut shortens a reply (a formatter overran). */
const BACKSTOP_FIRED = "final cut fired";

const PATH_KEYS = ["path", "file_path", "dir_path", "source", "source_path", "destination_path"];

/** Which tools a configuration lists: `--disable-tools` hides some, `--read-only` hides the mutating ones. */
function exposedTools(tools: readonly AnyToolDef[], config: Config): AnyToolDef[] {
  return tools.filter((t) => !config.disableTools.includes(t.name) && !(config.readOnly && t.mutating));
}

/**
 * Which tools answer a call: all but the disabled ones. Under `--read-only` the mutating tools are not
 * listed but still answer, so a client that calls one anyway (an official client's fixed tool list, a
 * model's habit) gets the same clear refusal as in a read-only root — every root is read-only then —
 * instead of an unknown-tool protocol error.
 */
export function callableTools(tools: readonly AnyToolDef[], config: Config): AnyToolDef[] {
  return tools.filter((t) => !config.disableTools.includes(t.name));
}

/** What a tool call needs of the SDK's request context. */
export interface CallRequest {
  readonly id: string | number;
  readonly meta?: { progressToken?: string | number; [key: string]: unknown };
  readonly signal: AbortSignal;
  /** Sends a notification related to this request. */
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** 2026 era: a log line the SDK routes by the level in the request's `_meta`. */
  log?(level: LoggingLevel, data: unknown, logger: string): Promise<void>;
}

export function registerTools(server: McpServer, tools: readonly AnyToolDef[], deps: RegisterDeps): void {
  const audit = createAuditSink({ file: deps.config.auditLog, log: deps.log });
  // One per connection (registerTools runs once per McpServer), released when it closes.
  const reads = new ReadMemory({ budget: deps.readBudget });
  const low = server.server;
  const previous = low.onclose;
  low.onclose = () => {
    reads.clear();
    previous?.();
  };
  const callable = callableTools(tools, deps.config);
  const github = callable.some((t) => t.needsGitHub)
    ? new GitHubPresence(deps.ws, deps.config.githubTools, deps.config.githubEnv)
    : undefined;
  // What a call of a reading tool gave that the tool does not take, by the call's SDK context (the same
  // object reaches the wrap below and the tool's callback): the reply says it was ignored.
  const ignoredArgs = new WeakMap<object, readonly UnknownArgument[]>();
  const call = async (tool: AnyToolDef, args: Record<string, unknown>, sctx: ServerContext) => {
    const reply = await runTool(tool, args, requestOf(sctx), deps, audit, reads, ignoredArgs.get(sctx));
    if (github) void noticeGitHubChange().catch(() => {});
    return reply;
  };
  const registerAll = () => {
    for (const tool of callable) {
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
        (async (args: any, sctx: ServerContext) => call(tool, args, sctx)) as never,
      );
    }
  };
  const listed = new Set(exposedTools(callable, deps.config).map((t) => t.name));
  const gitHubNames = new Set(callable.filter((t) => t.needsGitHub).map((t) => t.name));
  // A call may have added a remote or a token: tell the client when the GitHub tools come or go.
  let shownGitHub: boolean | undefined;
  const noticeGitHubChange = async () => {
    const now = await github!.available();
    if (shownGitHub !== undefined && now !== shownGitHub) {
      shownGitHub = now;
      await server.sendToolListChanged();
    }
  };
  const wraps: HandlerWraps = {
    "tools/call": answerCallsNotTaken(new Map(callable.map((t) => [t.name, t])), deps.policy.name, (ctx, u) =>
      ignoredArgs.set(ctx, u),
    ),
  };
  if (listed.size < callable.length || github)
    wraps["tools/list"] = hideFromListing(async (name) => {
      if (!listed.has(name)) return false;
      if (!gitHubNames.has(name)) return true;
      shownGitHub = await github!.available();
      return shownGitHub;
    });
  wrapToolHandlers(server, wraps, registerAll);
}

type Wrap = (sdk: SdkRequestHandler) => SdkRequestHandler;

/**
 * A call of a tool this connection does not have (a typo, a disabled tool, one from another server) is a
 * tool error the model reads, as the official server answers, not a protocol error its client may only
 * log. So is a call of a changing tool with an argument it does not take, before anything runs: the SDK
 * would drop the argument, as both originals do, and a `dry_run` sent where the tool takes `dryRun` would
 * write, a misspelt `expectedSha256` would skip the lost-update check. A reading tool runs without such
 * arguments (`ignored` notes them for its reply). The SDK's own tools/call handler serves every call it
 * lets through unchanged.
 */
function answerCallsNotTaken(
  tools: ReadonlyMap<string, AnyToolDef>,
  surface: string,
  ignored: (ctx: object, unknown: readonly UnknownArgument[]) => void,
): Wrap {
  return (sdkCall) => (request, ctx) => {
    const { name, arguments: args } = (request as { params: { name: string; arguments?: unknown } }).params;
    const tool = tools.get(name);
    if (!tool) {
      const text = `Tool ${printable(name)} not found. This ${surface} server's tools are listed by tools/list.`;
      return { content: [{ type: "text", text }], isError: true };
    }
    const unknown = unknownArgumentsOf(tool, args);
    if (unknown.length === 0) return sdkCall(request, ctx);
    if (!tool.mutating) {
      if (ctx !== null && typeof ctx === "object") ignored(ctx, unknown);
      return sdkCall(request, ctx);
    }
    const text = unknownArguments(tool.name, unknown, parametersOf(tool));
    return { content: [{ type: "text", text }], isError: true };
  };
}

/**
 * Keeps only the tools `isListed` accepts in `tools/list` answers (the SDK lists every registered, enabled
 * tool). Those left out still answer calls.
 */
function hideFromListing(isListed: (name: string) => Promise<boolean>): Wrap {
  // The SDK's own tools/list handler, kept and filtered: the listing stays the SDK's in every other respect.
  return (sdkList) => async (request, ctx) => {
    const result = (await sdkList(request, ctx)) as { tools: { name: string }[] };
    const keep = await Promise.all(result.tools.map((t) => isListed(t.name)));
    return { ...result, tools: result.tools.filter((_, i) => keep[i]) };
  };
}

function requestOf(sctx: ServerContext): CallRequest {
  const r = sctx.mcpReq;
  return {
    id: r.id,
    meta: r._meta as CallRequest["meta"],
    signal: r.signal,
    notify: (n) => r.notify(n as never),
    log: (level, data, logger) => r.log(level, data, logger),
  };
}

/** The top-level parameter names a tool's listed schema gives. */
const parametersOf = (tool: AnyToolDef) =>
  Object.keys((inputSchemaOf(tool).properties as object | undefined) ?? {});

async function runTool(
  tool: AnyToolDef,
  args: Record<string, unknown>,
  req: CallRequest,
  deps: RegisterDeps,
  audit: AuditSink,
  reads: ReadMemory,
  ignored?: readonly UnknownArgument[],
): Promise<ToolReply> {
  const started = performance.now();
  const mutations: MutationRecord[] = [];
  // One change per call of a mutating tool: every path the call resolves carries it, and the core's
  // mutators note in it what they do (undo journal).
  const change = tool.mutating ? deps.journal?.changes.recorder(tool.name) : undefined;
  const budget = new ReplyBudget(deps.config.maxOutputBytes);
  // The change line ends the reply: its room is held before the tool runs, at its widest, so the tool's own
  // formatter fits the rest and the reply with that line stays within the budget.
  const closeChange = change
    ? budget.reserve(changeLine({ id: change.id, undoable: false, size: ANY_COUNT, cap: ANY_COUNT }))
    : undefined;
  // Arguments the tool ran without: a last block says so, its room taken before the tool runs.
  const ignoredNote = ignored ? ignoredArguments(ignored, parametersOf(tool)) : "";
  const ignoredLine = budget.take(ignoredNote) ? ignoredNote : "";
  const ctx: ToolContext = {
    ws: deps.ws.forCall(change),
    config: deps.config,
    log: deps.log,
    signal: req.signal,
    budget,
    era: deps.era,
    reads,
    journal: deps.journal ? { journal: deps.journal, ws: deps.ws } : undefined,
    recordMutation: (m) => {
      mutations.push(m);
    },
    progress: progressOf(req),
  };
  let reply: ToolReply;
  let failure: unknown;
  try {
    await deps.gate(req.id);
    reply = await tool.handler(args, ctx);
  } catch (err) {
    failure = err;
    // A system error on a client's path (ENOENT, EACCES, …) is an answer, not a fault: it is worded for the
    // client below and logged with the call; anything else is a bug, logged with its stack.
    if (isServerFault(err)) deps.log.error({ err, tool: tool.name }, "tool failed unexpectedly");
    const message =
      withReadDiffs(err, reads, requestedPath(args)) ?? clientMessage(err, requestedPath(args), tool.name);
    reply = {
      content: [{ type: "text", text: deps.policy.errorText(tool.name, err, message, requestedPath(args)) }],
      isError: true,
    };
  }
  // Also after a failure: whatever a call did change (a copy stopped midway) can be undone.
  const recorded = await change?.finish().catch((err) => {
    deps.log.error(`journal: could not record change ${change.id} of ${tool.name}: ${err}`);
    return undefined;
  });
  const line = recorded && closeChange ? closeChange(changeLine(recorded)) : "";
  const tail = byteLength(line) + byteLength(ignoredLine);
  reply = withinBudget(reply, deps.config.maxOutputBytes - tail, tool.name, deps.log);
  if (recorded) reply = withChangeId(reply, recorded, line);
  if (ignoredLine) reply = { ...reply, content: [...reply.content, { type: "text", text: ignoredLine }] };
  const ms = Math.round(performance.now() - started);
  if (tool.mutating) {
    const entries = auditEntries(tool.name, mutations, ms, failure, requestedPath(args), reply);
    await audit.write(recorded ? entries.map((e) => ({ ...e, changeId: recorded.id })) : entries);
  }
  await logCall(tool.name, args, reply, ms, req, deps);
  return reply;
}

/** The call's progress reporter: notifications when the client sent a progress token, else nothing. */
function progressOf(req: CallRequest): ToolContext["progress"] {
  const progressToken = req.meta?.progressToken;
  return async (done, total, message) => {
    if (progressToken === undefined) return;
    await req
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
  };
}

/** The call's log line (server log, and the client's when it asked for one). */
async function logCall(
  name: string,
  args: Record<string, unknown>,
  reply: ToolReply,
  ms: number,
  req: CallRequest,
  deps: RegisterDeps,
): Promise<void> {
  const failed = reply.isError === true;
  // The surface's level for a call that succeeded. The line is only built when someone will read it: this
  // is the hot path.
  const level = failed ? "info" : deps.policy.callLogLevel;
  const clientLevel = failed ? "warning" : "info";
  const toClient = deps.clientLog?.wants(clientLevel) === true;
  if (!toClient && !deps.log.isLevelEnabled(level)) return;
  const entry = {
    tool: name,
    params: summarizeParams(args),
    ms,
    ok: !failed,
    outcome: failed ? "error" : "success",
    ...(failed ? { error: firstText(reply) } : {}),
  };
  deps.log[level](entry, `tool ${name} ${failed ? "failed" : "ok"} (${ms}ms)`);
  if (toClient)
    await deps.clientLog?.send(req, clientLevel, {
      message: `tool ${name} ${failed ? "failed" : "ok"}`,
      ...entry,
    });
}

/** The path a call named (for error wording and the audit line): the first path-like argument. */
function requestedPath(args: Record<string, unknown>): string | undefined {
  return PATH_KEYS.map((k) => args?.[k]).find((v): v is string => typeof v === "string");
}

/**
 * A lost-update refusal (alone or among others) worded with a diff from the version this connection's
 * client read, when it was read whole here, and a group's other items in their official words; `undefined`
 * for any other error.
 */
function withReadDiffs(err: unknown, reads: ReadMemory, requested?: string): string | undefined {
  const one = (e: ToolError) => {
    const read = e instanceof ConflictError ? reads.recall(e.expected) : undefined;
    return read === undefined ? clientMessage(e, requested) : conflictWithDiff(e as ConflictError, read);
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

interface RecordedChange {
  id: string;
  undoable: boolean;
  size: number;
  cap: number;
}

/** The line that names a call's change (its room is held before the tool runs). */
function changeLine(c: RecordedChange): string {
  return c.undoable
    ? `Change ${c.id} (undo_change takes it back)`
    : `Change ${c.id} is not undoable: its previous versions (${c.size} bytes) exceed the journal's cap of ${c.cap} bytes`;
}

/**
 * Names the call's change in its reply: one short text block after the tool's own (whose text stays the
 * original's), and `changeId` (with `undoable: false` when it is not) in the structured reply.
 */
function withChangeId(reply: ToolReply, c: RecordedChange, text: string): ToolReply {
  return {
    ...reply,
    content: [...reply.content, { type: "text", text }],
    ...(reply.structuredContent
      ? {
          structuredContent: {
            ...reply.structuredContent,
            changeId: c.id,
            ...(c.undoable ? {} : { undoable: false }),
          },
        }
      : {}),
  };
}

/**
 * The runner's final cut: no reply's text exceeds the budget, whatever its formatter did. It should never
 * fire (every formatter fits its reply to `ctx.budget`): when it does, a warning names the tool, so the
 * reply-budget tests see it on stderr.
 */
function withinBudget(reply: ToolReply, maxBytes: number, tool: string, log: Logger): ToolReply {
  const blocks = reply.content.filter((c) => c.type === "text");
  const cut = finalCut(
    blocks.map((b) => b.text),
    maxBytes,
  );
  if (!cut) return reply;
  log.warn({ tool }, `${BACKSTOP_FIRED}: the reply of ${tool} went past the ${maxBytes}-byte budget`);
  let k = 0;
  const content = reply.content.map((c) => (c.type === "text" ? { ...c, text: cut[k++]! } : c));
  const structured = reply.structuredContent;
  // The official shape mirrors the text in structuredContent.content: it is cut the same way.
  const mirrored =
    structured && blocks.length === 1 && structured.content === blocks[0]!.text
      ? { structuredContent: { ...structured, content: cut[0]! } }
      : {};
  return { ...reply, content, ...mirrored };
}

function firstText(reply: ToolReply): string {
  const block = reply.content.find((c) => c.type === "text");
  return block && block.type === "text" ? block.text.slice(0, 500) : "";
}

/** Parameters for the log: long strings (file contents) cut to a short prefix, at any depth. */
export function summarizeParams(args: Record<string, unknown> | undefined): Record<string, unknown> {
  return summarize(args ?? {}, 0) as Record<string, unknown>;
}

const LOG_STRING_CHARS = 200;
const LOG_ARRAY_ITEMS = 20;

/** Nested values too (edit_file's `edits: [{old_text, new_text}]` carry file contents); long arrays cut. */
function summarize(v: unknown, depth: number): unknown {
  if (typeof v === "string")
    return v.length > LOG_STRING_CHARS ? `${v.slice(0, LOG_STRING_CHARS)}…(${v.length} chars)` : v;
  if (v === null || typeof v !== "object") return v;
  if (depth >= 4) return "…";
  if (Array.isArray(v)) {
    const items = v.slice(0, LOG_ARRAY_ITEMS).map((x) => summarize(x, depth + 1));
    return v.length > LOG_ARRAY_ITEMS ? [...items, `…(${v.length} items)`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = summarize(x, depth + 1);
  return out;
}
