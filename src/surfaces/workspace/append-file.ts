import { appendText } from "../../core/mutate/append.js";
import { defineTool, encodingFor, recordChanges } from "../tool.js";
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
    const { text, target } = await textWriteTarget(args, ctx);
    recordChanges(ctx, [
      await appendText(target, text, {
        expectedSha256: args.expected_sha256,
        encoding: encodingFor(ctx, args.encoding),
      }),
    ]);
    return boolReply(true);
  },
});
