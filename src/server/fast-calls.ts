import type { Readable, Writable } from "node:stream";
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import type { AnyToolDef, ToolReply } from "../surfaces/tool.js";
import type { CallRequest, ToolRunner } from "./register-tools.js";

type Json = Record<string, unknown>;
type Id = string | number;

const CALL_KEYS = new Set(["name", "arguments", "_meta"]);

function isPlainObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/**
 * The stdio wire (newline-delimited JSON-RPC on stdin/stdout, as the SDK's stdio transport reads and writes
 * it), with 2025-era `tools/call` requests of our own tools served straight from it.
 *
 * The SDK's per-message pipeline (schema validation of every inbound message, envelope checks, wire-schema
 * validation of the request and of the result, re-validation of our own output, channel bookkeeping) costs
 * more CPU than a `get_file_info` itself. Here a call that is plainly well formed — a known tool, only
 * `name`/`arguments`/`_meta`, arguments that pass the tool's own input schema synchronously — runs through
 * the same runner the SDK's registration uses (same gate, logging, audit, error wording) and its reply is
 * written directly. Everything else (bad arguments, unknown tools, tasks, the 2026 era, calls before
 * `notifications/initialized`, every other method) goes to the SDK, validated as its transport validates
 * it, so its behaviour and error texts stay the SDK's. Cancellation and progress work as through the SDK:
 * a cancelled call gets no reply.
 */
export class FastCallWire implements Transport {
  private runner: ToolRunner | undefined;
  private initialized = false;
  private servedOne = false;
  private started = false;
  private closed = false;
  private readonly inflight = new Map<Id, AbortController>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  constructor(
    /** Called on the first call served here (a debug log line). */
    private readonly onFirstFastCall: () => void = () => {},
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  /** The 2025-era instance's runner; calls are served here once the client has sent `initialized`. */
  attach(runner: ToolRunner): void {
    this.runner = runner;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("stdio wire already started");
    this.started = true;
    for (const [event, listener] of this.stdinListeners) this.stdin.on(event, listener);
    this.stdout.on("error", this.onwriteerror);
    // A client that closed stdin before we listened still ends the connection.
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onend);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error("stdio wire is closed"));
    return new Promise((resolve, reject) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else {
        const done = (err?: Error) => {
          this.stdout.off("drain", done);
          this.stdout.off("error", done);
          if (err) reject(err);
          else resolve();
        };
        this.stdout.once("drain", done);
        this.stdout.once("error", done);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [event, listener] of this.stdinListeners) this.stdin.off(event, listener);
    // Late write failures after close are nobody's business any more.
    this.stdout.off("error", this.onwriteerror);
    this.stdout.on("error", () => {});
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = [];
    for (const ac of this.inflight.values()) ac.abort(new Error("connection closed"));
    this.inflight.clear();
    this.onclose?.();
  }

  private readonly onreaderror = (err: Error) => this.onerror?.(err);
  private readonly onwriteerror = (err: Error) => {
    if (this.closed) return;
    this.onerror?.(err);
    void this.close();
  };
  private readonly onend = () => void this.close();

  private readonly ondata = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, from)) {
      let line: Buffer = data.subarray(from, nl);
      if (this.pending.length) {
        line = Buffer.concat([...this.pending, line]);
        this.pending = [];
        this.pendingBytes = 0;
      }
      from = nl + 1;
      this.receive(line);
      if (this.closed) return;
    }
    if (from < data.length) {
      this.pendingBytes += data.length - from;
      if (this.pendingBytes > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
        this.pending = [];
        this.pendingBytes = 0;
        this.onerror?.(
          new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`),
        );
        void this.close();
        return;
      }
      this.pending.push(data.subarray(from));
    }
  };

  private readonly stdinListeners: [string, Parameters<Readable["on"]>[1]][] = [
    ["data", this.ondata],
    ["error", this.onreaderror],
    ["end", this.onend],
    ["close", this.onend],
  ];

  private receive(line: Buffer): void {
    let end = line.length;
    if (end > 0 && line[end - 1] === 13) end--;
    let raw: unknown;
    try {
      raw = JSON.parse(line.toString("utf8", 0, end));
    } catch {
      return; // The SDK's transport skips lines that are not JSON.
    }
    let taken = false;
    try {
      taken = this.intercept(raw);
    } catch (err) {
      // Whatever went wrong here, the SDK still gets the message: nothing is dropped unanswered.
      this.onerror?.(asError(err));
    }
    if (taken) return;
    try {
      this.onmessage?.(parseJSONRPCMessage(raw));
    } catch (err) {
      this.onerror?.(asError(err));
    }
  }

  /** True when the message was taken here; false hands it to the SDK. */
  private intercept(raw: unknown): boolean {
    if (!this.runner || !isPlainObject(raw) || raw.jsonrpc !== "2.0") return false;
    if (raw.id === undefined) {
      if (raw.method === "notifications/initialized") this.initialized = true;
      else if (raw.method === "notifications/cancelled" && isPlainObject(raw.params)) {
        const id = raw.params.requestId as Id;
        this.inflight.get(id)?.abort(raw.params.reason ?? new Error("cancelled"));
      }
      return false;
    }
    if (!this.initialized || raw.method !== "tools/call") return false;
    const id = raw.id;
    const params = raw.params;
    if ((typeof id !== "string" && typeof id !== "number") || this.inflight.has(id)) return false;
    if (!isPlainObject(params) || typeof params.name !== "string") return false;
    for (const k of Object.keys(params)) if (!CALL_KEYS.has(k)) return false;
    if (params._meta !== undefined && !isPlainObject(params._meta)) return false;
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) return false;
    const tool = this.runner.tool(params.name);
    if (!tool) return false;
    const checked = tool.input["~standard"].validate(args) as
      | { value?: Json; issues?: unknown[] }
      | PromiseLike<unknown>;
    // Not loaded yet (answers with a promise) or invalid: the SDK validates and words the error.
    if ("then" in checked || checked.issues) return false;
    if (!this.servedOne) {
      this.servedOne = true;
      this.onFirstFastCall();
    }
    void this.serve(this.runner, id, tool, checked.value ?? {}, params._meta as CallRequest["meta"]);
    return true;
  }

  private async serve(runner: ToolRunner, id: Id, tool: AnyToolDef, args: Json, meta: CallRequest["meta"]) {
    const ac = new AbortController();
    this.inflight.set(id, ac);
    let reply: ToolReply;
    try {
      reply = await runner.run(tool, args, {
        id,
        meta,
        signal: ac.signal,
        notify: (n) => this.send({ jsonrpc: "2.0", ...n } as JSONRPCMessage),
      });
    } catch (err) {
      // What the SDK's McpServer answers for a handler that throws.
      reply = { content: [{ type: "text", text: asError(err).message }], isError: true };
    } finally {
      this.inflight.delete(id);
    }
    if (ac.signal.aborted || this.closed) return;
    await this.send({ jsonrpc: "2.0", id, result: reply } as unknown as JSONRPCMessage).catch(
      (err: unknown) => this.onerror?.(asError(err)),
    );
  }
}
