import { z } from "zod";
import { checkFileSizes } from "../../core/checks/file-sizes.js";
import { ToolError } from "../../core/errors.js";
import { defineTool, plainReply } from "../tool.js";
import { projectRoot } from "./common.js";

const DEFAULT_MAX_LINES = 600;
/** Internal caps of mcp-workspace: each list shows at most 50 entries. */
const LIST_CAP = 50;

function capped<T>(items: readonly T[], line: (item: T) => string, what: string): string[] {
  const out = items.slice(0, LIST_CAP).map(line);
  if (items.length > LIST_CAP) out.push(`  ... showing ${LIST_CAP} of ${items.length} ${what}`);
  return out;
}

export const checkFileSizeTool = defineTool({
  name: "check_file_size",
  title: "Check File Size",
  description:
    "Report files whose line count exceeds a threshold. Counts every UTF-8 file under the project except " +
    ".git/ and what the project-root .gitignore matches. Paths listed in .large-files-allowlist (one per " +
    "line, # comments) are exempt; allowlist entries that no longer exempt anything are reported as stale.\n\n" +
    "Args:\n    max_lines: Line threshold. Falls back to the server's --file-size-limit, then to 600.\n\n" +
    "Returns:\n    The check report.",
  input: z.object({
    max_lines: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("Line threshold. Falls back to the server's --file-size-limit flag, then to 600"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const limit = args.max_lines ?? ctx.config.fileSizeLimit ?? DEFAULT_MAX_LINES;
    if (limit < 0) throw new ToolError(`max_lines must be >= 0, got ${limit}`);
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
      lines.push(...capped(r.violations, (v) => `  - ${v.path}: ${v.lines} lines`, "violations"));
      lines.push("", "Consider refactoring these files or adding them to the allowlist.");
    }
    if (r.allowlisted > 0) lines.push(`\nAllowlisted files: ${r.allowlisted}`);
    if (r.stale.length > 0) {
      lines.push(`\nStale allowlist entries (${r.stale.length}):`);
      lines.push(...capped(r.stale, (e) => `  - ${e}`, "stale entries"));
    }
    return plainReply(lines.join("\n"));
  },
});
