import { randomBytes } from "node:crypto";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import {
  deserializeMessage,
  INVALID_REQUEST,
  type JSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { DRAIN_MS, isListen } from "./in-flight.js";

/** A reply text this long is escaped once and written as a part of its own (see serializedParts). */
const BIG_TEXT = 1 << 20;
/** Stands in for a big text while the message around it is serialized; random, so no content can forge it. */
const BIG_MARK = `\u0000mcpfs-${randomBytes(8).toString("hex")}\u0000`;

/**
 * A message as the line's parts, in order: serialized JSON at even places, big texts at odd ones. A tool
 * reply mirrors its text in `structuredContent.content`: a big text (a whole million-entry tree) is
 * escaped a piece at a time as it goes out (see writeParts), instead of being copied, escaped, into one
 * message string that holds it twice (and then into a buffer of that size).
 */
function serializedParts(message: JSONRPCMessage): string[] {
  const result = (message as { result?: { content?: unknown; structuredContent?: { content?: unknown } } })
    .result;
  const texts = Array.isArray(result?.content)
    ? (result.content as { text?: unknown }[]).map((c) => c?.text)
    : [];
  const big = [...texts, result?.structuredContent?.content].filter(
    (t): t is string => typeof t === "string" && t.length >= BIG_TEXT,
  );
  if (big.length === 0) return [serializeMessage(message)];
  const line = JSON.stringify(message, (_key, v) =>
    typeof v === "string" && v.length >= BIG_TEXT ? `${BIG_MARK}${big.indexOf(v)}` : v,
  );
  const mark = JSON.stringify(BIG_MARK).slice(0, -1);
  const parts: string[] = [];
  let at = 0;
  for (let i = line.indexOf(mark); i !== -1; i = line.indexOf(mark, at)) {
    const end = line.indexOf('"', i + mark.length);
    parts.push(line.slice(at, i), big[Number(line.slice(i + mark.length, end))]!);
    at = end + 1;
  }
  parts.push(`${line.slice(at)}\n`);
  return parts;
}

/** The JSON string of `text`, a piece at a time (never splitting a surrogate pair). */
function* escapedPieces(text: string): Generator<string> {
  yield '"';
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + BIG_TEXT);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield JSON.stringify(text.slice(at, end)).slice(1, -1);
    at = end;
  }
  yield '"';
}

/** How much of each end of an overlong line is kept: where a client puts the request id and the tool name. */
const EDGE = 4096;

export interface LineTransportOptions {
  /** Bytes one message may have (default: the SDK's 10 MiB, which also bounds the memory one line holds). */
  limit?: number;
  stdin?: Readable;
  stdout?: Writable;
  /** Told of each message dropped as too large. */
  onOversize?: (bytes: number) => void;
  /** How long stdin's end waits for the calls still being answered before closing anyway (default 10 s). */
  drainMs?: number;
}

/** Requests a client may still be owed an answer to: its own, by id (a response carries the same id). */
type RequestId = string | number;

/**
 * The MCP stdio transport, framing lines itself: a message over the limit is skipped up to its newline and
 * its request answered with a JSON-RPC error that says how to send less, where the SDK's transport closes
 * the connection (`ReadBuffer exceeded maximum size`). stdin's end closes it once every request received is
 * answered (or cancelled), bounded by `drainMs`: a client that sends its calls and then closes its side, as
 * a shell pipe does, gets every answer, as from the official server. A stdout error closes it at once; bad
 * JSON lines are skipped.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly limit: number;
  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly framer: LineFramer;
  private closed = false;
  private ended = false;
  private readonly unanswered = new Set<RequestId>();

  constructor(private readonly options: LineTransportOptions = {}) {
    this.limit = options.limit ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.framer = new LineFramer(this.limit);
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onError);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
    this.stdout.on("error", this.onStdoutError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onError);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("close", this.onEnd);
    // Late write failures after close are not news; the listener stays to keep them from throwing.
    this.stdout.off("error", this.onStdoutError);
    this.stdout.on("error", () => {});
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error("stdio transport is closed"));
    const sent = this.sendLine(message);
    if ("id" in message && !("method" in message) && this.unanswered.delete(message.id as RequestId)) {
      const after = () => this.closeIfDrained();
      sent.then(after, after);
    }
    return sent;
  }

  private sendLine(message: JSONRPCMessage): Promise<void> {
    const parts = serializedParts(message);
    // A big message goes out a piece at a time, each once the pipe took the last: messages sent meanwhile
    // wait their turn so lines never interleave.
    if (this.sending || parts.length > 1) {
      const sent = (this.sending ?? Promise.resolve()).then(() => this.writeParts(parts));
      const tail = sent.catch(() => {});
      this.sending = tail;
      void tail.then(() => {
        if (this.sending === tail) this.sending = undefined;
      });
      return sent;
    }
    return this.write(parts[0]!);
  }

  /** Set while a message goes out in pieces. */
  private sending: Promise<void> | undefined;

  private async writeParts(parts: readonly string[]): Promise<void> {
    for (let i = 0; i < parts.length; i++)
      if (i % 2 === 0) await this.write(parts[i]!);
      else for (const piece of escapedPieces(parts[i]!)) await this.write(piece);
  }

  /** Resolved once written, or once drained when the pipe is full; rejected by a write error. */
  private write(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error("stdio transport is closed"));
    return new Promise((resolve, reject) => {
      const settle = (err?: Error | null) => {
        this.stdout.off("drain", settle);
        if (err) reject(err);
        else resolve();
      };
      if (this.stdout.write(text, (err) => err && settle(err))) resolve();
      else this.stdout.once("drain", settle);
    });
  }

  private readonly onData = (chunk: Buffer) => {
    for (const item of this.framer.push(chunk)) {
      if (typeof item === "string") this.deliver(item);
      else this.refuse(item);
    }
  };
  private readonly onError = (err: Error) => this.onerror?.(err);
  /** stdin ended: nothing more comes in, but the calls received are still answered (bounded by drainMs). */
  private readonly onEnd = () => {
    if (this.ended) return;
    this.ended = true;
    if (this.unanswered.size > 0)
      setTimeout(() => void this.close(), this.options.drainMs ?? DRAIN_MS).unref();
    this.closeIfDrained();
  };

  private closeIfDrained(): void {
    if (this.ended && this.unanswered.size === 0) void this.close();
  }
  private readonly onStdoutError = (err: Error) => {
    this.onerror?.(err);
    void this.close();
  };

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // As the SDK does: a line that is not JSON is skipped; one that is not JSON-RPC is reported.
      if (!(err instanceof SyntaxError)) this.onerror?.(err as Error);
      return;
    }
    if ("method" in message) {
      // A cancelled call gets no answer (the SDK sends none), and a listen stream stays open until the
      // connection ends: stdin's end waits for neither.
      if ("id" in message && !isListen(message)) this.unanswered.add(message.id as RequestId);
      else if (message.method === "notifications/cancelled")
        this.unanswered.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? "");
    }
    this.onmessage?.(message);
  }

  /** An overlong request: answered with an error (a notification or a response: dropped, said on stderr). */
  private refuse(line: Overlong): void {
    this.options.onOversize?.(line.bytes);
    const id = requestIdOf(line.head, line.tail);
    if (id === undefined || !/"method"\s*:/.test(line.head)) return;
    const tool = /"method"\s*:\s*"tools\/call"/.test(line.head)
      ? /"name"\s*:\s*"([\w-]{1,64})"/.exec(line.head)?.[1]
      : undefined;
    const mib = (n: number) => `${+(n / 1024 / 1024).toFixed(1)} MiB`;
    const message =
      `Request too large: ${mib(line.bytes)} is over the ${mib(this.limit)} limit of one stdio message. ` +
      `Send big content in parts: ${tool ?? "write"} a first part, then append_file the rest, each call under ${mib(this.limit)}.`;
    this.send({ jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message } }).catch((err) =>
      this.onerror?.(err as Error),
    );
  }
}

interface Overlong {
  bytes: number;
  head: string;
  tail: string;
}

/**
 * Splits a byte stream into lines (without their `\n` and a trailing `\r`); a line over `limit` bytes is
 * not kept: only its size and its first and last EDGE bytes, so memory stays bounded by the limit.
 */
class LineFramer {
  private parts: Buffer[] = [];
  private size = 0;
  private overlong?: { bytes: number; head: Buffer; tail: Buffer };

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): (string | Overlong)[] {
    const out: (string | Overlong)[] = [];
    for (let from = 0; from < chunk.length; ) {
      const nl = chunk.indexOf(10, from);
      this.take(chunk.subarray(from, nl === -1 ? chunk.length : nl));
      if (nl === -1) break;
      out.push(this.endLine());
      from = nl + 1;
    }
    return out;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    const o = this.overlong;
    if (o) {
      o.bytes += piece.length;
      o.tail = Buffer.from(Buffer.concat([o.tail, piece.subarray(-EDGE)]).subarray(-EDGE));
      return;
    }
    if (this.size + piece.length <= this.limit) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const all = Buffer.concat([...this.parts, piece]);
    this.overlong = {
      bytes: all.length,
      head: Buffer.from(all.subarray(0, EDGE)),
      tail: Buffer.from(all.subarray(-EDGE)),
    };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): string | Overlong {
    const o = this.overlong;
    this.overlong = undefined;
    if (o) return { bytes: o.bytes, head: o.head.toString("utf8"), tail: o.tail.toString("utf8") };
    const line = Buffer.concat(this.parts).toString("utf8");
    this.parts = [];
    this.size = 0;
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }
}

const ID_VALUE = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

/**
 * The id of a request of which only the ends are known: the top-level `"id"` key in the head (clients that
 * write it first), else an `"id"` that is the last key of the object (clients that write it last).
 */
function requestIdOf(head: string, tail: string): string | number | undefined {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      let end = i + 1;
      while (end < head.length && head[end] !== '"') end += head[end] === "\\" ? 2 : 1;
      if (end >= head.length) break;
      const value = depth === 1 && head.slice(i, end + 1) === '"id"' && ID_VALUE.exec(head.slice(end + 1));
      if (value) return JSON.parse(value[1]!) as string | number;
      i = end;
    }
  }
  const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  return last ? (JSON.parse(last[1]!) as string | number) : undefined;
}
