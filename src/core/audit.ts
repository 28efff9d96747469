import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "./log.js";

/** One mutation, as one JSON line of the audit log. */
export interface AuditEntry {
  /** ISO 8601 time the call finished. */
  time: string;
  tool: string;
  /** Path as the client sent it (never an internal absolute path the client did not name). */
  path?: string;
  /** For copies and moves: the source path as the client sent it. */
  from?: string;
  op: "write" | "create" | "delete" | "append" | "copy" | "move" | "mkdir" | "undo" | "refused" | "failed";
  /** Bytes written (0 for deletes). */
  bytes?: number;
  /** sha256 of the file before and after, when known. */
  before?: string;
  after?: string;
  /** Duration of the whole tool call. */
  ms: number;
  ok: boolean;
  /** The undo journal's change this call made (list_changes, undo_change). */
  changeId?: string;
  error?: string;
}

/** Where audit lines go: `--audit-log FILE` when given, else the server's JSON log. */
export interface AuditSink {
  write(entries: readonly AuditEntry[]): Promise<void>;
}

export interface AuditOptions {
  /** `--audit-log FILE` (absolute or relative to the server's working directory). */
  file?: string;
  log: Logger;
}

export function createAuditSink(opts: AuditOptions): AuditSink {
  const file = opts.file ? path.resolve(opts.file) : undefined;
  return {
    async write(entries) {
      if (entries.length === 0) return;
      if (!file) {
        for (const e of entries)
          opts.log.info({ audit: e }, `audit ${e.tool} ${e.op} ${e.path ?? ""}`.trimEnd());
        return;
      }
      // One append per call: O_APPEND keeps lines of concurrent connections whole and in order.
      const text = entries.map((e) => `${JSON.stringify(e)}\n`).join("");
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.appendFile(file, text, { mode: 0o600 });
      } catch (err) {
        // The mutation already happened: report the audit failure, never turn it into a tool error.
        opts.log.error({ err }, "could not write the audit log");
      }
    },
  };
}
