import path from "node:path";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { codeToolsFor } from "../code-catalog.js";
import { scopeOf } from "../code-tools.js";
import { gitignoreGate, projectRoot, requireFilePath, resolveIn } from "./common.js";

/** Project-relative paths, through the project's gate and its .gitignore, as read_file. */
export const codeTools = codeToolsFor({
  async file(ctx, requested, intent) {
    const target = await resolveIn(ctx, requireFilePath(requested), intent);
    await gitignoreGate(ctx, target, requested);
    return target;
  },
  async scope(ctx, requested) {
    const shown = requested ?? ".";
    const target = await resolveIn(ctx, shown, "read");
    await gitignoreGate(ctx, target, shown, "either");
    const base = projectRoot(ctx);
    return scopeOf(ctx, target, true, async (real) => {
      try {
        const t = await ctx.ws.resolve(real, { intent: "read", base });
        await gitignoreGate(ctx, t, path.relative(base.real, real), false);
        return t;
      } catch (err) {
        if (err instanceof ToolError && err.kind === "cancelled") throw err;
        return undefined;
      }
    });
  },
  // snake_case, as mcp-workspace's tools (`maxResults` → `max_results`, `filePath` → `file_path`).
  param: (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  filePath: z.string().describe("Project-relative path"),
  treePath: z.string().optional().describe('File or directory, project-relative (default ".")'),
  outlinePath: z.string().default(".").describe("File or directory, project-relative"),
  textField: "result",
});
