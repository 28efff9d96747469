import type { Surface } from "../config/index.js";

/**
 * What a surface decides outside its tools, in one object per surface (`filesystem/policy.ts`,
 * `workspace/policy.ts`): server/ receives it in its deps and asks it, never which surface it serves.
 */
export interface SurfacePolicy {
  /** The surface's name, as `--surface` spells it (an unknown tool's error names it). */
  readonly name: Surface;
  /**
   * The text of a failed call's reply. `message` is the error's default client message; the surface words
   * the kinds of `ToolError.detail` whose wording is its own here, once for all its tools.
   */
  errorText(tool: string, err: unknown, message: string): string;
  /** Log level of the line each successful call writes (a failed call is logged at info on both). */
  readonly callLogLevel: "info" | "debug";
  /** A 2025-era connection takes its allowed directories from the client's MCP roots (the 2026 era has none). */
  readonly clientRoots: boolean;
}
