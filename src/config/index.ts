import type { GitHubToolsMode } from "../core/github/presence.js";
import type { GitHubEnv } from "../core/github/settings.js";
import type { VolumeOverrides } from "../core/workspace.js";

/**
 * The configuration's types and defaults, below every layer that uses them: cli/ produces the value (the
 * command line, then the environment, read only there), the server factory and the surfaces take it.
 */
export type Surface = "filesystem" | "workspace";
export type LogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";

export interface HttpConfig {
  host: string;
  port: number;
  authToken?: string;
  /** `--no-auth`: serve without a token; otherwise, without `authToken`, one is generated at start. */
  noAuth?: boolean;
  /** Without command-line directories, let client roots choose them (only with a token). */
  allowClientRoots?: boolean;
}

export interface Config {
  surface: Surface;
  /** Filesystem surface: the positional directories, as given. */
  directories: string[];
  /** Workspace surface: the project directory, as given. */
  projectDir?: string;
  /** Raw `--reference-project` values, parsed and validated by the workspace surface at startup. */
  referenceProjectArgs: string[];
  readOnly: boolean;
  readOnlyDirs: string[];
  logLevel: LogLevel;
  logFile?: string;
  consoleOnly: boolean;
  fileSizeLimit?: number;
  /** `--default-encoding`: the encoding of a text file that is not UTF-8 when a call names none. */
  defaultEncoding?: string;
  failOnReviews: boolean;
  enforceBaseBranchFormat: boolean;
  /** Upper bound, in bytes, on the text of any one reply. */
  maxOutputBytes: number;
  /** Walks skip what .gitignore files ignore (and `.git/`). */
  gitignore: boolean;
  /** Filesystem surface: writes into `.git` directories are allowed (refused by default). */
  allowGitDirWrites: boolean;
  /** `--deny` globs and the globs of every `--deny-preset` (see core/deny.ts): paths out of every reach. */
  deny: string[];
  http?: HttpConfig;
  disableTools: string[];
  /** Workspace surface: list the GitHub tools always, never, or when a token and a GitHub repository exist. */
  githubTools: GitHubToolsMode;
  auditLog?: string;
  /** Multi-file changes record an intent first, so a killed process's half is rolled back (`--no-journal`: off). */
  journal: boolean;
  /** Undo journal caps per root: bytes of previous versions kept, and days a change is kept. */
  journalMaxBytes?: number;
  journalMaxDays?: number;
  /** A change younger than this is never dropped to make room: the call that would drop it is refused. */
  journalMinAgeMs?: number;
  /** Where journals live (`MCPFS_STATE_DIR`, else the platform's user state directory); unset: no journal. */
  stateDir?: string;
  /** Arguments nobody recognised (warned about and ignored). */
  unknownArgs: string[];
  /** Test switches over what `makeRoot` probes (env `MCPFS_FORCE_PORTABLE_FD`, `MCPFS_FORCE_CASE_FOLD`,
   * `MCPFS_FORCE_NO_HARDLINKS`, read by cli/environment.ts). */
  volumeOverrides: VolumeOverrides;
  /** grep's engine: auto (ripgrep, in process for a small scope), or one forced (env `MCPFS_GREP_ENGINE`). */
  grepEngine: "auto" | "rg" | "js";
  /** The GitHub variables of the environment (`GITHUB_TOKEN`, `GITHUB_API_URL`, …), captured at start-up. */
  githubEnv: GitHubEnv;
}

/**
 * What one reply may hold by default: 48,000 bytes, so at most 48,000 characters (Claude Code moves a result
 * over 50,000 characters to a file) and, for source text at 3-4 bytes a token, 12-16k tokens (its cap is
 * 25,000).
 */
export const DEFAULT_MAX_OUTPUT_BYTES = 48_000;
export const DEFAULT_HTTP_PORT = 3333;

export function defaultConfig(): Config {
  return {
    surface: "filesystem",
    directories: [],
    referenceProjectArgs: [],
    readOnly: false,
    readOnlyDirs: [],
    logLevel: "INFO",
    consoleOnly: false,
    failOnReviews: false,
    enforceBaseBranchFormat: true,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    gitignore: true,
    allowGitDirWrites: false,
    deny: [],
    disableTools: [],
    githubTools: "auto",
    journal: true,
    unknownArgs: [],
    volumeOverrides: {},
    grepEngine: "auto",
    githubEnv: {},
  };
}
