import { z } from "zod";
import { defineTool } from "../tool.js";
import { referenceRoot } from "./common.js";
import { lineRangeShape, readForTool, readOutput } from "./read-file.js";

export const readReferenceFileTool = defineTool({
  name: "read_reference_file",
  title: "Read Reference File",
  description: "Read a reference project's file, or lines start_line..end_line of it.",
  input: z.object({
    reference_name: z.string().describe("Name of the reference project"),
    file_path: z.string().describe("Path in the reference project"),
    ...lineRangeShape,
  }),
  output: readOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const root = referenceRoot(ctx, args.reference_name);
    // Same gate as the project: a reference's ignored files and .git/ stay hidden too.
    return readForTool(ctx, args, root, true);
  },
});
