import { z } from "zod";
import { filesUnder } from "../../core/listing/file-tree.js";
import { defineTool } from "../tool.js";
import { listOutput, listReply, referenceRoot } from "./common.js";

export const listReferenceDirectoryTool = defineTool({
  name: "list_reference_directory",
  title: "List Reference Directory",
  description: "List a reference project's files, relative to its root, filtered as list_directory.",
  input: z.object({ reference_name: z.string().describe("Name of the reference project") }),
  output: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const root = referenceRoot(ctx, args.reference_name);
    const files = await filesUnder(root, root.real, ctx.signal);
    // Bounded: one reply must stay far below a client's message limit.
    const budget = ctx.budget;
    const { kept, note } = budget.fitLines(
      files,
      (n) =>
        `... and ${files.length - n} more files (output capped at ${budget.limit} bytes; use search_reference_files with a glob to narrow)`,
    );
    return listReply(note === undefined ? files : [...files.slice(0, kept), note]);
  },
});
