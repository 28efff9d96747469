/**
 * Cancelling a real, long `grep` over Streamable HTTP, in both engines (MCPFS_GREP_ENGINE=rg|js): the built
 * server, the SDK's HTTP client with an AbortSignal, the abort sent after the first progress notification.
 * The work must stop on the server (its log shows the call failing as cancelled well before an uncancelled
 * run of the same search ends), ripgrep's child process must be gone, and the server must keep answering.
 *
 * What makes the search slow in both engines without gigabytes of data: non-ASCII text and a pattern with
 * Unicode word boundaries and no literal, which ripgrep's DFA cannot run (it falls back to its slower
 * engines) and which the pure-TS engine runs on RE2JS. The data grows until the uncancelled run lasts long
 * enough; every bound is relative to that run, measured in the same test.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import {
  connectHttp,
  type HttpConnection,
  type HttpServerProcess,
  startHttpServer,
} from "../helpers/http.js";

const PATTERN = String.raw`\b\w+\d{3}\b`; // never matches: the words carry at most two digits
/** Long enough that the first progress notification (sent after 1 s) arrives well before the end. */
const MIN_BASELINE_MS = 3000;

const area = tempArea("mcpfs-grep-cancel-");

/** ~260 KB of accented words, 4000 lines. */
function textBlock(): string {
  const words = ["alpha", "béta", "gamma", "délta", "epsilon", "zeta", "thêta", "lambda", "omega", "sigma"];
  let seed = 1;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const lines: string[] = [];
  for (let l = 0; l < 4000; l++) {
    const line: string[] = [];
    for (let w = 0; w < 8; w++) line.push(`${words[rnd() % 10]}${rnd() % 100}`);
    lines.push(line.join(" "));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What is searched: a tree of 100 files, or one file of the same size. The file is the hard case for the
 * pure-TS engine: the cancel must get through while one file is being scanned, not only between files.
 */
interface Target {
  path: string;
  /** Doubles the data to search. */
  grow(): void;
  maxDoublings: number;
  /** A small search that answers fast. */
  small: { path: string; pattern: string };
}

function makeTree(block: string): Target {
  const tree = path.join(area.base, "tree");
  for (let f = 0; f < 100; f++) {
    const dir = path.join(tree, "c0", `d${f % 10}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${f}.txt`), block);
  }
  return {
    path: tree,
    // Hard links: doubling writes no new data.
    grow() {
      const copies = fs.readdirSync(tree);
      for (const c of copies) {
        const to = path.join(tree, `c${copies.length + Number(c.slice(1))}`);
        for (const d of fs.readdirSync(path.join(tree, c))) {
          fs.mkdirSync(path.join(to, d), { recursive: true });
          for (const f of fs.readdirSync(path.join(tree, c, d)))
            fs.linkSync(path.join(tree, c, d, f), path.join(to, d, f));
        }
      }
    },
    maxDoublings: 5,
    small: { path: path.join(tree, "c0", "d0", "f0.txt"), pattern: "zeta" },
  };
}

function makeFile(block: string): Target {
  const file = path.join(area.base, "big", "big.txt");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, block.repeat(100));
  fs.writeFileSync(path.join(area.base, "big", "small.txt"), block);
  return {
    path: file,
    grow: () => fs.appendFileSync(file, fs.readFileSync(file)),
    maxDoublings: 3,
    small: { path: path.join(area.base, "big", "small.txt"), pattern: "zeta" },
  };
}

/** Pids of the `rg` processes whose parent is `pid` (Linux /proc). */
function rgChildren(pid: number): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === pid && comm === "rg") out.push(Number(e));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

const targets: Record<"tree" | "file", Target> = {} as never;
beforeAll(() => {
  const block = textBlock();
  targets.tree = makeTree(block);
  targets.file = makeFile(block);
});
afterAll(() => area.cleanup());

const hasProc = fs.existsSync("/proc/self/stat");

describe.each(["rg", "js"] as const)(
  "a long grep cancelled over HTTP (engine %s)",
  { timeout: 600_000 },
  (engine) => {
    let srv: HttpServerProcess;
    let conn: HttpConnection;
    beforeAll(async () => {
      srv = await startHttpServer([area.base], { env: { MCPFS_GREP_ENGINE: engine } });
      conn = await connectHttp(srv.url, { client: "v1" });
    });
    afterAll(async () => {
      await conn?.close();
      await srv?.stop();
    });

    // biome-ignore lint/suspicious/noExplicitAny: the v1 client's callTool options
    const callGrep = (target: Target, options: any) =>
      conn.client.callTool({ name: "grep", arguments: { path: target.path, pattern: PATTERN } }, undefined, {
        timeout: 300_000,
        ...options,
      });

    /** The uncancelled run's duration, after growing the data until it is long enough to cancel midway. */
    async function baselineMs(target: Target): Promise<number> {
      for (let i = 0; ; i++) {
        const t0 = performance.now();
        const r = await callGrep(target, {});
        const ms = performance.now() - t0;
        expect(r.isError ?? false).toBe(false);
        expect(r.content[0].text).toBe("No matches found");
        if (ms >= MIN_BASELINE_MS || i === target.maxDoublings) return ms;
        target.grow();
      }
    }

    it.each(["tree", "file"] as const)(
      "over a %s: stops promptly, kills ripgrep, keeps serving",
      async (kind) => {
        const target = targets[kind];
        const pid = srv.proc.pid!;
        const baseline = await baselineMs(target);
        expect(baseline, "the uncancelled grep is long enough to cancel").toBeGreaterThanOrEqual(
          MIN_BASELINE_MS,
        );
        const logFrom = srv.stderr().length;

        const ac = new AbortController();
        let abortedAt = 0;
        let rgDuringCall: number[] = [];
        const t0 = performance.now();
        const call = callGrep(target, {
          signal: ac.signal,
          onprogress: () => {
            if (ac.signal.aborted) return;
            if (hasProc) rgDuringCall = rgChildren(pid);
            abortedAt = performance.now() - t0;
            ac.abort();
          },
        });
        await expect(call).rejects.toThrow();
        const rejectedAt = performance.now() - t0;
        expect(abortedAt, "aborted after the first progress notification").toBeGreaterThan(0);
        expect(rejectedAt - abortedAt).toBeLessThan(baseline / 2);
        if (engine === "rg" && hasProc)
          expect(rgDuringCall.length, "ripgrep ran during the call").toBeGreaterThan(0);

        // "Promptly": the work is over before half of what remained of the uncancelled run has passed.
        const stopBy = abortedAt + (baseline - abortedAt) / 2;
        const left = () => t0 + stopBy - performance.now();
        // The server's own account of the call: failed as cancelled.
        const logged = () => /tool grep failed \((\d+)ms\) (.*)$/m.exec(srv.stderr().slice(logFrom));
        expect(await until(() => logged() !== null, left()), srv.stderr().slice(logFrom)).toBe(true);
        const [, ms, extra] = logged()!;
        expect(extra).toContain('"error":"Cancelled"');
        expect(Number(ms)).toBeLessThan(stopBy);
        // ripgrep itself was killed, not left to finish unread.
        if (engine === "rg" && hasProc)
          expect(await until(() => rgChildren(pid).length === 0, left()), "no rg child remains").toBe(true);

        // Still responsive: a small search answers, well within the time the big one takes.
        const t1 = performance.now();
        const small = await conn.call("grep", { ...target.small, maxResults: 1 });
        expect(small.isError).toBe(false);
        expect(small.text).toMatch(/\.txt\n\d+: .*zeta/);
        expect(performance.now() - t1).toBeLessThan(baseline);
      },
    );
  },
);
