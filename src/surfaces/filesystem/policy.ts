import type { SurfacePolicy } from "../policy.js";

/** The official filesystem server's choices. */
export const filesystemPolicy: SurfacePolicy = {
  name: "filesystem",
  // The error's own message, as the official server answers.
  errorText: (_tool, _err, message) => message,
  // stderr stays quiet (DEBUG) for calls that succeed, as the official server's does.
  callLogLevel: "debug",
  // The official roots semantics: a client's MCP roots replace the command-line directories.
  clientRoots: true,
};
