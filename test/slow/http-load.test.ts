/**
 * Bounded load on loopback (the bench case's own driver): 20 concurrent 2025-era sessions × 200 mixed
 * calls, each session with its own roots; zero errors and zero cross-session leaks. Speed is reported by
 * `npm run bench` (case http_load), not asserted here.
 */
import { describe, expect, it } from "vitest";
import { httpLoad } from "../../bench/cases/10-http-load.mjs";

describe("HTTP under load", () => {
  it("20 sessions × 200 mixed calls: no errors, no cross-session leaks", async () => {
    const r = await httpLoad({ sessions: 20, calls: 200 });
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ calls: 4000, errors: 0, leaks: 0 });
  }, 180_000);
});
