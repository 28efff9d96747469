import { asIs, type ErrorWording, type SurfacePolicy, wordError } from "../policy.js";

/**
 * The official filesystem server's words for every kind of error. The core's text is that wording (it
 * names the requested path, never the allowed directories: the official server's " not in <dirs>" tail
 * is left out on purpose), so most kinds keep it; `test/parity` checks the official wording byte for byte.
 */
const filesystemWording: ErrorWording = {
  invalid: asIs,
  outside_roots: (e) => `Access denied - path outside allowed directories: ${e.path}`,
  denied: asIs,
  os_denied: asIs,
  ignored: asIs,
  read_only: asIs,
  not_found: asIs,
  exists: asIs,
  not_file: asIs,
  not_directory: asIs,
  // The only kind a tool's parameter lifts: say which.
  not_empty: (e) =>
    `Directory not empty: ${e.path}. Pass recursive: true to delete it with everything in it.`,
  too_large: asIs,
  not_utf8: asIs,
  conflict: asIs,
  no_roots: asIs,
  journal_full: asIs,
  cancelled: asIs,
  io: asIs,
};

/** The official filesystem server's choices. */
export const filesystemPolicy: SurfacePolicy = {
  name: "filesystem",
  // The official server answers with the error's own message.
  errorText: (tool, err, message, requested) => wordError(filesystemWording, tool, err, message, requested),
  // stderr stays quiet (DEBUG) for calls that succeed, as the official server's does.
  callLogLevel: "debug",
  // The official roots semantics: a client's MCP roots replace the command-line directories.
  clientRoots: true,
  // Relative paths try each root in order, `..` resolves then is confined; `.git` writes only when allowed.
  pathRules: (opts) => ({
    anchored: false,
    hideIgnored: false,
    gitDirWrites: opts.allowGitDirWrites === true,
  }),
};
