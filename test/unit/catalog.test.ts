/**
 * The bundle answers tools/list from a build-time catalog and loads tool modules lazily: the catalog's
 * schemas must be exactly what the SDK would derive from the real tools (less what tells a model nothing), and validation and handling
 * must be the real tools'.
 */
import { describe, expect, it } from "vitest";
import { catalogOf, lazyTools, leanSchema } from "../../src/surfaces/catalog.js";
import { filesystemTools } from "../../src/surfaces/filesystem/index.js";
import type { AnyToolDef } from "../../src/surfaces/tool.js";
import { workspaceTools } from "../../src/surfaces/workspace/index.js";

// biome-ignore lint/suspicious/noExplicitAny: reaching into the Standard Schema interface
const std = (s: unknown): any => (s as { "~standard": unknown })["~standard"];
const target = { target: "draft-2020-12" };

describe.each([
  ["filesystem", filesystemTools],
  ["workspace", workspaceTools],
] as const)("%s catalog", (_surface, tools: readonly AnyToolDef[]) => {
  const lazy = lazyTools(JSON.parse(JSON.stringify(catalogOf(tools))), async () => tools);

  it("lists the same tools, texts and JSON Schemas in the same order", () => {
    expect(lazy.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const [i, t] of tools.entries()) {
      const l = lazy[i]!;
      expect([l.title, l.description, l.annotations, l.mutating]).toEqual([
        t.title,
        t.description,
        t.annotations,
        t.mutating,
      ]);
      expect(std(l.input).jsonSchema.input(target)).toEqual(
        leanSchema(std(t.input).jsonSchema.input(target)),
      );
      expect(l.output === undefined).toBe(t.output === undefined);
      if (t.output)
        expect(std(l.output).jsonSchema.output(target)).toEqual(
          leanSchema(std(t.output).jsonSchema.output(target)),
        );
    }
  });

  it("validates with the real schemas", async () => {
    for (const [i, t] of tools.entries()) {
      for (const value of [{}, { path: 1 }, { path: "a" }]) {
        const got = await std(lazy[i]!.input).validate(value);
        const want = await std(t.input).validate(value);
        expect(got.issues === undefined).toBe(want.issues === undefined);
      }
    }
  });
});
