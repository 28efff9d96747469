import { ensureParentDirs } from "../../core/fs/mkdirs.js";
import { writeText } from "../../core/mutate/write.js";
import { defineTool, encodingFor, recordChanges } from "../tool.js";
import { boolOutput, boolReply, fileInput, textWriteTarget } from "./common.js";

export const saveFileTool = defineTool({
  name: "save_file",
  title: "Save File",
  description: "Create or overwrite a file atomically, creating parent directories.",
  input: fileInput,
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const { text, target } = await textWriteTarget(args, ctx);
    await ensureParentDirs(target);
    recordChanges(ctx, [
      await writeText(target, text, {
        expectedSha256: args.expected_sha256,
        encoding: encodingFor(ctx, args.encoding),
      }),
    ]);
    return boolReply(true);
  },
});
