/**
 * Runs the same cases against mcpfs and the official server. `parity` cases must pass on both; `fix` cases
 * (bugs mcpfs fixes) must pass on mcpfs and FAIL on the official server, so each fix is shown, not claimed.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../../helpers/fixtures.js";
import { type Connection, OFFICIAL_BIN, startServer } from "../../helpers/server.js";

export type Kind = "mcpfs" | "official";

export interface CaseCtx {
  conn: Connection;
  kind: Kind;
  /** A fresh directory for this case, inside the allowed root (real path). */
  dir: string;
  /** The allowed root. */
  root: string;
  /** A directory outside every allowed root (for leak tests). */
  outside: string;
  /** An extra allowed root on another device when one exists (else another dir on the same one). */
  other: string;
}

export interface Case {
  name: string;
  /** Files to create in the case directory before it runs (`"sub/": null` makes a directory). */
  files?: Record<string, string | Buffer | null>;
  run(ctx: CaseCtx): Promise<void>;
}

const SHM = "/dev/shm";

function otherDevice(base: string): string {
  try {
    if (fs.statSync(SHM).dev !== fs.statSync(base).dev) {
      return fs.realpathSync(fs.mkdtempSync(path.join(SHM, "mcpfs-other-")));
    }
  } catch {
    // No tmpfs here: fall back to the same device.
  }
  return fs.realpathSync(fs.mkdtempSync(path.join(base, "other-")));
}

/** Registers the cases for both servers; prints a one-line tally when the file is done. */
export function runCases(label: string, mode: "parity" | "fix", cases: Case[]): void {
  const area = tempArea(`mcpfs-${mode}-`);
  const tally: Record<Kind, number> = { mcpfs: 0, official: 0 };
  const bothOk = new Map<string, number>();
  const others: string[] = [];
  afterAll(() => {
    const both = [...bothOk.values()].filter((n) => n === 2).length;
    const summary =
      mode === "parity"
        ? `${label}: ${both}/${cases.length} parity cases pass on BOTH servers ` +
          `(mcpfs ${tally.mcpfs}/${cases.length}, official ${tally.official}/${cases.length})`
        : `${label}: mcpfs passes ${tally.mcpfs}/${cases.length} fix cases; the official server fails ` +
          `${cases.length - tally.official}/${cases.length} of them`;
    process.stdout.write(`\n[parity] ${summary}\n`);
    area.cleanup();
    for (const o of others) fs.rmSync(o, { recursive: true, force: true });
  });

  describe.each([
    ["mcpfs", undefined],
    ["official", OFFICIAL_BIN],
  ] as const)(`${label} — %s`, (kind, bin) => {
    let conn: Connection;
    let root: string;
    let other: string;
    const outside = area.tree(`${kind}-outside`, { "secret.txt": "s".repeat(12345) });
    beforeAll(async () => {
      root = area.tree(`${kind}-root`);
      other = otherDevice(area.base);
      others.push(other);
      conn = await startServer(bin ? [root, other] : [root, other], bin ? { bin } : {});
    });
    afterAll(async () => {
      await conn?.close();
    });
    cases.forEach((c, i) => {
      it(c.name, async () => {
        const dir = area.tree(`${kind}-root/case${i}`, c.files ?? {});
        const ctx: CaseCtx = { conn, kind, dir, root, outside, other };
        let ok = false;
        let failure: unknown;
        try {
          await c.run(ctx);
          ok = true;
        } catch (err) {
          failure = err;
        }
        if (ok) {
          tally[kind]++;
          bothOk.set(c.name, (bothOk.get(c.name) ?? 0) + 1);
        }
        if (mode === "parity" || kind === "mcpfs") {
          if (!ok) throw failure;
        } else {
          // The official server must fail this case: that is the bug mcpfs fixes.
          expect(ok, "the official server unexpectedly passes this fix case").toBe(false);
        }
      });
    });
  });
}
