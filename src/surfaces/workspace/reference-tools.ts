import { z } from "zod";
import { defineTool } from "../tool.js";
import { dictReply, referenceRoot, referenceRoots } from "./common.js";
import { lineRangeShape, readForTool, readOutput } from "./read-file.js";

const REFERENCE_USAGE =
  "Pass a name as reference_name to the reference file tools, git(), and the GitHub read tools; " +
  "issues can also be created, edited and commented on";

export const getReferenceProjectsTool = defineTool({
  name: "get_reference_projects",
  title: "Get Reference Projects",
  description:
    "Discover the read-only reference projects configured for this server.\n\n" +
    "Returns:\n    Dictionary with count, projects (list of {name, url}; url is null when no repository URL " +
    "is configured) and usage instructions for next steps.",
  input: z.object({}),
  output: z.object({
    count: z.number(),
    projects: z.array(z.object({ name: z.string(), url: z.string().nullable() })),
    usage: z.string(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(_args, ctx) {
    const refs = [...referenceRoots(ctx), ...ctx.ws.urlOnlyReferences];
    if (refs.length === 0) {
      ctx.log.info("No reference projects configured");
      return dictReply({ count: 0, projects: [], usage: "No reference projects available" });
    }
    const projects = refs
      .map((r) => ({ name: r.name ?? "", url: r.url ?? null }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return dictReply({ count: projects.length, projects, usage: REFERENCE_USAGE });
  },
});

export const readReferenceFileTool = defineTool({
  name: "read_reference_file",
  title: "Read Reference File",
  description:
    "Read a reference-project file, or a line slice via start_line/end_line. Read-only.\n\n" +
    "Args:\n    reference_name: Name of the reference project\n" +
    "    file_path: Path to the file to read (relative to reference project directory)\n" +
    "    start_line: First line to return (1-based, inclusive). Requires end_line.\n" +
    "    end_line: Last line to return (1-based, inclusive). Requires start_line.\n" +
    "    with_line_numbers: Prefix lines with line numbers. Defaults to True for sliced reads, False for full reads.\n\n" +
    "Returns:\n    The contents of the file as a string",
  input: z.object({
    reference_name: z.string().describe("Name of the reference project"),
    file_path: z.string().describe("Path to the file to read (relative to reference project directory)"),
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
