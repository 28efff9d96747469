import { z } from "zod";
import { writeText } from "../../core/mutate/write.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, encodingFor, encodingParam, recordChanges, textReply } from "../tool.js";
import { expectedSha256 } from "./common.js";

export const writeFileTool = defineTool({
  name: "write_file",
  title: "Write File",
  description:
    "Create a file or replace all of its content (crash-safe; keeps its mode). The parent directory must exist. To change part of a file, use edit_file.",
  input: z.object({ path: z.string(), content: z.string(), expectedSha256, encoding: encodingParam }),
  output: z.object({
    content: z.string(),
    bytes: z.number().optional().describe("bytes written"),
    created: z.boolean().optional().describe("the file did not exist before"),
    sha256: z.string().optional().describe("sha256 of the bytes written"),
  }),
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "write" });
    const r = await writeText(target, args.content, {
      expectedSha256: args.expectedSha256,
      encoding: encodingFor(ctx, args.encoding),
    });
    recordChanges(ctx, [r]);
    return textReply(`Successfully wrote to ${escapeName(args.path)}`, {
      bytes: r.bytes,
      created: r.kind === "create",
      sha256: r.after,
    });
  },
});
