import { z } from "zod";
import { checkFileSizes } from "../../core/checks/file-sizes.js";
import { ToolError } from "../../core/errors.js";
import { escapeName } from "../../core/paths.js";
import { defineTool } from "../tool.js";
import { projectRoot, strOutput, strReply } from "./common.js";

const DEFAULT_MAX_LINES = 600;
/** Internal caps of mcp-workspace: each list shows at most 50 entries. */
const LIST_CAP = 50;

/**
 * The first LIST_CAP items, and past that a note saying how to see the rest: the tool has no paging
 * parameter (max_lines only narrows the list to larger files), so the way on is to deal with what is shown.
 */
function capped<T>(
  items: readonly T[],
  line: (item: T) => string,
  rest: (shown: number) => string,
): string[] {
  const out = items.slice(0, LIST_CAP).map(line);
  if (items.length > LIST_CAP) out.push(`  ... showing ${LIST_CAP} of ${items.length} ${rest(LIST_CAP)}`);
  return out;
}

export const checkFileSizeTool = defineTool({
  name: "check_file_size",
  title: "Check File Size",
  description:
    "Report files with more lines than max_lines (default: --file-size-limit, else 600), except .git/, root-.gitignored paths and those in .large-files-allowlist (stale entries reported).",
  input: z.object({
    max_lines: z.number().int().nullable().optional(),
  }),
  output: strOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const limit = args.max_lines ?? ctx.config.fileSizeLimit ?? DEFAULT_MAX_LINES;
    if (limit < 0)
      throw new ToolError("invalid", { reason: "max_lines_negative", parameter: "max_lines", actual: limit });
    const r = await checkFileSizes(projectRoot(ctx), limit, ctx.signal);
    const lines: string[] = [];
    if (r.violations.length === 0) {
      lines.push(`File size check passed: all ${r.checked} files are within ${limit} lines`);
    } else {
      lines.push(
        `File size check failed: ${r.violations.length} file(s) exceed ${limit} lines`,
        "",
        "Violations:",
      );
      const rest = (n: number) =>
        `violations, the largest first; the other ${r.violations.length - n} have at most ${r.violations[n]!.lines} lines each. To see them, split or allowlist the files above and run check_file_size again.`;
      lines.push(...capped(r.violations, (v) => `  - ${escapeName(v.path)}: ${v.lines} lines`, rest));
      lines.push("", "Consider refactoring these files or adding them to the allowlist.");
    }
    if (r.allowlisted > 0) lines.push(`\nAllowlisted files: ${r.allowlisted}`);
    if (r.stale.length > 0) {
      lines.push(`\nStale allowlist entries (${r.stale.length}):`);
      const rest = (n: number) =>
        `stale entries, A to Z; the rest sort after ${r.stale[n - 1]}. To see them, remove the entries above from .large-files-allowlist and run check_file_size again.`;
      lines.push(...capped(r.stale, (e) => `  - ${e}`, rest));
    }
    return strReply(lines.join("\n"));
  },
});
