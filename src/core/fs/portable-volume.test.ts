/**
 * The code paths of volumes unlike Linux's ext4, forced here: descriptor checks without `/proc/self/fd`
 * (macOS, Windows) and no hard links (exFAT, FAT, some network shares). The black-box suites run with the
 * same switches through `vitest.portable.config.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { moveNoReplace } from "../mutate/move-no-replace.js";
import { deleteFile } from "../mutate/remove.js";
import { commitChanges } from "../mutate/transaction.js";
import { makeRoot, Workspace } from "../workspace.js";
import { hardLink, isNoHardLinks, pinDirectory, TEMP_NAME } from "./safe-open.js";

const area = tempArea();
afterAll(() => area.cleanup());
let n = 0;

async function portable(files: Record<string, string> = {}) {
  const dir = area.tree(`p${n++}`, files);
  const root = await makeRoot(dir, "rw", "directory", {
    overrides: { portableDescriptors: true, noHardLinks: true },
  });
  const ws = new Workspace([root], filesystemPolicy.pathRules({}));
  return { dir, root, ws, w: (p: string) => ws.resolve(path.join(dir, p), { intent: "write" }) };
}

const temps = (dir: string) => fs.readdirSync(dir).filter((e) => TEMP_NAME.test(e));

describe("forced portable volume", () => {
  it("the switches take effect: entries are named by path, hard links are not tried", async () => {
    const { dir, root } = await portable({ "a.txt": "a" });
    const pinned = await pinDirectory(dir, root, dir);
    try {
      expect(pinned.at("a.txt")).toBe(path.join(dir, "a.txt"));
    } finally {
      await pinned.close();
    }
    const refused = await hardLink(root, path.join(dir, "a.txt"), path.join(dir, "b.txt")).catch((e) => e);
    expect(isNoHardLinks(refused)).toBe(true);
    expect(fs.existsSync(path.join(dir, "b.txt"))).toBe(false);
  });

  it("creates a new file exclusively without hard links, and never replaces one that appeared meanwhile", async () => {
    const { dir, w } = await portable();
    await commitChanges([
      { kind: "write", target: await w("new.txt"), data: "fresh", base: null, mode: 0o640 },
    ]);
    expect(fs.readFileSync(path.join(dir, "new.txt"), "utf8")).toBe("fresh");
    expect(fs.statSync(path.join(dir, "new.txt")).mode & 0o777).toBe(0o640);
    // Another writer creates the file after everything is staged, just before the commit.
    const race = commitChanges([{ kind: "write", target: await w("race.txt"), data: "mine", base: null }], {
      beforeCommit: () => fs.writeFileSync(path.join(dir, "race.txt"), "theirs"),
    });
    await expect(race).rejects.toThrow();
    expect(fs.readFileSync(path.join(dir, "race.txt"), "utf8")).toBe("theirs");
    expect(temps(dir)).toEqual([]);
  });

  it("moves without replacing and deletes with a copy as the backup", async () => {
    const { dir, ws, w } = await portable({ "a.txt": "A", "b.txt": "B" });
    const entry = (p: string) => ws.resolveEntry(path.join(dir, p), { intent: "write" });
    await moveNoReplace(await entry("a.txt"), await entry("c.txt"));
    expect(fs.readFileSync(path.join(dir, "c.txt"), "utf8")).toBe("A");
    expect(await wordedRejection(moveNoReplace(await entry("c.txt"), await entry("b.txt")))).toMatch(
      /already exists/,
    );
    expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("B");
    await deleteFile(await w("b.txt"));
    expect(fs.readdirSync(dir).sort()).toEqual(["c.txt"]);
  });
});
