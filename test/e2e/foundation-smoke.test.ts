import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, runCli, startServer } from "../helpers/server.js";

const area = tempArea();
const root = area.tree("root", {
  "a.txt": "line1\nline2\nline3\nline4\nline5\n",
  "crlf.txt": "a\r\nb\r\nc\r\n",
});

afterAll(() => area.cleanup());

describe.each(["v1", "v2"] as const)("foundation over stdio with the %s client", (client) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root], { client });
  });
  afterAll(async () => {
    await conn.close();
  });

  it("announces itself as mcpfs with the package version", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8"));
    const info = conn.client.getServerVersion();
    expect(info).toMatchObject({ name: "mcpfs", version: pkg.version });
  });

  it("lists the allowed directory", async () => {
    const r = await conn.call("list_allowed_directories");
    expect(r.isError).toBe(false);
    expect(r.text).toBe(`Allowed directories:\n${root}`);
  });

  it("reads whole files, head and tail (tail exact on a trailing newline)", async () => {
    expect((await conn.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe(
      "line1\nline2\nline3\nline4\nline5\n",
    );
    expect((await conn.call("read_text_file", { path: "a.txt", head: 2 })).text).toBe("line1\nline2");
    expect((await conn.call("read_text_file", { path: "a.txt", tail: 2 })).text).toBe("line4\nline5");
    expect((await conn.call("read_text_file", { path: "a.txt", tail: 1 })).text).toBe("line5");
    expect((await conn.call("read_text_file", { path: "crlf.txt", head: 2 })).text).toBe("a\nb");
    expect((await conn.call("read_text_file", { path: "crlf.txt", tail: 2 })).text).toBe("b\nc");
  });

  it("refuses head 0, negative tail, and both together", async () => {
    for (const args of [{ head: 0 }, { tail: -1 }, { head: 1, tail: 1 }]) {
      const r = await conn.call("read_text_file", { path: "a.txt", ...args });
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain(root);
    }
  });
});

describe("command line", () => {
  it("exits 1 when no directory is usable", async () => {
    const r = await runCli([path.join(area.base, "missing")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: None of the specified directories are accessible");
  });

  it("prints the version", async () => {
    const r = await runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mcpfs \d+\.\d+\.\d+/);
  });
});
