import { z } from "zod";
import { structuredTools } from "../structured-tools.js";
import { gitignoreGate, requireFilePath, resolveIn } from "./common.js";

/** notebook_*, read_structured, edit_structured, edit_lines: project-relative paths, as read_file. */
export const structuredFileTools = structuredTools({
  async file(ctx, requested, intent) {
    const target = await resolveIn(ctx, requireFilePath(requested), intent);
    await gitignoreGate(ctx, target, requested);
    return target;
  },
  reply: (text, fields) => ({
    content: [{ type: "text", text }],
    structuredContent: { result: text, ...fields },
  }),
  out: (fields) => z.object({ result: z.string(), ...fields }),
  names: {
    path: "file_path",
    expectedSha256: "expected_sha256",
    dryRun: "dry_run",
    keepOutputs: "keep_outputs",
    startLine: "start_line",
    endLine: "end_line",
    newText: "new_text",
  },
});
