import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { measureTool, servers, timeOf } from "../lib/tool.mjs";

/**
 * What the repository gate costs a git call (#27): before any git it starts, mcpfs resolves the git and
 * common dirs, reads the configuration with its origins (includes, alternates, remotes) and judges them.
 * Each row runs the workspace `git` tool and, right after each call, the same git command started directly
 * (`alongside`, same load); the overhead is the difference of the medians: the gate plus the MCP round trip.
 */
function repo() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-git-"));
  const git = (...a) => execFileSync("git", a, { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "bench@example.com");
  git("config", "user.name", "bench");
  for (let i = 0; i < 50; i++) {
    fs.writeFileSync(path.join(dir, `f${i % 10}.txt`), `line ${i}\n`.repeat(20));
    git("add", "-A");
    git("commit", "-q", "-m", `commit ${i}`);
  }
  fs.writeFileSync(path.join(dir, "f0.txt"), "changed\n");
  return dir;
}

const CALLS = [
  { label: "status", command: "status", args: [], direct: ["status"] },
  {
    label: "log -5 --oneline",
    command: "log",
    args: ["-5", "--oneline"],
    direct: ["log", "-5", "--oneline"],
  },
  { label: "diff", command: "diff", args: [], direct: ["diff"] },
];

export default {
  id: "git_overhead",
  title: "git through the workspace tool vs git started directly (the repository gate's cost)",
  async run(ctx) {
    const dir = repo();
    try {
      const s = servers(ctx, dir).workspace;
      const rows = [];
      for (const c of CALLS) {
        const direct = () => {
          const t = performance.now();
          execFileSync("git", c.direct, { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
          return performance.now() - t;
        };
        const m = await measureTool(
          s,
          "git",
          { command: c.command, args: c.args },
          { runs: ctx.runs * 4, alongside: direct },
        );
        const ms = timeOf(m);
        rows.push({
          label: `git ${c.label}: workspace tool vs git directly`,
          mcpfs: ms,
          os: m.alongsideMs,
          osLabel: "git",
          rssMcpfs: m.hwm,
          note:
            typeof ms === "number" ? `overhead ${(ms - m.alongsideMs).toFixed(1)} ms per call` : undefined,
        });
      }
      return rows;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
