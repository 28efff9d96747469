import { ToolError } from "../../core/errors.js";
import { appendText } from "../../core/files/append.js";
import { printable } from "../../core/paths.js";
import { defineTool, recordChanges } from "../tool.js";
import { boolOutput, boolReply, fileInput, textWriteTarget } from "./common.js";

export const appendFileTool = defineTool({
  name: "append_file",
  title: "Append File",
  description: "Append content to an existing file (to create one, use save_file).",
  input: fileInput,
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const { filePath, text, target } = await textWriteTarget(args, ctx);
    try {
      recordChanges(ctx, [await appendText(target, text, { expectedSha256: args.expected_sha256 })]);
    } catch (err) {
      if (err instanceof ToolError && err.code === "not_found")
        throw new ToolError(`File '${printable(filePath)}' does not exist`, "not_found");
      if (err instanceof ToolError && err.code === "not_file")
        throw new ToolError(`Path '${printable(filePath)}' is not a file`, "not_file");
      throw err;
    }
    return boolReply(true);
  },
});
