/**
 * Property: whatever string is built from hostile segments, `Workspace.resolve` either refuses it with a
 * ToolError or yields a location the kernel confirms is inside a root (checked independently: the deepest
 * existing part is a canonical non-symlink path under the root's realpath). Real temp tree, real symlinks.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/core/errors.js";
import { printable } from "../../src/core/paths.js";
import { type Root, Workspace } from "../../src/core/workspace.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { clientMessage } from "../../src/surfaces/wording.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import { hasDotDotSegment, kernelConfined, makeArena, NFD_LINK } from "../helpers/hostile.js";

const RUNS = 10_000;
const area = tempArea("mcpfs-prop-");
const arena = makeArena(area.base);
afterAll(() => area.cleanup());

const SEGMENTS = [
  "..",
  ".",
  "",
  "...",
  "sub",
  "a.txt",
  "b.txt",
  "root",
  "root_evil",
  "outside",
  "dir",
  "secret.txt",
  "secret2.txt",
  "link_out_file",
  "link_out_rel",
  "link_out_dir",
  "dangling_out",
  "dangling_out_dir",
  "dangling_in_then_out",
  "chain1",
  "dchain1",
  "loop1",
  "self",
  "link_in",
  "link_parent",
  "up",
  "link_proc_cwd",
  "link_root_evil",
  "link_home",
  NFD_LINK,
  NFD_LINK.normalize("NFC"),
  "caf\u00e9.txt",
  "cafe\u0301.txt",
  "~",
  "~root",
  "\u0000",
  "a\u0000b",
  "C:",
  "c:\\",
  "x::$DATA",
  "a:$DATA",
  "%2e%2e",
  "..\\..",
  "\u2024\u2024",
  " ",
  "new.txt",
  "x".repeat(300),
];

const hostileString = fc
  .tuple(
    fc.constantFrom(
      "",
      "/",
      "//",
      "./",
      "~/",
      `${arena.root}/`,
      `${arena.root}`,
      `${arena.base}/`,
      `file://${arena.root}/`,
      `file://${arena.base}/`,
      "file:///",
      "\\\\server\\",
    ),
    fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 8 }),
    fc.constantFrom("/", "//", "\\", "/./"),
  )
  .map(([prefix, segs, sep]) => prefix + segs.join(sep));

const rootRw: Root = { path: arena.root, real: arena.root, mode: "rw", kind: "directory" };
const subRo: Root = {
  path: path.join(arena.root, "sub"),
  real: path.join(arena.root, "sub"),
  mode: "ro",
  kind: "directory",
};

function checkOutcome(
  ws: Workspace,
  style: "filesystem" | "workspace",
  value: string,
  intent: "read" | "write",
  got: Awaited<ReturnType<Workspace["resolve"]>> | Error,
): void {
  if (got instanceof Error) {
    // Only deliberate, client-safe errors; they never name a place the client did not.
    expect(got).toBeInstanceOf(ToolError);
    const shown = printable(value);
    // The text a client gets, in the official words (the core's errors are data).
    const rest = clientMessage(got).split(shown).join("").split(shown.slice(0, 1000)).join("");
    expect(rest).not.toContain(arena.base);
    return;
  }
  if (style === "workspace") expect(hasDotDotSegment(value), "'..' accepted").toBe(false);
  expect(ws.roots).toContain(got.root);
  expect(kernelConfined(got.real, got.root.real), `${JSON.stringify(value)} → ${got.real}`).toBe(true);
  if (intent === "write") expect(got.root.mode).toBe("rw");
  // The deepest root decides: a path in the read-only sub-root is never attributed to the outer root.
  if (got.real === subRo.real || got.real.startsWith(`${subRo.real}/`)) expect(got.root.mode).toBe("ro");
}

describe.each(["filesystem", "workspace"] as const)("Workspace.resolve, %s style", (style) => {
  it(`never yields a place outside the roots (${RUNS} runs)`, async () => {
    const ws = new Workspace(
      [rootRw, subRo],
      (style === "workspace" ? workspacePolicy : filesystemPolicy).pathRules({}),
    );
    await fc.assert(
      fc.asyncProperty(
        hostileString,
        fc.constantFrom("read" as const, "write" as const),
        async (value, intent) => {
          const got = await ws
            .resolve(value, { intent, base: style === "workspace" ? rootRw : undefined })
            .catch((err: Error) => err);
          checkOutcome(ws, style, value, intent, got);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
