/**
 * The GitHub client's retries (src/core/github/client.ts), in process against the fake GitHub, with fake
 * timers: the retry plugin's waits (1 s, then 4 s) pass in no time. A 5xx is retried and a later success
 * returned; a persistent one is given up after two retries and worded as a server error; an unreachable
 * host is retried too, then worded as unreachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { makeClient } from "../../src/core/github/client.js";
import { describeGitHubError } from "../../src/core/github/errors.js";
import { expectFakeClean, FakeGitHub } from "../helpers/fake-github.js";
import { fixtures } from "../helpers/github-fixtures.js";

const fake = new FakeGitHub();
const f = fixtures(fake);
const ROUTE = "GET /repos/{owner}/{repo}/issues/{issue_number}";

beforeAll(async () => {
  await fake.start();
});
afterEach(() => {
  vi.useRealTimers();
});
expectFakeClean(fake);
afterAll(async () => {
  await fake.close();
});

/**
 * Runs `work` with timers faked, firing them as they come due while the loopback I/O runs in real time;
 * returns how much fake time passed (the retry waits are judged in fake time: no assertion on wall time,
 * which a loaded machine stretches).
 */
async function withFakeTime<T>(
  work: () => Promise<T>,
): Promise<{ value?: T; error?: unknown; waitedMs: number }> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const t0 = Date.now();
  let done = false;
  const outcome = work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.finally(() => {
    done = true;
  });
  // A client that never settles fails by the test's own timeout (vitest keeps real timers for it); the loop
  // then stops too, rather than spinning on in this worker.
  let abandoned = false;
  onTestFinished(() => {
    abandoned = true;
  });
  while (!done && !abandoned) {
    // Real I/O (the fake's sockets) needs the event loop; timers due by then fire at once.
    await new Promise((r) => setImmediate(r));
    await vi.advanceTimersToNextTimerAsync();
  }
  return { ...(await outcome), waitedMs: Date.now() - t0 };
}

const client = () => makeClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 60_000 });
const get = async () => (await client()).rest.issues.get({ owner: "octo", repo: "project", issue_number: 1 });

describe("GitHub client retries", () => {
  it("a 5xx is retried and the later success returned", async () => {
    let n = 0;
    fake.on(ROUTE, () =>
      ++n === 1 ? { status: 502, body: { message: "Bad Gateway" } } : { body: f.issue(1, { title: "Back" }) },
    );
    const r = await withFakeTime(get);
    expect(r.error).toBeUndefined();
    expect(r.value?.data.title).toBe("Back");
    expect(n).toBe(2);
    expect(r.waitedMs).toBeGreaterThanOrEqual(1000);
  });

  it("a persistent 5xx is given up after two retries and worded as a server error", async () => {
    let n = 0;
    fake.on(ROUTE, () => {
      n++;
      return { status: 500, body: { message: "Server Error" } };
    });
    const r = await withFakeTime(get);
    expect(n).toBe(3);
    expect(describeGitHubError(r.error, fake.url)).toBe("GitHub server error (500): Server Error");
    expect(r.waitedMs).toBeGreaterThanOrEqual(5000);
  });

  it("an unreachable API host is retried, then reported as unreachable", async () => {
    // Port 9 (discard) on loopback: nothing listens there on a test machine.
    const base = "http://127.0.0.1:9";
    const unreachable = await makeClient({ token: fake.token, baseUrl: base, timeoutMs: 60_000 });
    const r = await withFakeTime(() => unreachable.rest.issues.listLabelsForRepo({ owner: "o", repo: "r" }));
    expect(describeGitHubError(r.error, base)).toMatch(
      /^GitHub API host unreachable \(http:\/\/127\.0\.0\.1:9\)/,
    );
    expect(r.waitedMs).toBeGreaterThanOrEqual(5000);
  });
});
