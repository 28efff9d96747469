/**
 * One stdio message is at most 10 MiB (the SDK's bound, kept so one line cannot hold the server's memory):
 * a larger request is answered with a JSON-RPC error that names the limit and the tool to use instead, and
 * the session goes on. Both client generations (they order a request's fields differently: the id first
 * or last), both surfaces.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { serverPool } from "../helpers/server.js";

const area = tempArea("mcpfs-stdio-limit-");
afterAll(() => area.cleanup());
const start = serverPool();
const OVER = `${"x".repeat(10 * 1024 * 1024)}\n`;

describe("a request larger than the stdio limit", () => {
  it.each([
    ["v1", "filesystem"],
    ["v2", "workspace"],
  ] as const)(
    "%s client, %s surface: an error naming the limit and append_file; the session goes on",
    async (client, surface) => {
      const dir = area.tree(`${client}-${surface}`, { "a.txt": "A\n" });
      const conn = await start(surface === "workspace" ? ["--project-dir", dir, "--console-only"] : [dir], {
        client,
      });
      const [write, read, readArgs] =
        surface === "workspace"
          ? (["save_file", "read_file", { file_path: "a.txt" }] as const)
          : (["write_file", "read_text_file", { path: path.join(dir, "a.txt") }] as const);
      const args =
        surface === "workspace"
          ? { file_path: "big.txt", content: OVER }
          : { path: path.join(dir, "big.txt"), content: OVER };
      const err = await conn.call(write, args).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain("over the 10 MiB limit of one stdio message");
      expect(err?.message).toContain(`${write} a first part, then append_file the rest`);
      expect(fs.existsSync(path.join(dir, "big.txt"))).toBe(false);
      // The same session answers the next call.
      const next = await conn.call(read, readArgs);
      expect(next.isError).toBe(false);
      expect(next.text).toContain("A");
      // A request just under the limit still goes through.
      const under = "y".repeat(9 * 1024 * 1024);
      const ok = await conn.call(write, { ...args, content: under });
      expect(ok.isError).toBe(false);
      expect(fs.statSync(path.join(dir, "big.txt")).size).toBe(under.length);
    },
  );
});
