/**
 * Subscriptions are bounded: a directory subscription watches that directory only (not its subtree — once
 * 6,003 inotify watches for 3,000 ignored folders), a session's subscriptions are capped with a clear
 * error, and while a client subscribes to many paths an ordinary call is still answered. No clock: each
 * subscription watches one path (the first test counts the watches), so none is slow enough to order against.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { serverPool } from "../helpers/server.js";

const area = tempArea("mcpfs-watch-");
afterAll(() => area.cleanup());
const start = serverPool();

/** The inotify watches a process holds (Linux: /proc/PID/fdinfo of its inotify descriptors). */
function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (!fs.readlinkSync(`/proc/${pid}/fd/${fd}`).includes("inotify")) continue;
      n += fs
        .readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("inotify")).length;
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return n;
}

describe("resource subscriptions are bounded", () => {
  it.runIf(process.platform === "linux")(
    "subscribing to a directory with 3,000 ignored folders watches the directory, not its subtree",
    async () => {
      const dir = area.tree("big", { ".gitignore": "node_modules/\n", "top.txt": "t\n" });
      for (let i = 0; i < 3000; i++)
        fs.mkdirSync(path.join(dir, "node_modules", `pkg${i}`, "lib"), { recursive: true });
      const conn = await start([dir]);
      await conn.client.subscribeResource({ uri: pathToFileURL(dir).href });
      await conn.client.subscribeResource({ uri: pathToFileURL(path.join(dir, "node_modules")).href });
      // Give a recursive watcher time to crawl, as it did.
      await new Promise((r) => setTimeout(r, 1500));
      expect(inotifyWatches(conn.pid!)).toBeLessThanOrEqual(10);
      // A directory subscription still notifies when an entry appears in it.
      const updated = new Promise<string>((resolve) => {
        conn.client.setNotificationHandler(
          ResourceUpdatedNotificationSchema,
          (n: { params: { uri: string } }) => resolve(n.params.uri),
        );
        setTimeout(() => resolve("none"), 5000);
      });
      fs.writeFileSync(path.join(dir, "new.txt"), "n\n");
      expect(await updated).toBe(pathToFileURL(dir).href);
    },
    60_000,
  );

  it("a session's subscriptions are capped with a clear error, and other calls are still answered", async () => {
    const files: Record<string, string> = { "ok.txt": "fine\n" };
    for (let i = 0; i < 140; i++) files[`f${i}.txt`] = `${i}\n`;
    const dir = area.tree("many", files);
    const conn = await start([dir]);
    const results = Array.from({ length: 140 }, (_, i) =>
      conn.client.subscribeResource({ uri: pathToFileURL(path.join(dir, `f${i}.txt`)).href }).then(
        () => "ok",
        (err: Error) => err.message,
      ),
    );
    const probe = await conn.call("read_text_file", { path: path.join(dir, "ok.txt") });
    expect(probe.text).toBe("fine\n");
    const outcomes = await Promise.all(results);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(128);
    const refused = outcomes.filter((o) => o !== "ok");
    expect(refused).toHaveLength(12);
    expect(refused[0]).toContain("Too many resource subscriptions");
    expect(refused[0]).toContain("the limit is 128");
    // Unsubscribing frees room.
    await conn.client.unsubscribeResource({ uri: pathToFileURL(path.join(dir, "f0.txt")).href });
    await expect(
      conn.client.subscribeResource({ uri: pathToFileURL(path.join(dir, "f139.txt")).href }),
    ).resolves.toBeDefined();
  });
});
