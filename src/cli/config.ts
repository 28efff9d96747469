/** Everything the command line decides, in one plain object handed to the server factory. */
export type Surface = "filesystem" | "workspace";
export type LogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";

export interface HttpConfig {
  host: string;
  port: number;
  authToken?: string;
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
  failOnReviews: boolean;
  enforceBaseBranchFormat: boolean;
  /** Upper bound, in bytes, on the text of any one reply. */
  maxOutputBytes: number;
  /** Walks skip what .gitignore files ignore (and `.git/`). */
  gitignore: boolean;
  http?: HttpConfig;
  disableTools: string[];
  auditLog?: string;
  /** Multi-file changes record an intent first, so a killed process's half is rolled back (`--no-journal`: off). */
  journal: boolean;
  /** Where journals live (`MCPFS_STATE_DIR`, else the platform's user state directory); unset: no journal. */
  stateDir?: string;
  /** Arguments nobody recognised (warned about and ignored). */
  unknownArgs: string[];
}

export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;
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
    disableTools: [],
    journal: true,
    unknownArgs: [],
  };
}
