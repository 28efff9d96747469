/**
 * Progress and cancellation plumbing end to end over Streamable HTTP: a tool that walks a real tree with
 * the core walker in a loop (as long as the client lets it), reporting the walker's progress through
 * `ctx.progress`, is cancelled by the client's abort signal; the walk stops and the call ends.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/core/log.js";
import { walk } from "../../src/core/walk.js";
import { makeRoot } from "../../src/core/workspace.js";
import { type RunningHttp, serveOverHttp } from "../../src/server/http.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { defineTool, textReply } from "../../src/surfaces/tool.js";
import { tempArea } from "../helpers/fixtures.js";

const area = tempArea("mcpfs-progress-");
const dir = area.tree(
  "tree",
  Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`d${i % 10}/f${i}.txt`, "x\n"])),
);

/** What the server-side handler saw, per call (by marker argument). */
const seen = new Map<string, { walks: number; cancelled: boolean; done: boolean }>();

const endlessWalk = defineTool({
  name: "endless_walk",
  title: "Endless Walk",
  description: "Walks the first root again and again until cancelled (test tool).",
  input: z.object({ marker: z.string() }),
  output: z.object({ content: z.string() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler({ marker }, ctx) {
    const state = { walks: 0, cancelled: false, done: false };
    seen.set(marker, state);
    const root = ctx.ws.roots[0]!;
    try {
      // Bounded so a broken cancellation shows up as a wrong answer, not a hung suite.
      for (let i = 0; i < 5000; i++) {
        await walk({
          root,
          start: root.real,
          gitignore: true,
          signal: ctx.signal,
          onProgress: (visited) => void ctx.progress(state.walks * 1000 + visited),
        });
        state.walks++;
        await ctx.progress(state.walks * 1000, undefined, `walk ${state.walks} done`);
      }
      return textReply(`finished ${state.walks} walks`);
    } catch (err) {
      state.cancelled = (err as { kind?: string }).kind === "cancelled";
      throw err;
    } finally {
      state.done = true;
    }
  },
});

let running: RunningHttp;
beforeAll(async () => {
  const config = defaultConfig();
  config.directories = [dir];
  const root = await makeRoot(dir, "rw", "directory");
  running = await serveOverHttp(
    {
      config,
      policy: filesystemPolicy,
      log: createLogger({ level: "fatal", console: false }),
      version: "0.0.0-test",
      roots: [root],
      extraRoots: [],
      tools: [endlessWalk],
    },
    { host: "127.0.0.1", port: 0 },
  );
});
afterAll(async () => {
  await running?.close();
  area.cleanup();
});

/** Waits until `cond` holds (a regression fails by the test's timeout, not by a shorter clock). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 25));
}

describe.each(["v1", "v2"] as const)("progress and cancellation over HTTP (%s client)", (kind) => {
  it("reports progress while walking and stops the walk when the client cancels", async () => {
    const marker = `${kind}-${Date.now()}`;
    const progress: number[] = [];
    const ac = new AbortController();
    const args = { name: "endless_walk", arguments: { marker } };
    const onprogress = (p: { progress: number }) => {
      progress.push(p.progress);
      if (progress.length === 5) ac.abort();
    };
    let call: Promise<unknown>;
    let close: () => Promise<void>;
    if (kind === "v1") {
      const client = new ClientV1({ name: "t", version: "1" });
      await client.connect(new HttpV1(new URL(running.url)));
      call = client.callTool(args, undefined, { onprogress, signal: ac.signal, timeout: 30_000 });
      close = () => client.close();
    } else {
      const client = new ClientV2(
        { name: "t", version: "1" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new HttpV2(new URL(running.url)));
      call = client.callTool(args, { onprogress, signal: ac.signal, timeout: 30_000 });
      close = () => client.close();
    }
    try {
      await expect(call).rejects.toThrow();
      expect(progress.length).toBeGreaterThanOrEqual(5);
      // Progress values only grow.
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      await until(() => seen.get(marker)?.done === true);
      const state = seen.get(marker);
      expect(state).toMatchObject({ done: true, cancelled: true });
      expect(state!.walks).toBeLessThan(5000);
    } finally {
      await close();
    }
  });
});
