import { z } from "zod";
import {
  documentDescription,
  documentFields,
  documentParams,
  documentTitle,
  readDocumentReply,
} from "../document-tool.js";
import { defineTool, textReply } from "../tool.js";

export const readDocumentTool = defineTool({
  name: "read_document",
  title: documentTitle,
  description: documentDescription,
  input: z.object({ path: z.string(), ...documentParams }),
  output: z.object({ content: z.string(), ...documentFields }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(a, ctx) {
    const target = await ctx.ws.resolve(a.path, { intent: "read" });
    const r = await readDocumentReply(ctx, target, a);
    return textReply(r.text, r.fields);
  },
});
