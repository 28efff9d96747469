import { z } from "zod";
import {
  documentDescription,
  documentFields,
  documentParams,
  documentTitle,
  readDocumentReply,
} from "../document-tool.js";
import { defineTool } from "../tool.js";
import { gitignoreGate, requireFilePath, resolveIn } from "./common.js";

export const readDocumentTool = defineTool({
  name: "read_document",
  title: documentTitle,
  description: documentDescription,
  input: z.object({ file_path: z.string().describe("Project-relative path"), ...documentParams }),
  output: z.object({ result: z.string(), ...documentFields }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(a, ctx) {
    const target = await resolveIn(ctx, requireFilePath(a.file_path), "read");
    await gitignoreGate(ctx, target, a.file_path);
    const r = await readDocumentReply(ctx, target, a);
    return { content: [{ type: "text", text: r.text }], structuredContent: { result: r.text, ...r.fields } };
  },
});
