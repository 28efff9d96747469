import { lfPieces } from "../text/lines.js";

/** The "Base Branch" section of an issue body: a Markdown heading of any level, content up to the next heading. */
export function baseBranchSection(body: string | null | undefined): string | undefined {
  if (!body) return undefined;
  const lines = lfPieces(body.replace(/\r\n?/g, "\n"));
  const start = lines.findIndex((l) => /^\s{0,3}#{1,6}\s*base\s+branch\s*#*\s*$/i.test(l));
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^\s{0,3}#{1,6}(\s|$)/.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n").trim();
}

/** The base branch an issue names, when its section holds exactly one line. */
export function baseBranchFromBody(body: string | null | undefined): string | undefined {
  const s = baseBranchSection(body);
  if (!s || s.includes("\n")) return undefined;
  return s.replace(/^`(.*)`$/, "$1").trim() || undefined;
}

/** The rejection message for a body whose Base Branch section spans more than one line, else undefined. */
export function baseBranchFormatError(body: string | null | undefined): string | undefined {
  const s = baseBranchSection(body);
  if (s === undefined || !s.includes("\n")) return undefined;
  const n = lfPieces(s).length;
  return (
    `the '### Base Branch' section must hold exactly one line (the base branch name), but it has ${n} lines. ` +
    "Put only the branch name under the heading (or start the server with --no-enforce-base-branch-format)"
  );
}
