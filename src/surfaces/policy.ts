import type { Surface } from "../config/index.js";
import { type ErrorDetail, type ErrorKind, kindOf, ToolError } from "../core/errors.js";
import { printable } from "../core/paths.js";
import type { PathRules } from "../core/workspace.js";

/**
 * What a surface decides outside its tools, in one object per surface (`filesystem/policy.ts`,
 * `workspace/policy.ts`): server/ receives it in its deps and asks it, never which surface it serves.
 */
export interface SurfacePolicy {
  /** The surface's name, as `--surface` spells it (an unknown tool's error names it). */
  readonly name: Surface;
  /**
   * The text of a failed call's reply. `message` is the error's client message (`toClientMessage`): a
   * `ToolError` is worded by the surface's `wording` table, anything else keeps `message`. `requested`: the
   * path the call named, for an error whose detail names none.
   */
  errorText(tool: string, err: unknown, message: string, requested?: string): string;
  /** Log level of the line each successful call writes (a failed call is logged at info on both). */
  readonly callLogLevel: "info" | "debug";
  /** A 2025-era connection takes its allowed directories from the client's MCP roots (the 2026 era has none). */
  readonly clientRoots: boolean;
  /** How the surface spells paths and what it keeps out of reach, handed to the core's Workspace. */
  pathRules(opts: { allowGitDirWrites?: boolean }): PathRules;
}

/** What a surface's wording of an error may use. */
export interface WordingInput {
  /** The core's text (the official wording), or the runner's (with a diff for a lost update). */
  readonly text: string;
  /** The path the error is about, as the client spelled it and made printable; "" when none is known. */
  readonly path: string;
  readonly tool: string;
  readonly detail: ErrorDetail;
}

/** How a surface words one kind of error. */
export type Wording = (e: WordingInput) => string;

/** Every kind of error, worded once per surface (a unit test checks that no kind is left out). */
export type ErrorWording = Readonly<Record<ErrorKind, Wording>>;

/** The core's own text, unchanged. */
export const asIs: Wording = (e) => e.text;

/**
 * The text of a failed call under a surface's table: an answer about the request (a ToolError, a system
 * error) is worded by its kind; a server fault keeps `message`, which says it is one.
 */
export function wordError(
  table: ErrorWording,
  tool: string,
  err: unknown,
  message: string,
  requested?: string,
): string {
  const kind = kindOf(err);
  if (kind === undefined) return message;
  const detail = err instanceof ToolError ? err.detail : {};
  const shown = detail.path ?? requested;
  return table[kind]({ text: message, path: shown === undefined ? "" : printable(shown), tool, detail });
}
