import { describe, expect, it } from "vitest";
import { z } from "zod";
import { unknownArgumentsOf } from "./arguments-taken.js";
import { type AnyToolDef, defineTool } from "./tool.js";

const tool = (input: z.ZodObject): AnyToolDef =>
  defineTool({
    name: "t",
    title: "T",
    description: "",
    input,
    annotations: { readOnlyHint: false, openWorldHint: false },
    mutating: true,
    handler: async () => ({ content: [] }),
  });

describe("unknownArgumentsOf", () => {
  const edits = tool(
    z.object({
      files: z.array(
        z.object({
          path: z.string(),
          edits: z.array(z.object({ oldText: z.string(), replaceAll: z.boolean().optional() })),
          expectedSha256: z.string().optional(),
        }),
      ),
      dryRun: z.boolean().optional(),
      options: z.looseObject({ keep: z.boolean().optional() }),
      ops: z.array(
        z.union([z.object({ set: z.string(), value: z.unknown() }), z.object({ delete: z.string() })]),
      ),
    }),
  );

  it("finds names the schema does not have, at any depth, with the one meant", () => {
    expect(
      unknownArgumentsOf(edits, {
        dry_run: true,
        files: [
          { path: "a", edits: [{ oldText: "x", replace_all: true }] },
          { path: "b", edits: [], expected_sha256: "0", mode: 1 },
        ],
      }),
    ).toEqual([
      { at: "dry_run", meant: "dryRun" },
      { at: "files[0].edits[0].replace_all", meant: "replaceAll" },
      { at: "files[1].expected_sha256", meant: "expectedSha256" },
      { at: "files[1].mode" },
    ]);
  });

  it("takes any name in an open object and any variant's names in a union", () => {
    expect(
      unknownArgumentsOf(edits, {
        options: { keep: true, anything: 1 },
        ops: [{ set: "a", value: { free: 1 } }, { delete: "b" }, { delete: "c", sett: "d" }],
      }),
    ).toEqual([{ at: "ops[2].sett" }]);
  });

  it("finds nothing in arguments the schema names, or in no arguments", () => {
    expect(
      unknownArgumentsOf(edits, { files: [{ path: "a", edits: [{ oldText: "x" }] }], dryRun: false }),
    ).toEqual([]);
    expect(unknownArgumentsOf(edits, undefined)).toEqual([]);
    expect(unknownArgumentsOf(edits, "not an object")).toEqual([]);
  });
});
