import { Command, CommanderError, InvalidArgumentError, Option, type OptionValues } from "commander";
import {
  type Config,
  DEFAULT_HTTP_PORT,
  DEFAULT_MAX_OUTPUT_BYTES,
  defaultConfig,
  type LogLevel,
  type Surface,
} from "../config/index.js";
import { DENY_PRESETS } from "../core/deny.js";
import { safetyFlagError } from "./near-miss.js";

export type ParseOutcome =
  | { kind: "config"; config: Config }
  /** `surface`: the style the command line asked for, so a workspace-style error reaches its startup log. */
  | { kind: "exit"; code: number; stdout?: string; stderr?: string; surface?: Surface };

const LOG_LEVELS: LogLevel[] = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function integer(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be an integer: ${value}`);
    return Number.parseInt(value, 10);
  };
}

function nonNegative(name: string) {
  const parse = integer(name);
  return (value: string): number => {
    const n = parse(value);
    if (n < 0) throw new InvalidArgumentError(`${name} must be 0 or more: ${value}`);
    return n;
  };
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 };

/** A duration as `30m`, `2h`, `45s`, `1d`, or `0`, in milliseconds. */
function duration(name: string) {
  return (value: string): number => {
    const m = /^(\d+(?:\.\d+)?)([smhd])$/.exec(value.trim());
    if (value.trim() === "0") return 0;
    if (!m) throw new InvalidArgumentError(`${name} must be a duration such as 30m, 2h or 0: ${value}`);
    return Math.round(Number(m[1]) * DURATION_UNITS[m[2]!]!);
  };
}

/** The undo journal's flags (in --help where they stand). */
function journalOptions(program: Command): Command {
  return program
    .option(
      "--no-journal",
      "no change journal: changes cannot be undone; a multi-file change killed mid-commit may stay partly applied",
    )
    .option(
      "--journal-max-bytes <n>",
      "undo journal: bytes of previous versions kept per root (default 1 GiB)",
      nonNegative("--journal-max-bytes"),
    )
    .option(
      "--journal-max-days <n>",
      "undo journal: days a change is kept (default 7)",
      nonNegative("--journal-max-days"),
    )
    .option(
      "--journal-min-age <duration>",
      "undo journal: a change younger than this is never dropped to make room; the call is refused (default 1h; 0: off)",
      duration("--journal-min-age"),
    );
}

function buildProgram(version: string): Command {
  const program = new Command("mcpfs")
    .description(
      "Fast, safe MCP server for local workspaces.\n\n" +
        "  mcpfs DIR [DIR...]              filesystem surface (drop-in for @modelcontextprotocol/server-filesystem)\n" +
        "  mcpfs --project-dir DIR [...]   workspace surface (drop-in for mcp-workspace)",
    )
    .usage("[options] [directories...]")
    .version(version, "-V, --version", "print the version and exit")
    .helpOption("-h, --help", "show this help")
    .argument("[directories...]", "directories the filesystem surface may access")
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} });

  program
    .addOption(new Option("--surface <name>", "tool surface to serve").choices(["filesystem", "workspace"]))
    .option("--read-only", "make every root read-only (mutating tools are hidden and refused)")
    .option("--read-only-dir <dir>", "add a read-only directory (repeatable)", collect)
    .option(
      "--max-output-bytes <n>",
      `upper bound on the text of one reply (default ${DEFAULT_MAX_OUTPUT_BYTES})`,
      integer("--max-output-bytes"),
    )
    .option("--no-gitignore", "do not skip what .gitignore files ignore in walks and searches")
    .option(
      "--allow-git-dir-writes",
      "filesystem surface: allow writes into .git directories (refused by default)",
    )
    .option("--disable-tools <names>", "comma-separated tool names to hide")
    .option("--audit-log <file>", "append a JSON line for every mutation to this file");
  journalOptions(program)
    .option("--http", "serve Streamable HTTP instead of stdio")
    .option("--host <host>", "HTTP bind address (default 127.0.0.1)")
    .option("--port <port>", `HTTP port (default ${DEFAULT_HTTP_PORT})`, integer("--port"))
    .option(
      "--allow-client-roots",
      "HTTP without directories: let each session's MCP roots choose them (requires --auth-token)",
    )
    // Workspace style (mcp-workspace's flags).
    .option("--project-dir <dir>", "workspace surface: the project directory")
    .option(
      "--reference-project <spec>",
      "read-only reference project NAME=/path or name=N,path=P[,url=U]; URL-only (GitHub tools only): name=N,url=U",
      collect,
    )
    .addOption(
      new Option("--log-level <level>", "DEBUG, INFO, WARNING, ERROR or CRITICAL").argParser(logLevel),
    )
    .option("--log-file <file>", "JSON log file (default <project>/logs/mcp_workspace_<timestamp>.log)")
    .option("--console-only", "log to stderr only, no log file")
    .option(
      "--file-size-limit <n>",
      "default max_lines for check_file_size (> 0)",
      integer("--file-size-limit"),
    )
    .option("--fail-on-reviews", "check_branch_status review gate fails on open reviews by default")
    .addOption(
      new Option(
        "--github-tools <when>",
        "list the GitHub tools: always, never, or auto (with a token and a GitHub repository)",
      )
        .choices(["always", "auto", "never"])
        .default("auto"),
    )
    .option("--enforce-base-branch-format", "reject a multi-line '### Base Branch' section (default)")
    .option("--no-enforce-base-branch-format", "accept any '### Base Branch' section");
  return encodingOptions(authOptions(addDenyOptions(program)));
}

/** `--deny` and `--deny-preset` (both surfaces; see core/deny.ts). */
function addDenyOptions(program: Command): Command {
  return program
    .option(
      "--deny <glob>",
      "paths no tool, resource or search may read, list or change, e.g. '*.pem' or '/config/secrets/**' (repeatable)",
      collect,
    )
    .addOption(
      new Option(
        "--deny-preset <name>",
        "add a documented deny list: secrets (keys, .env*, credentials; repeatable)",
      ).argParser(denyPreset),
    );
}

function denyPreset(value: string, previous: string[] = []): string[] {
  if (!Object.hasOwn(DENY_PRESETS, value))
    throw new InvalidArgumentError(`must be one of ${Object.keys(DENY_PRESETS).join(", ")}`);
  return [...previous, value];
}

/** How files that are not UTF-8 are read and edited (core/text/decode.ts). */
function encodingOptions(program: Command): Command {
  return program.option(
    "--default-encoding <name>",
    "encoding of text files that are not UTF-8 when a call names none, e.g. windows-1252, shift_jis, gbk",
    encodingName,
  );
}

/** An encoding name's shape (whether iconv-lite knows it is checked where a file needs it). */
function encodingName(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,39}$/.test(value))
    throw new InvalidArgumentError("must be an encoding name such as windows-1252, shift_jis or gbk");
  return value;
}

/** The HTTP transport's authentication flags. */
function authOptions(program: Command): Command {
  return program
    .option("--auth-token <token>", "bearer token required by the HTTP transport (or MCPFS_AUTH_TOKEN)")
    .option("--no-auth", "HTTP without a bearer token (by default one is kept in the state directory)");
}

function logLevel(value: string): LogLevel {
  const up = value.toUpperCase() as LogLevel;
  if (!LOG_LEVELS.includes(up)) throw new InvalidArgumentError(`must be one of ${LOG_LEVELS.join(", ")}`);
  return up;
}

/** Parses both command-line styles into a Config. Unknown flags are collected, not fatal. */
export function parseArgs(
  argv: string[],
  version: string,
  env: NodeJS.ProcessEnv = process.env,
): ParseOutcome {
  const outcome = parseToConfig(argv, version, env);
  if (outcome.kind === "exit" && outcome.code !== 0) return { ...outcome, surface: surfaceAskedFor(argv) };
  return outcome;
}

/** The surface an argv selects, judged from its words alone (for errors found before a Config exists). */
function surfaceAskedFor(argv: string[]): Surface {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--project-dir" || a.startsWith("--project-dir=")) return "workspace";
    if (a === "--surface=workspace" || (a === "--surface" && argv[i + 1] === "workspace")) return "workspace";
  }
  return "filesystem";
}

function parseToConfig(argv: string[], version: string, env: NodeJS.ProcessEnv): ParseOutcome {
  const program = buildProgram(version).addOption(new Option("-v").hideHelp());
  const exit = runCommander(program, argv, version);
  if (exit) return exit;
  const o = program.opts();
  // `-v` too: left unknown, it would be ignored and a server started with no directory.
  if (o.v === true) return { kind: "exit", code: 0, stdout: `mcpfs ${version}\n` };
  const httpOnly = httpOnlyFlagError(o);
  if (httpOnly) return { kind: "exit", code: 2, stderr: httpOnly };
  const config = defaultConfig();
  const misspelt = setSurface(config, o.surface, o.projectDir, program.args);
  if (misspelt) return { kind: "exit", code: 2, stderr: misspelt };
  const invalid = setOptions(config, o) ?? setHttp(config, o, env);
  if (invalid) return { kind: "exit", code: 1, stderr: invalid };
  return { kind: "config", config };
}

/** Runs commander over argv: undefined to go on, else the outcome of `--version`, `--help` or a bad option. */
function runCommander(program: Command, argv: string[], version: string): ParseOutcome | undefined {
  try {
    program.parse(argv, { from: "user" });
    return undefined;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === "commander.version") return { kind: "exit", code: 0, stdout: `mcpfs ${version}\n` };
    if (err.code === "commander.helpDisplayed" || err.code === "commander.help")
      return { kind: "exit", code: 0, stdout: program.helpInformation() };
    // Commander's own text starts "error: "; ours start "Error: ".
    return { kind: "exit", code: 2, stderr: `Error: ${err.message.replace(/^error: /, "")}\n` };
  }
}

/**
 * The surface, its directories and the leftover arguments; the error text when a leftover looks like a
 * misspelt safety flag (refused rather than ignored).
 */
function setSurface(
  config: Config,
  surface: Surface | undefined,
  projectDir: string | undefined,
  rest: string[],
): string | undefined {
  const workspaceStyle = projectDir !== undefined || surface === "workspace";
  config.surface = surface ?? (workspaceStyle ? "workspace" : "filesystem");
  if (config.surface === "workspace") {
    // mcp-workspace takes no positional arguments: everything left over is unrecognised.
    config.unknownArgs = rest;
  } else {
    config.unknownArgs = rest.filter((a) => a.startsWith("-") && a !== "-");
    config.directories = rest.filter((a) => !a.startsWith("-") || a === "-");
  }
  config.projectDir = projectDir;
  return safetyFlagError(config.unknownArgs);
}

/** The options common to both styles, and the workspace's; the error text of a value out of range. */
function setOptions(config: Config, o: OptionValues): string | undefined {
  config.referenceProjectArgs = o.referenceProject ?? [];
  config.readOnly = o.readOnly === true;
  config.readOnlyDirs = o.readOnlyDir ?? [];
  if (o.maxOutputBytes !== undefined) {
    if (o.maxOutputBytes < 1024)
      return `Error: --max-output-bytes must be at least 1024: ${o.maxOutputBytes}\n`;
    config.maxOutputBytes = o.maxOutputBytes;
  }
  config.gitignore = o.gitignore !== false;
  config.allowGitDirWrites = o.allowGitDirWrites === true;
  config.deny = [
    ...(o.deny ?? []),
    ...((o.denyPreset ?? []) as string[]).flatMap((name) => DENY_PRESETS[name] ?? []),
  ];
  config.disableTools =
    typeof o.disableTools === "string"
      ? o.disableTools
          .split(",")
          .map((s: string) => s.trim())
          .filter(Boolean)
      : [];
  config.githubTools = o.githubTools;
  config.auditLog = o.auditLog;
  config.journal = o.journal !== false;
  config.journalMaxBytes = o.journalMaxBytes;
  config.journalMaxDays = o.journalMaxDays;
  config.journalMinAgeMs = o.journalMinAge;
  config.logLevel = o.logLevel ?? "INFO";
  config.logFile = o.logFile;
  config.consoleOnly = o.consoleOnly === true;
  if (o.fileSizeLimit !== undefined) {
    if (o.fileSizeLimit <= 0)
      return `Error: --file-size-limit must be a positive integer: ${o.fileSizeLimit}\n`;
    config.fileSizeLimit = o.fileSizeLimit;
  }
  config.defaultEncoding = o.defaultEncoding;
  config.failOnReviews = o.failOnReviews === true;
  config.enforceBaseBranchFormat = o.enforceBaseBranchFormat !== false;
  return undefined;
}

/** `--port` or `--host` without `--http`: a stdio server would start and silently ignore them. */
function httpOnlyFlagError(o: OptionValues): string | undefined {
  if (o.http) return undefined;
  const flag = o.port !== undefined ? "--port" : o.host !== undefined ? "--host" : undefined;
  return flag && `Error: ${flag} needs --http (stdio has no address): add --http or leave ${flag} out\n`;
}

/** `--http` and its settings (the token also from `MCPFS_AUTH_TOKEN`); the error text of a bad port. */
function setHttp(config: Config, o: OptionValues, env: NodeJS.ProcessEnv): string | undefined {
  if (!o.http) return undefined;
  const port = o.port ?? DEFAULT_HTTP_PORT;
  if (port < 0 || port > 65535) return `Error: --port out of range: ${port}\n`;
  config.http = {
    host: o.host ?? "127.0.0.1",
    port,
    authToken: o.authToken ?? env.MCPFS_AUTH_TOKEN,
    noAuth: o.auth === false,
    allowClientRoots: o.allowClientRoots === true,
  };
  return undefined;
}
