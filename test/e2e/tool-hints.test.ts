/**
 * Every listed tool of both surfaces carries a title, annotations and an output schema; tools/list order
 * is deterministic (the surface's own order); --disable-tools and --read-only hide what they should.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesystemTools } from "../../src/surfaces/filesystem/index.js";
import { workspaceTools } from "../../src/surfaces/workspace/index.js";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-hints-");
const dir = area.tree("d", { "a.txt": "a\n" });
afterAll(() => area.cleanup());

interface ListedTool {
  name: string;
  title?: string;
  annotations?: Record<string, unknown>;
  outputSchema?: { type?: string };
}

async function listed(args: string[], client: "v1" | "v2" = "v1"): Promise<ListedTool[]> {
  const conn = await startServer(args, { client });
  try {
    return (await conn.client.listTools()).tools;
  } finally {
    await conn.close();
  }
}

/**
 * The filesystem surface declares an output schema on every tool (the official server does). The
 * workspace surface mirrors mcp-workspace, whose plain-text tools carry no structured content, so an
 * output schema is required there only when the tool declares one (then it must be listed).
 */
describe.each([
  ["filesystem", [dir], filesystemTools, true],
  ["workspace", ["--project-dir", dir, "--console-only", "--github-tools", "always"], workspaceTools, false],
] as const)("the %s surface", (_name, args, tools, schemaRequired) => {
  let legacy: ListedTool[];
  let modern: ListedTool[];
  beforeAll(async () => {
    [legacy, modern] = await Promise.all([listed([...args]), listed([...args], "v2")]);
  });

  it("lists its tools in the surface's order, the same on both eras", () => {
    expect(legacy.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(modern.map((t) => t.name)).toEqual(legacy.map((t) => t.name));
  });

  it(`gives every listed tool a title, annotations${schemaRequired ? " and an output schema" : ""}`, () => {
    const declared = new Map(tools.map((d) => [d.name, d.output !== undefined]));
    for (const t of [...legacy, ...modern]) {
      expect(t.title, t.name).toEqual(expect.any(String));
      expect(t.title!.length, t.name).toBeGreaterThan(0);
      expect(t.annotations, t.name).toMatchObject({
        title: t.title,
        readOnlyHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
      if (schemaRequired || declared.get(t.name)) expect(t.outputSchema?.type, t.name).toBe("object");
      else expect(t.outputSchema, t.name).toBeUndefined();
    }
  });
});

describe("instructions", () => {
  it.each([
    [
      "filesystem",
      [dir],
      ["grep", "search_files", "startLine", "edit_file", "apply_patch", "expectedSha256"],
    ],
    [
      "workspace",
      ["--project-dir", dir, "--console-only"],
      ["search_files", "start_line", "expected_sha256"],
    ],
  ] as const)(
    "on the %s surface say in at most 120 words which tool to reach for first",
    async (_surface, args, names) => {
      const conn = await startServer([...args]);
      try {
        const text: string = conn.client.getInstructions();
        const [guide] = text.split("\n");
        expect(guide!.split(/\s+/).length).toBeLessThanOrEqual(120);
        for (const n of names) expect(guide).toContain(n);
        expect(text).toContain(dir);
      } finally {
        await conn.close();
      }
    },
  );
});

describe("hiding tools", () => {
  it("--disable-tools hides the named tools and they cannot be called", async () => {
    const conn = await startServer([dir, "--disable-tools", "read_file, list_allowed_directories"]);
    try {
      const names = (await conn.client.listTools()).tools.map((t: ListedTool) => t.name);
      expect(names).not.toContain("read_file");
      expect(names).not.toContain("list_allowed_directories");
      expect(names).toContain("read_text_file");
      // A tool error the model reads (as the official server answers), not a protocol error.
      const r = await conn.call("list_allowed_directories");
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        "Tool list_allowed_directories not found. This filesystem server's tools are listed by tools/list.",
      );
      const typo = await conn.call("read_txt_file", { path: "a.txt" });
      expect(typo.isError).toBe(true);
      expect(typo.text).toMatch(/^Tool read_txt_file not found\./);
    } finally {
      await conn.close();
    }
  });

  it.each(["v1", "v2"] as const)(
    "an unknown tool is a tool error on the workspace surface too (%s client)",
    async (client) => {
      const conn = await startServer(["--project-dir", dir, "--console-only"], { client });
      try {
        const r = await conn.call("no_such_tool", {});
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(
          /^Tool no_such_tool not found\. This workspace server's tools are listed by tools\/list\.$/,
        );
      } finally {
        await conn.close();
      }
    },
  );

  it("--read-only hides every mutating tool and keeps the others", async () => {
    const names = (await listed([dir, "--read-only"])).map((t) => t.name);
    const expected = filesystemTools.filter((t) => !t.mutating).map((t) => t.name);
    expect(names).toEqual(expected);
  });

  it("--read-only and --disable-tools together: both rules, in the surface's order", async () => {
    const names = (await listed([dir, "--read-only", "--disable-tools", "read_text_file"])).map(
      (t) => t.name,
    );
    const expected = filesystemTools
      .filter((t) => !t.mutating && t.name !== "read_text_file")
      .map((t) => t.name);
    expect(names).toEqual(expected);
  });
});
