/**
 * The verified opens (async `openVerifiedFile` and the grep's `openVerifiedSync`) through the one
 * `checkDescriptor`, with descriptor paths (/proc/self/fd) and without them (the portable checks): a final
 * symlink, a parent swapped for a symlink to outside or to another folder inside the root after the path
 * was resolved, and a FIFO are refused; a file is opened with its status, and its bytes are read.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection, wordedThrow } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { makeRoot, Workspace } from "../workspace.js";
import { type OpenTarget, openVerifiedFile, openVerifiedSync } from "./safe-open.js";

const area = tempArea("mcpfs-openfile-");
afterAll(() => area.cleanup());
let n = 0;

/** Both opens refuse `target` with `message`. */
async function expectRefused(target: OpenTarget, message: RegExp): Promise<void> {
  expect(await wordedRejection(openVerifiedFile(target))).toMatch(message);
  expect(wordedThrow(() => openVerifiedSync(target))).toMatch(message);
}

for (const portableDescriptors of [false, true]) {
  describe(portableDescriptors ? "without descriptor paths" : "with descriptor paths", () => {
    async function setup() {
      const base = area.tree(`t${n++}`, {
        "root/a.txt": "inside\n",
        "root/d/secret.txt": "inside d\n",
        "outside/secret.txt": "OUTSIDE\n",
      });
      const dir = path.join(base, "root");
      const root = await makeRoot(dir, "rw", "directory", { overrides: { portableDescriptors } });
      const ws = new Workspace([root], filesystemPolicy.pathRules({}));
      return { base, dir, ws };
    }

    it("opens a file with its status and reads its bytes", async () => {
      const { dir, ws } = await setup();
      const target = await ws.resolve(path.join(dir, "a.txt"), { intent: "read" });
      const { fh, st } = await openVerifiedFile(target);
      try {
        expect(st.isFile()).toBe(true);
        expect(st.size).toBe(7n);
        const buf = Buffer.alloc(100);
        const { bytesRead } = await fh.read(buf, 0, 100, 0);
        expect(buf.toString("utf8", 0, bytesRead)).toBe("inside\n");
        expect((await fh.stat({ bigint: true })).ino).toBe(st.ino);
      } finally {
        await fh.close();
      }
      const sync = openVerifiedSync(target);
      fs.closeSync(sync.fd);
      expect(sync.st.ino).toBe(st.ino);
    });

    it("refuses a path that became a symlink to outside after it was resolved", async () => {
      const { base, dir, ws } = await setup();
      const target = await ws.resolve(path.join(dir, "a.txt"), { intent: "read" });
      fs.rmSync(path.join(dir, "a.txt"));
      fs.symlinkSync(path.join(base, "outside", "secret.txt"), path.join(dir, "a.txt"));
      await expectRefused(target, /path changed while it was being opened/);
    });

    it("refuses a parent swapped for a symlink to outside after the path was resolved", async () => {
      const { base, dir, ws } = await setup();
      const target = await ws.resolve(path.join(dir, "d", "secret.txt"), { intent: "read" });
      fs.renameSync(path.join(dir, "d"), path.join(dir, "d-real"));
      fs.symlinkSync(path.join(base, "outside"), path.join(dir, "d"));
      await expectRefused(target, /path changed while it was being opened/);
    });

    it("refuses a parent swapped for a symlink to another folder inside the root", async () => {
      const { dir, ws } = await setup();
      fs.mkdirSync(path.join(dir, "kept-out"));
      fs.writeFileSync(path.join(dir, "kept-out", "secret.txt"), "KEPT OUT\n");
      const target = await ws.resolve(path.join(dir, "d", "secret.txt"), { intent: "read" });
      fs.renameSync(path.join(dir, "d"), path.join(dir, "d-real"));
      fs.symlinkSync(path.join(dir, "kept-out"), path.join(dir, "d"));
      await expectRefused(target, /path changed while it was being opened/);
    });

    it.runIf(process.platform !== "win32")("refuses a FIFO at once, without blocking", async () => {
      const { dir, ws } = await setup();
      execFileSync("mkfifo", [path.join(dir, "pipe")]);
      const target = await ws.resolve(path.join(dir, "pipe"), { intent: "read" });
      await expectRefused(target, /Not a regular file/);
    });
  });
}
