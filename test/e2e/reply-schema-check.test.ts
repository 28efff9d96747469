/**
 * The harness's reply check (test/helpers/reply-schema.ts) against a server whose replies break their own
 * outputSchema on purpose: each kind of mismatch fails the call and is recorded, with both clients (both
 * eras); a reply that matches, and a tool without a schema, pass.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { takeMismatches } from "../helpers/reply-schema.js";
import { ROOT, serverPool } from "../helpers/server.js";

const start = serverPool();
const bin = path.join(ROOT, "test/fixtures/bad-reply-server.mjs");

describe.each(["v1", "v2"] as const)("reply check (%s client)", (client) => {
  it("passes replies that match, and tools without a schema", async () => {
    const conn = await start([], { bin, client });
    expect((await conn.call("good")).structured).toEqual({ n: 1 });
    expect((await conn.call("no_schema")).structured).toEqual({ anything: "goes" });
    expect(takeMismatches()).toEqual([]);
  });

  it.each([
    ["wrong_type", /wrong_type.*(must be number|output schema)/],
    ["extra_key", /extra_key.*(additional properties|output schema)/],
    ["no_structured", /no_structured.*(structuredContent|structured content)/],
  ])("fails the call and records it: %s", async (tool, wording) => {
    const conn = await start([], { bin, client });
    await expect(conn.call(tool)).rejects.toThrow();
    // Also through the client object itself, as some tests call it.
    const args = client === "v1" ? [{ name: tool, arguments: {} }, undefined, {}] : [{ name: tool }];
    await expect(conn.client.callTool(...args)).rejects.toThrow();
    const seen = takeMismatches();
    expect(seen).toHaveLength(2);
    for (const m of seen) expect(m).toMatch(wording);
  });
});
