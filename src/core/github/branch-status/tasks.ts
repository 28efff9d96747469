import fs from "node:fs/promises";
import { lfPieces } from "../../text/lines.js";
import { readTextFile } from "../../text/read-file.js";
import type { Root, Workspace } from "../../workspace.js";

export type TaskStatus = "N_A" | "COMPLETE" | "INCOMPLETE" | "ERROR";

export interface TaskReport {
  status: TaskStatus;
  reason: string;
  /** Blocks merging (a broken or unfinished tracker). */
  blocking: boolean;
  /** The recommendation for an ERROR, when it is not `Fix task tracker: <reason>`. */
  fix?: string;
}

/** Reads `pr_info/TASK_TRACKER.md` of the project: counts `- [ ]` / `- [x]` lines of its `## Tasks` section. */
export async function readTaskTracker(ws: Workspace, project: Root): Promise<TaskReport> {
  try {
    const info = await ws.resolve("pr_info", { intent: "read", base: project });
    if (!info.exists || !(await fs.stat(info.real)).isDirectory())
      return { status: "N_A", reason: "No pr_info folder found", blocking: false };
    const steps = await ws.resolve("pr_info/steps", { intent: "read", base: project });
    let stepFiles: string[] = [];
    if (steps.exists) {
      stepFiles = (await fs.readdir(steps.real, { withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => e.name);
    }
    if (stepFiles.length === 0)
      return { status: "N_A", reason: "No implementation plan found", blocking: false };
    const tracker = await ws.resolve("pr_info/TASK_TRACKER.md", { intent: "read", base: project });
    if (!tracker.exists)
      return {
        status: "ERROR",
        reason: "Create task tracker — implementation plan exists but no TASK_TRACKER.md",
        blocking: true,
      };
    const { text } = await readTextFile(tracker, { budget: 4 * 1024 * 1024 });
    const lines = lfPieces(text.replace(/\r\n?/g, "\n"));
    const start = lines.findIndex((l) => /^##\s+Tasks\s*$/i.test(l));
    if (start < 0) return { status: "ERROR", reason: "TASK_TRACKER.md has no Tasks section", blocking: true };
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((l) => /^##\s/.test(l));
    const section = end < 0 ? rest : rest.slice(0, end);
    let total = 0;
    let done = 0;
    for (const l of section) {
      const m = /^\s*[-*]\s+\[([ xX])\]/.exec(l);
      if (!m) continue;
      total++;
      if (m[1] !== " ") done++;
    }
    if (total === 0) return { status: "ERROR", reason: "Task tracker is empty", blocking: true };
    if (done === total) return { status: "COMPLETE", reason: `All ${total} tasks complete`, blocking: false };
    return { status: "INCOMPLETE", reason: `${done} of ${total} tasks complete`, blocking: true };
  } catch (err) {
    const reason = `Fix task tracker error: ${(err as Error).message}`;
    return { status: "ERROR", reason, blocking: true, fix: reason };
  }
}
