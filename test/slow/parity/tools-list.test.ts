import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../../helpers/fixtures.js";
import { type Connection, OFFICIAL_BIN, startServer } from "../../helpers/server.js";

interface Tool {
  name: string;
  title?: string;
  inputSchema: {
    properties?: Record<string, { type?: string; items?: unknown; default?: unknown }>;
    required?: string[];
  };
  annotations?: Record<string, unknown>;
}

const HINTS = ["readOnlyHint", "idempotentHint", "destructiveHint", "openWorldHint"];

describe("tools/list against the official server", () => {
  const area = tempArea();
  const root = area.tree("root");
  let ours: Connection;
  let theirs: Connection;
  let mine: Map<string, Tool>;
  let official: Tool[];
  beforeAll(async () => {
    [ours, theirs] = await Promise.all([startServer([root]), startServer([root], { bin: OFFICIAL_BIN })]);
    mine = new Map(((await ours.client.listTools()).tools as Tool[]).map((t) => [t.name, t]));
    official = (await theirs.client.listTools()).tools as Tool[];
  });
  afterAll(async () => {
    await Promise.all([ours?.close(), theirs?.close()]);
    area.cleanup();
  });

  it("offers all 14 official tools, in the official order", () => {
    expect(official).toHaveLength(14);
    const names = [...mine.keys()].filter((n) => official.some((t) => t.name === n));
    expect(names).toEqual(official.map((t) => t.name));
  });

  it("keeps every input property's name, type, default and required-ness; adds only optional ones", () => {
    for (const t of official) {
      const m = mine.get(t.name)!;
      const theirProps = t.inputSchema.properties ?? {};
      const myProps = m.inputSchema.properties ?? {};
      for (const [prop, schema] of Object.entries(theirProps)) {
        expect(myProps[prop], `${t.name}.${prop}`).toBeDefined();
        expect(myProps[prop]!.type, `${t.name}.${prop} type`).toBe(schema.type);
        expect(myProps[prop]!.default, `${t.name}.${prop} default`).toEqual(schema.default);
        if (schema.items) expect(myProps[prop]!.items, `${t.name}.${prop} items`).toMatchObject(schema.items);
      }
      expect([...(m.inputSchema.required ?? [])].sort(), `${t.name} required`).toEqual(
        [...(t.inputSchema.required ?? [])].sort(),
      );
    }
  });

  it("has the same titles and annotation hints", () => {
    for (const t of official) {
      const m = mine.get(t.name)!;
      expect(m.title, t.name).toBe(t.title);
      for (const h of HINTS) expect(m.annotations?.[h], `${t.name}.${h}`).toBe(t.annotations?.[h]);
    }
  });

  it("declares an outputSchema with a string content for every tool", async () => {
    for (const t of (await ours.client.listTools()).tools) {
      expect(t.outputSchema, t.name).toBeDefined();
      if (t.name !== "read_media_file") expect(t.outputSchema.properties.content.type, t.name).toBe("string");
    }
  });
});
