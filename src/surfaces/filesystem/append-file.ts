import { z } from "zod";
import { appendToFile } from "../../core/mutate/append.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, encodingFor, encodingParam, recordChanges, textReply } from "../tool.js";
import { expectedSha256 } from "./common.js";

export const appendFileTool = defineTool({
  name: "append_file",
  title: "Append File",
  description:
    "Append text verbatim to the end of a file, creating it unless mustExist (a CRLF file gets CRLF line breaks).",
  input: z.object({
    path: z.string(),
    content: z.string(),
    mustExist: z.boolean().optional().describe("Refuse if the file does not exist"),
    expectedSha256,
    encoding: encodingParam,
  }),
  output: z.object({ content: z.string(), sha256: z.string().optional(), bytes: z.number().optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "write" });
    const r = await appendToFile(target, args.content, {
      mustExist: args.mustExist,
      expectedSha256: args.expectedSha256,
      encoding: encodingFor(ctx, args.encoding),
    });
    recordChanges(ctx, [r]);
    const verb = r.kind === "create" ? "created" : "appended to";
    return textReply(`Successfully ${verb} ${escapeName(args.path)}`, { sha256: r.after, bytes: r.bytes });
  },
});
