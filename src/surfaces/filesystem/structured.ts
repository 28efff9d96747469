import { z } from "zod";
import { structuredTools } from "../structured-tools.js";
import { textReply } from "../tool.js";

/** notebook_*, read_structured, edit_structured, edit_lines with this surface's paths and names. */
export const structuredFileTools = structuredTools({
  file: (ctx, requested, intent) => ctx.ws.resolve(requested, { intent }),
  reply: (text, fields) => textReply(text, fields),
  out: (fields) => z.object({ content: z.string(), ...fields }),
  names: {
    path: "path",
    expectedSha256: "expectedSha256",
    dryRun: "dryRun",
    keepOutputs: "keepOutputs",
    startLine: "startLine",
    endLine: "endLine",
    newText: "newText",
  },
});
