import { defineTool } from "../tool.js";
import { readText, readTextInput, readTextOutput } from "./read-text-file.js";

export const readFileTool = defineTool({
  name: "read_file",
  title: "Read File (Deprecated)",
  description: "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
  input: readTextInput,
  output: readTextOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler: readText,
});
