/**
 * The official conformance suite (@modelcontextprotocol/conformance 0.1.16, which needs Node 22) against
 * `mcpfs --http` on loopback, with the pinned baseline test/conformance/expected-failures.yml. The
 * scenarios that apply to mcpfs must really pass. The suite runs on a Node 22 of its own, never on PATH:
 * the Node running the tests when it is 22 or newer, else MCPFS_NODE22, else the registry's Node 22 for
 * this platform, installed on first use into node_modules/.cache (so `npm ci` stays the same everywhere).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { node22 } from "../../scripts/node22.mjs";
import { tempArea } from "../helpers/fixtures.js";
import { type HttpServerProcess, startHttpServer } from "../helpers/http.js";
import { ROOT } from "../helpers/server.js";

const CONFORMANCE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = path.join(ROOT, "test/conformance/expected-failures.yml");
const MUST_PASS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "server-sse-multiple-streams",
  "resources-list",
  "dns-rebinding-protection",
];

const area = tempArea("mcpfs-conformance-");
const root = area.tree("root", { "a.txt": "a\n" });
const results = path.join(area.base, "results");
let srv: HttpServerProcess;
let node22Bin: string;

beforeAll(async () => {
  node22Bin = node22(ROOT);
  // The conformance client sends no bearer token.
  srv = await startHttpServer([root, "--no-auth"]);
}, 300_000);
afterAll(async () => {
  await srv?.stop();
  area.cleanup();
});

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22Bin, [CONFORMANCE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** checks.json of every scenario run, by scenario name. */
function checksByScenario(): Map<string, { status: string }[]> {
  const out = new Map<string, { status: string }[]>();
  for (const dir of fs.readdirSync(results)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    if (!m) continue;
    out.set(m[1]!, JSON.parse(fs.readFileSync(path.join(results, dir, "checks.json"), "utf8")));
  }
  return out;
}

describe("MCP conformance suite", () => {
  it("passes every applicable scenario; the rest match the pinned baseline", async () => {
    const r = await run([
      "server",
      "--url",
      srv.url,
      "--suite",
      "all",
      "--expected-failures",
      BASELINE,
      "-o",
      results,
    ]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("Baseline check passed");
    const checks = checksByScenario();
    for (const name of MUST_PASS) {
      const list = checks.get(name);
      expect(list, `${name} did not run`).toBeDefined();
      expect(list!.filter((c) => c.status === "SUCCESS").length, name).toBeGreaterThan(0);
      expect(
        list!.filter((c) => c.status === "FAILURE" || c.status === "WARNING"),
        name,
      ).toEqual([]);
    }
  });
});
