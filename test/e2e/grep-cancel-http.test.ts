/**
 * Cancelling a real, long `grep` over Streamable HTTP, in both engines (MCPFS_GREP_ENGINE=rg|js): the built
 * server, the SDK's HTTP client with an AbortSignal, the abort sent after the first progress notification.
 * The work must stop on the server, ripgrep's child process must be gone, and the server must keep answering.
 *
 * Judged by ordering, not by a clock: the same search (B) is started first, uncancelled, as the yardstick. The
 * cancelled call (A) starts after B's first progress notification, so without a working cancel A, doing the
 * same work later, would end after B. The test asks that A is logged as cancelled, its ripgrep gone and a small
 * search answered, all while B still runs (B is then cancelled too). The data is sized so that B runs for many
 * seconds on a fast machine; it never runs to its end, so its size costs only the files' creation.
 *
 * What makes the search slow in both engines without gigabytes of data: non-ASCII text and a pattern with
 * Unicode word boundaries and no literal, which ripgrep's DFA cannot run (it falls back to its slower
 * engines) and which the pure-TS engine runs on RE2JS.
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
 * What is searched: a tree of 100 files hard-linked 32 times (830 MB to search, 26 MB written), or one file of
 * 210 MB (ripgrep: over 10 s of CPU). The file is the hard case for the pure-TS engine: the cancel must get
 * through while one file is being scanned, not only between files.
 */
interface Target {
  path: string;
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
  // Hard links: each copy of the tree writes no new data.
  for (let c = 1; c < 32; c++)
    for (let f = 0; f < 100; f++) {
      const dir = path.join(tree, `c${c}`, `d${f % 10}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.linkSync(path.join(tree, "c0", `d${f % 10}`, `f${f}.txt`), path.join(dir, `f${f}.txt`));
    }
  return { path: tree, small: { path: path.join(tree, "c0", "d0", "f0.txt"), pattern: "zeta" } };
}

function makeFile(block: string): Target {
  const file = path.join(area.base, "big", "big.txt");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const part = block.repeat(100);
  for (let i = 0; i < 8; i++) fs.appendFileSync(file, part);
  fs.writeFileSync(path.join(area.base, "big", "small.txt"), block);
  return { path: file, small: { path: path.join(area.base, "big", "small.txt"), pattern: "zeta" } };
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

/** Waits until `cond` holds (a regression fails by the test's timeout). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 25));
}

const targets: Record<"tree" | "file", Target> = {} as never;
beforeAll(() => {
  const block = textBlock();
  targets.tree = makeTree(block);
  targets.file = makeFile(block);
});
afterAll(() => area.cleanup());

const hasProc = fs.existsSync("/proc/self/stat");

describe.each(["rg", "js"] as const)("a long grep cancelled over HTTP (engine %s)", (engine) => {
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

  /** The search, with an abort signal and a hook on its progress notifications. */
  function longGrep(target: Target, onprogress: (ac: AbortController) => void) {
    const ac = new AbortController();
    const reply = conn.client.callTool(
      { name: "grep", arguments: { path: target.path, pattern: PATTERN } },
      undefined,
      { timeout: 300_000, signal: ac.signal, onprogress: () => onprogress(ac) },
    );
    let state: "running" | "finished" | "aborted" = "running";
    const settled = reply.then(
      () => {
        state = "finished";
      },
      () => {
        state = "aborted";
      },
    );
    return { ac, settled, state: () => state };
  }

  /** The server's log lines of failed grep calls since `from`, each with its error. */
  const cancelledLines = (from: number) =>
    [
      ...srv
        .stderr()
        .slice(from)
        .matchAll(/tool grep failed \(\d+ms\) (.*)$/gm),
    ].map((m) => m[1]);

  it.each(["tree", "file"] as const)(
    "over a %s: stops while the same search runs on, kills ripgrep, keeps serving",
    async (kind) => {
      const target = targets[kind];
      const pid = srv.proc.pid!;
      const logFrom = srv.stderr().length;

      // B, the yardstick: the same search, started first; past its first progress notification, A starts.
      let bRunning!: () => void;
      const bStarted = new Promise<void>((r) => {
        bRunning = r;
      });
      const b = longGrep(target, () => bRunning());
      await bStarted;
      const rgOfB = hasProc ? rgChildren(pid) : [];

      // A: aborted at its first progress notification; its ripgrep is the child B does not own.
      let rgOfA: number[] = [];
      const a = longGrep(target, (ac) => {
        if (ac.signal.aborted) return;
        if (hasProc) rgOfA = rgChildren(pid).filter((p) => !rgOfB.includes(p));
        ac.abort();
      });
      await a.settled;
      expect(a.state(), "the cancelled call rejects").toBe("aborted");
      if (engine === "rg" && hasProc) expect(rgOfA.length, "ripgrep ran during the call").toBeGreaterThan(0);

      // The server's own account of A: failed as cancelled; and ripgrep itself killed, not left to finish.
      await until(() => cancelledLines(logFrom).length > 0);
      expect(cancelledLines(logFrom)[0]).toMatch(/"error":"Cancelled(: [^"]*)?"/);
      if (engine === "rg" && hasProc) await until(() => !rgChildren(pid).some((p) => rgOfA.includes(p)));
      // Still responsive: a small search answers.
      const small = await conn.call("grep", { ...target.small, maxResults: 1 });
      expect(small.isError).toBe(false);
      expect(small.text).toMatch(/\.txt\n\d+: .*zeta/);
      // All of that while B, which started earlier on the same work, still runs.
      expect(b.state(), "the uncancelled search was still running").toBe("running");

      b.ac.abort();
      await b.settled;
      await until(() => cancelledLines(logFrom).length > 1);
      expect(cancelledLines(logFrom)[1]).toMatch(/"error":"Cancelled(: [^"]*)?"/);
      if (engine === "rg" && hasProc) await until(() => rgChildren(pid).length === 0);
    },
  );
});
