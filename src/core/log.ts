import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino, { type Logger } from "pino";
import { lfPieces } from "./text/lines.js";

export type { Logger } from "pino";

export type LevelName = "debug" | "info" | "warn" | "error" | "fatal";

export interface LogOptions {
  level: LevelName;
  /** JSON lines go to this descriptor (from `openLogFile`) when set. */
  fileFd?: number;
  /** Human-readable lines on stderr (never stdout: stdout is the MCP channel). */
  console: boolean;
}

const LEVEL_LABEL: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARNING",
  50: "ERROR",
  60: "CRITICAL",
};

/** Renders pino's JSON lines as `time - name - LEVEL - message {extra}` on stderr. */
function humanStderr(): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of lfPieces(chunk.toString("utf8"))) {
        if (!line) continue;
        try {
          const { level, time, msg, name, pid: _p, hostname: _h, ...rest } = JSON.parse(line);
          const label = LEVEL_LABEL[level as number] ?? String(level);
          const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
          const stamp = new Date(time as number).toISOString();
          process.stderr.write(
            level >= 40
              ? `${label}: ${msg}${extra}\n`
              : `${stamp} - ${name ?? "mcpfs"} - ${label} - ${msg}${extra}\n`,
          );
        } catch {
          process.stderr.write(`${line}\n`);
        }
      }
      done();
    },
  });
}

/** Opens (creating it and its folder if need be) a log file for appending, owner-only: logs name paths. */
export function openLogFile(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return fs.openSync(file, "a", 0o600);
}

export function createLogger(opts: LogOptions): Logger {
  const streams: pino.StreamEntry[] = [];
  if (opts.console) streams.push({ level: opts.level, stream: humanStderr() });
  if (opts.fileFd !== undefined)
    streams.push({ level: opts.level, stream: pino.destination({ fd: opts.fileFd, sync: true }) });
  if (streams.length === 0) return pino({ level: "silent" });
  return pino(
    {
      name: "mcpfs",
      level: opts.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.epochTime,
      customLevels: {},
      formatters: { level: (_label, number) => ({ level: number }) },
    },
    pino.multistream(streams),
  );
}
