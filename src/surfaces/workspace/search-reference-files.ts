import { z } from "zod";
import { defineTool } from "../tool.js";
import { referenceRoot } from "./common.js";
import { DESCRIPTION_TAIL, searchIn, searchOutput, searchShape } from "./search-files.js";

export const searchReferenceFilesTool = defineTool({
  name: "search_reference_files",
  title: "Search Reference Files",
  description: `Search a reference project: ${DESCRIPTION_TAIL}`,
  input: z.object({ reference_name: z.string().describe("Name of the reference project"), ...searchShape }),
  output: searchOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler: (args, ctx) => searchIn(ctx, referenceRoot(ctx, args.reference_name), args),
});
