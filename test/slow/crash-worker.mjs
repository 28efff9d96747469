// Crash-test worker: the core from src/, bundled by crash-worker-build.ts into a temp folder (no
// node_modules beside it), changes files in a loop until it is killed.
// argv: <work dir> <operation: write|edit|edit_files|patch|edit_files5|patch5> [state dir]
// The *5 operations change five files at once through the change journal kept in <state dir>, each inside a
// recorded change as the server's tool calls are (the crash intent names the undo journal's pre-images;
// CRASH_NO_UNDO=1: no change is recorded, the intent keeps pre-images of its own); `partial5` does one such
// change and kills itself after its third file (CRASH_COPY=1: pre-images copied, as across devices).
import path from "node:path";
import { editKeepingEndings } from "../../src/core/edit/edit.js";
import { editFile } from "../../src/core/edit/edit-file.js";
import { editFiles } from "../../src/core/edit/multi-edit.js";
import { planPatch } from "../../src/core/edit/patch.js";
import { Journal } from "../../src/core/journal/journal.js";
import { createLogger } from "../../src/core/log.js";
import { commitChanges } from "../../src/core/mutate/transaction.js";
import { writeText } from "../../src/core/mutate/write.js";
import { makeRoot, Workspace } from "../../src/core/workspace.js";

const [dir, op, stateDir] = process.argv.slice(2);
const { body } = await import(path.join(dir, "..", "body.mjs"));

const ws = new Workspace([await makeRoot(dir, "rw", "directory")], "filesystem");
/** Resolves for writing; inside `recorded`, through the call's view, as the server's runner does. */
let view = ws;
const w = (p) => view.resolve(p, { intent: "write" });
const copyPreImages = process.env.CRASH_COPY === "1";
const journal = stateDir
  ? {
      journal: new Journal({
        stateDir,
        log: createLogger({ level: "fatal", console: false }),
        copyPreImages,
      }),
      ws,
    }
  : undefined;
/**
 * Runs `fn` as one recorded change: the paths it resolves carry the call's recorder (the server's runner
 * does this for every mutating call).
 */
const recorded = async (tool, fn) => {
  const rec =
    journal && process.env.CRASH_NO_UNDO !== "1" ? journal.journal.changes.recorder(tool) : undefined;
  view = ws.forCall(rec);
  try {
    await fn();
  } finally {
    view = ws;
  }
  await rec?.finish();
};
const names = /5/.test(op) ? ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"] : ["a.txt", "b.txt"];
const version = (text) => Number(/^v(\d+)\r?\n/.exec(text)?.[1]);
const fs = await import("node:fs");
const current = (name) => version(fs.readFileSync(path.join(dir, name), "utf8"));

const patchOf = () => {
  let patch = "";
  for (const name of names) {
    const n = current(name);
    patch += `--- a/${name}\n+++ b/${name}\n@@ -1,2 +1,2 @@\n-v${n}\n+v${n + 1}\n ${body.split("\n")[0]}\n`;
  }
  return patch;
};

if (op === "partial5" || op === "partial5new") {
  // partial5new: the patch also creates new/dir/f.txt (and its two directories) first.
  const create = "--- /dev/null\n+++ b/new/dir/f.txt\n@@ -0,0 +1 @@\n+created\n";
  const text = op === "partial5new" ? create + patchOf() : patchOf();
  await recorded("apply_patch", async () => {
    const plan = await planPatch(text, { resolve: (p) => w(p) });
    await commitChanges(plan.changes, {
      journal,
      beforeCommit: (i) => {
        if (i === 3) process.kill(process.pid, "SIGKILL");
      },
    });
  });
}
process.stdout.write("ready\n");
// The first change's duration is announced, so a test can spread its kills over whole changes at any load.
let started = performance.now();
for (let first = true; ; first = false) {
  if (!first && started > 0) {
    process.stdout.write(`done ${Math.ceil(performance.now() - started)}\n`);
    started = 0;
  }
  if (op === "write") {
    const n = current("a.txt");
    await writeText(await w("a.txt"), `v${n + 1}\n${body}`);
  } else if (op === "edit") {
    const n = current("a.txt");
    await editFile(await w("a.txt"), [{ oldText: `v${n}\n`, newText: `v${n + 1}\n` }]);
  } else if (op.startsWith("edit_files")) {
    await recorded("edit_files", async () => {
      const files = [];
      for (const name of names)
        files.push({
          target: await w(name),
          edits: [{ oldText: `v${current(name)}\n`, newText: `v${current(name) + 1}\n` }],
        });
      await editFiles(files, (text, edits) => editKeepingEndings(text, edits).text, { journal });
    });
  } else {
    await recorded("apply_patch", async () => {
      const plan = await planPatch(patchOf(), { resolve: (p) => w(p) });
      await commitChanges(plan.changes, { journal });
    });
  }
}
