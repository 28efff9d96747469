import { z } from "zod";
import { defineTool } from "../tool.js";
import { dictReply, referenceRoots } from "./common.js";

const REFERENCE_USAGE =
  "Pass a name as reference_name to the reference file tools, git(), and the GitHub read tools; " +
  "issues can also be created, edited and commented on";

export const getReferenceProjectsTool = defineTool({
  name: "get_reference_projects",
  title: "Get Reference Projects",
  description: "List the read-only reference projects: name and repository URL.",
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
