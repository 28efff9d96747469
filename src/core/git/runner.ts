import { spawn } from "node:child_process";
import path from "node:path";
import { ToolError } from "../errors.js";
import { type ConfigGuard, guardFromConfig, parseConfigList } from "./config-trust.js";

export interface GitRunOptions {
  /** Repository root: git runs here and never looks above it. */
  cwd: string;
  /** Stop reading stdout after this many bytes (the child is killed; `truncated` is set). */
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra `-c key=value` settings placed before the subcommand. */
  config?: Record<string, string>;
  /**
   * What the repository's configuration is kept from doing (from `repoGuard`); read afresh when absent.
   * Callers that run many queries in one operation read it once and pass it on.
   */
  guard?: ConfigGuard;
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

/**
 * Reads the configuration git would see in `cwd` (a listing runs no program) and decides what of it to
 * overrule. A listing git cannot produce refuses the call: nothing is run on a config that was not read.
 */
export async function repoGuard(cwd: string, opts: { signal?: AbortSignal } = {}): Promise<ConfigGuard> {
  const r = await spawnGit(["config", "--list", "--show-scope", "--includes", "-z"], gitEnv(cwd), {
    cwd,
    maxBytes: DEFAULT_GIT_MAX_BYTES,
    timeoutMs: 15_000,
    signal: opts.signal,
  });
  if (r.code !== 0 || r.truncated || r.timedOut) {
    const why = r.stderr.trim().split("\n")[0] || (r.truncated ? "too large" : `exit code ${r.code}`);
    throw new ToolError(
      `Could not read the repository's git configuration (${why}), so git is not run`,
      "io",
    );
  }
  return guardFromConfig(parseConfigList(r.stdout));
}

/**
 * Runs `git <args>` as a child process (no shell) with bounded output and time, with every program the
 * repository's configuration names overruled (see config-trust.ts). Throws ToolError when the
 * repository's configuration makes that impossible.
 */
export async function runGit(args: readonly string[], opts: GitRunOptions): Promise<GitRunResult> {
  const guard = opts.guard ?? (await repoGuard(opts.cwd, { signal: opts.signal }));
  if (guard.refusal) throw new ToolError(guard.refusal, "denied");
  const settings = [...guard.overrides, ...Object.entries({ ...SAFE_CONFIG, ...(opts.config ?? {}) })];
  const argv = ["--no-pager", ...settings.flatMap(([k, v]) => ["-c", `${k}=${v}`]), ...args];
  const r = await spawnGit(argv, { ...gitEnv(opts.cwd), ...guard.env }, opts);
  if (r.code !== 0 && guard.neutralised.length > 0) {
    const keys = guard.neutralised;
    const named =
      keys.length > 5 ? `${keys.slice(0, 5).join(", ")} and ${keys.length - 5} more` : keys.join(", ");
    r.stderr += `\n(the repository's own configuration names programs, which are not run here: ${named}; set them in your global git configuration to use them)`;
  }
  return r;
}

function spawnGit(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  opts: GitRunOptions,
): Promise<GitRunResult> {
  const maxBytes = opts.maxBytes ?? DEFAULT_GIT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ToolError("Cancelled", "cancelled"));
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
      const e = err as NodeJS.ErrnoException;
      reject(
        new ToolError(
          e.code === "ENOENT" ? "git is not installed or not on PATH" : `Could not run git: ${e.message}`,
          "io",
        ),
      );
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (cancelled) {
        reject(new ToolError("Cancelled", "cancelled"));
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

/** Runs git and returns trimmed stdout, or undefined when git fails (for internal queries). */
export async function gitQuery(cwd: string, args: readonly string[], guard?: ConfigGuard) {
  try {
    const r = await runGit(args, { cwd, timeoutMs: 15_000, maxBytes: 4 * 1024 * 1024, guard });
    return r.code === 0 && !r.timedOut ? r.stdout.replace(/\n$/, "") : undefined;
  } catch {
    return undefined;
  }
}
