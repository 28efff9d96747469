import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { onAbort } from "./concurrency.js";

describe("onAbort", () => {
  it("gives a signal one listener however many wait on it, and runs the waits still there", () => {
    const ac = new AbortController();
    const ran: number[] = [];
    const removals = Array.from({ length: 40 }, (_, i) => onAbort(ac.signal, () => ran.push(i)));
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    for (const remove of removals.slice(0, 30)) remove();
    ac.abort();
    expect(ran).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
  });

  it("tells a wait on a signal already aborted at once, unless removed first", async () => {
    const ac = new AbortController();
    ac.abort();
    const ran: string[] = [];
    onAbort(ac.signal, () => ran.push("kept"));
    onAbort(ac.signal, () => ran.push("removed"))();
    await Promise.resolve();
    expect(ran).toEqual(["kept"]);
  });
});
