import { spawn } from "node:child_process";
import path from "node:path";
import { ToolError } from "../errors.js";
import type { ConfigGuard } from "./config-trust.js";

/**
 * The one way a git child is started: no shell, the hardened environment, bounded output and time. Only
 * the runner (gated commands) and the repository gate (its own probes) call it.
 */

export interface SpawnOptions {
  /** Where git runs: the repository root; git never looks above it. */
  cwd: string;
  /** Stop reading stdout after this many bytes (the child is killed; `truncated` is set). */
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface GitRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout was cut at `maxBytes`. */
  truncated: boolean;
  timedOut: boolean;
}

export const DEFAULT_GIT_TIMEOUT_MS = 60_000;
export const DEFAULT_GIT_MAX_BYTES = 16 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

/**
 * Settings that keep every call a read, whatever any config says (given last, so they win): no pager, no
 * fsmonitor, no hooks (fetch runs reference-transaction), no `ext::` transport, no background maintenance,
 * no signature checks, no git run inside a submodule (whose own config this server has not read), no colour.
 */
const SAFE_CONFIG: Record<string, string> = {
  "core.quotePath": "false",
  "core.fsmonitor": "false",
  "core.hooksPath": "/dev/null",
  "core.pager": "cat",
  "color.ui": "never",
  "protocol.ext.allow": "never",
  "protocol.file.allow": "user",
  "gc.auto": "0",
  "maintenance.auto": "false",
  "fetch.writeCommitGraph": "false",
  "fetch.recurseSubmodules": "false",
  "submodule.recurse": "false",
  "status.submoduleSummary": "false",
  "diff.submodule": "short",
  "log.showSignature": "false",
  "i18n.logOutputEncoding": "UTF-8",
  "credential.interactive": "false",
};

/**
 * The environment for git: the server's, minus any GIT_* variable that could redirect or reconfigure git.
 * Handed through to the child (as spawn would by default), not read as mcpfs configuration: the one place
 * below the CLI that touches `process.env`.
 */
export function gitEnv(cwd: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // biome-ignore lint/style/noProcessEnv: the child inherits the server's environment (PATH, HOME, proxies).
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("GIT_")) env[k] = v;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_ASKPASS = "";
  env.SSH_ASKPASS = "";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_PAGER = "cat";
  // No search above the root: a project that is not itself a repository must not pick up a parent one.
  env.GIT_CEILING_DIRECTORIES = path.dirname(cwd);
  env.LC_ALL = "C";
  env.LANGUAGE = "";
  return env;
}

/** `git --no-pager -c ... <args>`: the guard's overrides, then the settings that keep every call a read. */
export function safeArgv(
  args: readonly string[],
  guard: ConfigGuard | undefined,
  extra: Record<string, string> = {},
): string[] {
  const settings = [...(guard?.overrides ?? []), ...Object.entries({ ...SAFE_CONFIG, ...extra })];
  return ["--no-pager", ...settings.flatMap(([k, v]) => ["-c", `${k}=${v}`]), ...args];
}

/** Why git did not start, for the client. */
function notStarted(e: NodeJS.ErrnoException): ToolError {
  if (e.code === "ENOENT") return new ToolError("io", { reason: "git_missing" });
  return new ToolError("io", { reason: "git_spawn", cause: e.message });
}

export function spawnGit(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  opts: SpawnOptions,
): Promise<GitRunResult> {
  const maxBytes = opts.maxBytes ?? DEFAULT_GIT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ToolError("cancelled", {}));
      return;
    }
    const child = spawn("git", argv, {
      cwd: opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errBuf = "";
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (d: Buffer) => {
      if (truncated) return;
      const room = maxBytes - outBytes;
      if (d.length >= room) {
        out.push(d.subarray(0, room));
        outBytes = maxBytes;
        truncated = true;
        kill();
        return;
      }
      out.push(d);
      outBytes += d.length;
    });
    child.stderr.on("data", (d: Buffer) => {
      if (errBuf.length < MAX_STDERR_BYTES) errBuf += d.toString("utf8");
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      reject(notStarted(err as NodeJS.ErrnoException));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (cancelled) {
        reject(new ToolError("cancelled", {}));
        return;
      }
      resolve({
        code: truncated ? 0 : code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: errBuf.slice(0, MAX_STDERR_BYTES),
        truncated,
        timedOut,
      });
    });
  });
}
