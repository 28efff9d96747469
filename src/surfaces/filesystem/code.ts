import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { codeToolsFor } from "../code-catalog.js";
import { scopeOf } from "../code-tools.js";

/** Absolute or allowed paths, as every tool of this surface; a tree tool without `path` needs one root. */
export const codeTools = codeToolsFor({
  file: (ctx, requested, intent) => ctx.ws.resolve(requested, { intent }),
  async scope(ctx, requested) {
    let p = requested;
    if (p === undefined) {
      if (ctx.ws.roots.length !== 1)
        throw new ToolError("invalid", { reason: "path_needed", parameter: "path" });
      p = ctx.ws.roots[0]!.real;
    }
    const target = await ctx.ws.resolve(p, { intent: "read" });
    return scopeOf(ctx, target, ctx.config.gitignore, (real) => ctx.ws.resolve(real, { intent: "read" }));
  },
  // camelCase, as every tool of this surface; the one-file tools name their file `path` too.
  param: (name) => (name === "filePath" ? "path" : name),
  filePath: z.string(),
  treePath: z
    .string()
    .optional()
    .describe("File or directory to search (default: the only allowed directory)"),
  outlinePath: z.string(),
  textField: "content",
});
