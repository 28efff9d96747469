#!/usr/bin/env node
// Before any module builds a zod schema: every schema (the SDK's too) is compiled to a fast parser on first use.
import "zod/compile";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config/index.js";
import type { Journal } from "../core/journal/journal.js";
import { createLogger, type LevelName, type Logger, openLogFile } from "../core/log.js";
import { namesOf, type Root, Workspace } from "../core/workspace.js";
import { FileWatchHub } from "../server/file-watch.js";
import { serveOverStdio } from "../server/stdio.js";
import { loadTools, policyFor } from "../surfaces/index.js";
import { applyEnvironment } from "./environment.js";
import { type GeneratedToken, httpToken } from "./http-token.js";
import { unknownToolsError } from "./near-miss.js";
import { plainDirectories } from "./plain-args.js";
import { resolveStartupRoots, StartupError } from "./startup.js";
import { stateDir } from "./state-dir.js";
import { packageVersion } from "./version.js";

const LEVEL: Record<Config["logLevel"], LevelName> = {
  DEBUG: "debug",
  INFO: "info",
  WARNING: "warn",
  ERROR: "error",
  CRITICAL: "fatal",
};

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * Workspace style: a startup error is also written to a log (no log exists yet), in the state directory's
 * logs/ (mcp-workspace writes it to the working directory, which may be anywhere: a client's, a home).
 */
function recordStartupError(surface: Config["surface"] | undefined, message: string): void {
  const state = stateDir();
  if (surface !== "workspace" || state === undefined) return;
  try {
    const dir = path.join(state, "logs");
    fs.mkdirSync(dir, { recursive: true });
    fs.appendFileSync(
      path.join(dir, "mcp_workspace_startup_error.log"),
      `${new Date().toISOString()} ${message}\n`,
      { mode: 0o600 },
    );
  } catch {
    // Best effort: stderr already has the message.
  }
}

function defaultLogFile(config: Config): string | undefined {
  if (config.surface !== "workspace" || config.consoleOnly) return undefined;
  if (config.logFile) return path.resolve(config.logFile);
  // No project (a start-up error follows): no log file, never one in the working directory.
  if (config.projectDir === undefined) return undefined;
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
  return path.join(path.resolve(config.projectDir), "logs", `mcp_workspace_${stamp}.log`);
}

/**
 * The change journal, unless `--no-journal`: what a killed earlier process left half-done in a writable root
 * is rolled back before serving. A journal that cannot be read is logged and serving goes on.
 */
async function openJournal(
  config: Config,
  roots: readonly Root[],
  log: Logger,
): Promise<Journal | undefined> {
  if (!config.journal || roots.every((r) => r.mode !== "rw")) return undefined;
  config.stateDir ??= stateDir();
  if (config.stateDir === undefined) {
    log.warn("No user state directory is known (no home directory): multi-file changes are not journaled");
    return undefined;
  }
  const inside = rootHolding(config.stateDir, roots);
  if (inside) {
    // The journal holds previous versions of files of every root: no tool may reach it.
    log.warn(
      `The state directory ${config.stateDir} is inside the allowed directory ${inside.path}: the change journal is off (no undo, no crash rollback). Set MCPFS_STATE_DIR to a directory outside the allowed directories.`,
    );
    return undefined;
  }
  const { Journal } = await import("../core/journal/journal.js");
  const journal = new Journal({
    stateDir: config.stateDir,
    log,
    maxBytes: config.journalMaxBytes,
    maxDays: config.journalMaxDays,
    minAgeMs: config.journalMinAgeMs,
    // Test switch (not for users): pre-images copied, trees copied then removed, as across devices.
    copyPreImages: process.env.MCPFS_FORCE_JOURNAL_COPY === "1",
  });
  try {
    await journal.recoverAll(new Workspace(roots, policyFor(config).pathRules(config)));
  } catch (err) {
    log.error(`journal: recovery failed: ${(err as Error).message}`);
  }
  return journal;
}

/** The root (read-only ones too: they can be read) at or above `dir`, by its real path. */
function rootHolding(dir: string, roots: readonly Root[]): Root | undefined {
  let real = path.resolve(dir);
  // The state directory may not exist yet: its deepest existing ancestor decides where it really lies.
  for (let p = real, rest = ""; ; p = path.dirname(p)) {
    try {
      real = path.join(fs.realpathSync(p), rest);
      break;
    } catch {
      if (path.dirname(p) === p) break;
      rest = path.join(path.basename(p), rest);
    }
  }
  return roots.find((r) => namesOf(r).isAtOrBelow(real, r.real));
}

async function parseFlags(argv: string[], version: string) {
  const { parseArgs } = await import("./args.js");
  return parseArgs(argv, version);
}

/** The Config of this start (the command line, then the environment), or the exit code of `--help` or an error. */
async function readConfig(argv: string[], version: string): Promise<Config | number> {
  const plain = plainDirectories(argv);
  // The parser is loaded only for flags; destructured, so knip checks which of its exports are used.
  const outcome = plain ? ({ kind: "config", config: plain } as const) : await parseFlags(argv, version);
  if (outcome.kind === "exit") {
    if (outcome.stdout) process.stdout.write(outcome.stdout);
    if (outcome.stderr) process.stderr.write(outcome.stderr);
    if (outcome.code !== 0 && outcome.stderr) recordStartupError(outcome.surface, outcome.stderr.trim());
    return outcome.code;
  }
  applyEnvironment(outcome.config, process.env);
  return outcome.config;
}

/** A start-up failure: said on stderr (and in the workspace's startup log); the exit code. */
function failStartup(config: Config, err: unknown): number {
  const msg = err instanceof StartupError ? err.message : `Error: ${(err as Error).message}`;
  stderr(msg);
  recordStartupError(config.surface, msg);
  return err instanceof StartupError ? err.exitCode : 1;
}

/** The logger: stderr, plus the workspace's JSON log file. Throws when the project or a named file is unusable. */
function startLogging(config: Config): Logger {
  // Validate the project directory before creating its default log folder inside it.
  if (config.projectDir?.trim() === "")
    throw new StartupError("Error: --project-dir is empty (an unset variable?); it grants nothing");
  if (config.surface === "workspace" && config.projectDir !== undefined) {
    const st = fs.statSync(path.resolve(config.projectDir), { throwIfNoEntry: false });
    if (!st?.isDirectory())
      throw new StartupError(
        `Error: Project directory does not exist or is not a directory: ${config.projectDir}`,
      );
  }
  let file = defaultLogFile(config);
  let fileFd: number | undefined;
  let fileProblem: string | undefined;
  if (file) {
    try {
      fileFd = openLogFile(file);
    } catch (err) {
      // A project the server cannot write to (e.g. served --read-only) still starts; a named file must work.
      if (config.logFile) throw err;
      fileProblem = `Cannot create the log file ${file} (${(err as Error).message}); logging to stderr only`;
      file = undefined;
    }
  }
  const log = createLogger({
    level: LEVEL[config.logLevel],
    // Human-readable lines always go to stderr; the file (workspace default) gets JSON lines too.
    console: true,
    fileFd,
  });
  if (fileProblem) log.warn(fileProblem);
  if (file) log.info(`Logging initialized: file=${file}, level=${config.logLevel}`);
  for (const arg of config.unknownArgs) log.warn(`Ignoring unrecognized argument: ${arg}`);
  if (config.unknownArgs.length > 0)
    log.info(
      `Ignored ${config.unknownArgs.length} unrecognized argument(s): ${config.unknownArgs.join(" ")}`,
    );
  return log;
}

/** The official server's usage lines when it starts without directories (roots may still come). */
function noDirectoriesNote(): void {
  stderr("Usage: mcpfs [allowed-directory] [additional-directories...]");
  stderr("Note: Allowed directories can be provided via:");
  stderr("  1. Command-line arguments (shown above)");
  stderr("  2. MCP roots protocol (2025-era clients that support it)");
  stderr("At least one directory must be provided by EITHER method for the server to operate.");
}

type ServerDeps = Parameters<typeof serveOverStdio>[0];

/** A failed listen worded as the flag to change (a raw `listen EADDRINUSE` names none). */
function bindError(err: unknown, http: NonNullable<Config["http"]>): unknown {
  const at = `port ${http.port} on ${http.host}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return new StartupError(`Error: ${at} is already in use: pass another --port`);
    case "EACCES":
      return new StartupError(`Error: ${at} needs privileges this user lacks: pass a --port above 1023`);
    case "EADDRNOTAVAIL":
      return new StartupError(`Error: ${http.host} is no address of this machine: pass another --host`);
    default:
      return err;
  }
}

/**
 * HTTP authenticates by default: without a token given, the one kept owner-only in the state directory (made
 * on first use), and stderr says how to pass it. Only where no file can hold it is the token itself printed.
 */
function generatedToken(config: Config): string {
  let made: GeneratedToken;
  try {
    made = httpToken(config.stateDir ?? stateDir());
  } catch (err) {
    made = httpToken(undefined);
    stderr(`mcpfs: cannot keep the HTTP token in the state directory: ${(err as Error).message}`);
  }
  const where = made.file ? `the token is in ${made.file}` : `the token is ${made.token}`;
  stderr(
    `mcpfs: HTTP clients must send the header "Authorization: Bearer <token>"; ${where} ` +
      "(choose one with --auth-token or MCPFS_AUTH_TOKEN; --no-auth serves without one)",
  );
  return made.token;
}

/** Streamable HTTP until SIGTERM/SIGINT, which let in-flight requests finish (a second signal does not wait). */
async function serveHttp(deps: ServerDeps, http: NonNullable<Config["http"]>, log: Logger): Promise<void> {
  // Loaded only in HTTP mode: the stdio server never pays for the HTTP stack.
  const { serveOverHttp } = await import("../server/http.js");
  if (http.authToken === undefined && !http.noAuth) http.authToken = generatedToken(deps.config);
  let running: Awaited<ReturnType<typeof serveOverHttp>>;
  try {
    running = await serveOverHttp(deps, http);
  } catch (err) {
    throw bindError(err, http);
  }
  stderr(`mcpfs listening on ${running.url}${http.authToken ? " (bearer token required)" : ""}`);
  log.info(`mcpfs serving Streamable HTTP on ${running.url}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // A second signal: do not wait any longer.
    stopping = true;
    log.info(`${signal}: finishing in-flight requests, then exiting`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function main(): Promise<number | undefined> {
  const version = packageVersion();
  const config = await readConfig(process.argv.slice(2), version);
  if (typeof config === "number") return config;
  const tools = await loadTools(config);
  const unknownTools = unknownToolsError(
    config.disableTools,
    tools.map((t) => t.name),
  );
  if (unknownTools) return failStartup(config, new StartupError(unknownTools.trimEnd(), 2));
  const refusal = config.http
    ? (await import("../server/http-guard.js")).bindRefusal(config.http)
    : undefined;
  if (refusal) {
    stderr(refusal);
    return 1;
  }
  let log: Logger;
  let startup: Awaited<ReturnType<typeof resolveStartupRoots>>;
  try {
    log = startLogging(config);
  } catch (err) {
    return failStartup(config, err);
  }
  try {
    startup = await resolveStartupRoots(config, log, stderr);
  } catch (err) {
    return failStartup(config, err);
  }
  const noDirectories = config.surface === "filesystem" && startup.roots.length === 0;
  if (config.http && noDirectories) {
    const refusal = (await import("../server/http-guard.js")).clientRootsRefusal(config.http);
    if (refusal) {
      stderr(refusal);
      return 1;
    }
  }
  if (noDirectories) noDirectoriesNote();
  // Recovery of a killed process's half-done changes comes before anything is served.
  const journal = await openJournal(config, startup.roots, log);
  const watch = new FileWatchHub(log);
  const deps: ServerDeps = {
    config,
    policy: policyFor(config),
    log,
    version,
    roots: startup.roots,
    extraRoots: startup.extraRoots,
    urlOnlyReferences: startup.urlOnlyReferences,
    watch,
    tools,
    journal,
  };
  if (config.http) {
    try {
      await serveHttp(deps, config.http, log);
    } catch (err) {
      if (err instanceof StartupError) return failStartup(config, err);
      throw err;
    }
    return undefined;
  }
  await serveOverStdio(deps);
  if (config.surface === "filesystem") {
    // The official server's lines, verbatim: wrappers and scripts wait for them on stderr.
    stderr("Secure MCP Filesystem Server running on stdio");
    if (startup.roots.length === 0)
      stderr("Started without allowed directories - waiting for client to provide roots via MCP protocol");
  }
  log.info("mcpfs running on stdio");
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err) => {
    stderr(`Error: ${(err as Error).message}`);
    process.exitCode = 1;
  },
);
