/**
 * Table-driven hostile paths, black-box through the MCP client, against EVERY tool the server lists: the
 * tool list comes from tools/list at run time and each path-like argument gets the hostile value, so tools
 * added later are covered without touching this file. After each case: nothing outside the root changed,
 * no reply carries a canary, the allow-list (in a denial) or the server's cwd.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../../src/core/paths.js";
import { Workspace } from "../../src/core/workspace.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import {
  type HostileCase,
  hasDotDotSegment,
  hostileCases,
  kernelConfined,
  makeArena,
  type Probe,
  probesFor,
} from "../helpers/hostile.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-hostile-");
const arena = makeArena(area.base);
const baseline = arena.outsideSnapshot();
const cases = hostileCases(arena);
const totals = { calls: 0, escapes: 0 };

afterAll(() => {
  area.cleanup();
  process.stderr.write(
    `[hostile-paths] ${cases.length} cases; ${totals.calls} hostile tool calls; ${totals.escapes} escapes\n`,
  );
});

function stripRequested(text: string, value: string): string {
  let t = text;
  for (const form of [value, printable(value), printable(value).slice(0, 1000)]) {
    if (form) t = t.split(form).join("");
  }
  return t;
}

/** Runs every probe of one case and returns the problems found (empty = safe). */
async function runCase(conn: Connection, tools: Tool[], c: HostileCase, mustRefuse: boolean) {
  const problems: string[] = [];
  const { probes } = probesFor(tools, c.value);
  for (const probe of probes) {
    arena.resetRoot();
    const where = `${probe.tool}.${probe.key}`;
    let r: Awaited<ReturnType<Connection["call"]>>;
    try {
      r = await conn.call(probe.tool, probe.args);
    } catch (err) {
      // A JSON-RPC error is a refusal too; its message must be clean all the same.
      r = { text: String((err as Error).message), isError: true, raw: { error: String(err) } };
    }
    totals.calls++;
    const wire = JSON.stringify(r.raw) + r.text;
    for (const canary of arena.canaries) if (wire.includes(canary)) problems.push(`${where}: canary leaked`);
    if (wire.includes("root:x:0:0")) problems.push(`${where}: /etc/passwd leaked`);
    if (wire.includes(arena.cwd)) problems.push(`${where}: server cwd leaked`);
    if (r.isError && stripRequested(r.text, c.value).includes(arena.base))
      problems.push(`${where}: denial names an internal path: ${r.text.slice(0, 300)}`);
    if (mustRefuse && !probe.array && !r.isError)
      problems.push(`${where}: not refused: ${r.text.slice(0, 200)}`);
    const now = arena.outsideSnapshot();
    if (!sameSnapshot(baseline, now)) {
      totals.escapes++;
      problems.push(`${where}: something changed outside the root: ${diff(baseline, now)}`);
    }
  }
  return { problems, probes };
}

type Tool = { name: string; inputSchema: unknown };

function sameSnapshot(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

function diff(a: Map<string, string>, b: Map<string, string>): string {
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) out.push(k);
  return out.join(", ");
}

function pathTools(tools: Tool[]): Probe[] {
  return probesFor(tools, "x").probes;
}

describe.each([
  { client: "v1" as const, subset: false },
  { client: "v2" as const, subset: true },
])("filesystem surface, $client client", ({ client, subset }) => {
  let conn: Connection;
  let tools: Tool[];
  beforeAll(async () => {
    // No compile cache: Node would write it outside the arena, and this test watches for escapes.
    conn = await startServer([arena.root], {
      client,
      cwd: arena.cwd,
      env: { HOME: arena.home, NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    tools = (await conn.client.listTools()).tools;
  });
  afterAll(async () => {
    await conn.close();
  });

  it("has path tools to attack", () => {
    expect(pathTools(tools).length).toBeGreaterThan(0);
  });

  // What exists outside must not be learnable from how a refusal is worded.
  it.each([
    ["link_out_dir/secret2.txt/x", "link_out_dir/missing.txt/x"],
    ["link_out_dir/secret2.txt", "link_out_dir/missing.txt"],
    ["link_out_file/x", "dangling_out/x"],
    ["link_parent/outside/secret.txt/x", "link_parent/outside/missing/x"],
  ])("no existence oracle: %s answers like %s", async (existing, missing) => {
    for (const probe of pathTools(tools)) {
      arena.resetRoot();
      const a = await conn.call(probe.tool, {
        ...probe.args,
        [probe.key]: probe.array ? [existing] : existing,
      });
      const b = await conn.call(probe.tool, {
        ...probe.args,
        [probe.key]: probe.array ? [missing] : missing,
      });
      expect(a.text.split(existing).join("<p>")).toBe(b.text.split(missing).join("<p>"));
      expect(a.isError).toBe(b.isError);
    }
  });

  const table = subset ? cases.filter((_, i) => i % 3 === 0) : cases;
  it.each(table.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const { problems, probes } = await runCase(conn, tools, c, c.expect === "refuse");
    expect(probes.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe("workspace surface (--project-dir): any '..' segment is refused", () => {
  let conn: Connection;
  let tools: Tool[];
  beforeAll(async () => {
    conn = await startServer(["--project-dir", arena.root, "--console-only"], {
      cwd: arena.cwd,
      env: { HOME: arena.home, NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    tools = (await conn.client.listTools()).tools;
  });
  afterAll(async () => {
    await conn.close();
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    // mcp-workspace maps "" to the project root, so only the filesystem surface must refuse it.
    const mustRefuse = (c.expect === "refuse" && c.value !== "") || hasDotDotSegment(c.value);
    // Black-box: whatever tools the workspace surface lists.
    const { problems } = await runCase(conn, tools, c, mustRefuse);
    expect(problems).toEqual([]);
    // The same case through the core the workspace tools use, for reads and writes.
    arena.resetRoot();
    const ws = new Workspace(
      [{ path: arena.root, real: arena.root, mode: "rw", kind: "project" }],
      workspacePolicy.pathRules({}),
    );
    for (const intent of ["read", "write"] as const) {
      const got = await ws.resolve(c.value, { intent, base: ws.roots[0] }).then(
        (r) => r,
        (err: Error) => err,
      );
      if (got instanceof Error) {
        expect(got.name).toBe("ToolError");
        expect(stripRequested(got.message, c.value)).not.toContain(arena.base);
      } else {
        expect(mustRefuse, `${intent} of ${JSON.stringify(c.value)} was accepted`).toBe(false);
        expect(kernelConfined(got.real, arena.root)).toBe(true);
      }
    }
    expect(sameSnapshot(baseline, arena.outsideSnapshot())).toBe(true);
  });
});
