import fs from "node:fs";
import path from "node:path";
import type { Workspace } from "../workspace.js";
import { parseRepoUrl } from "./repo-url.js";
import { configFilePath, type GitHubEnv, loadGitHubSettings } from "./settings.js";

/** `--github-tools`: list the GitHub tools always, never, or when they can work (`auto`). */
export type GitHubToolsMode = "always" | "auto" | "never";

/**
 * Whether the GitHub tools can work here: a token, and a GitHub repository to talk to (the project's origin
 * remote, a reference project's URL or origin). A model shown tools that can only fail pays for their
 * catalog (about 1,100 tokens) and for the failed calls. Re-checked cheaply on every ask: the remotes are
 * read again only when a git config or the settings file (the one place a token can appear after start)
 * changed, by size and mtime.
 */
export class GitHubPresence {
  private key: string | undefined;
  private answer: Promise<boolean> = Promise.resolve(false);

  constructor(
    private readonly ws: Workspace,
    private readonly mode: GitHubToolsMode,
    private readonly env: GitHubEnv,
  ) {}

  available(): Promise<boolean> {
    if (this.mode !== "auto") return Promise.resolve(this.mode === "always");
    const key = this.stamp();
    if (key !== this.key) {
      this.key = key;
      this.answer = this.look().catch(() => false);
    }
    return this.answer;
  }

  private repoDirs(): string[] {
    return this.ws.roots.filter((r) => r.kind === "project" || r.kind === "reference").map((r) => r.real);
  }

  /**
   * What the answer depends on, as cheap stats: the settings file (where a token can appear; the
   * environment's is fixed at start) and each repository's config. Nothing is read or parsed here: `look`
   * reads the settings when a stamp changed.
   */
  private stamp(): string {
    const stat = (p: string) => {
      try {
        // A missing file (the common case: no settings file) without the cost of an exception.
        const s = fs.statSync(p, { throwIfNoEntry: false });
        return s ? `${s.size}:${s.mtimeMs}` : "-";
      } catch {
        return "-";
      }
    };
    const configs = this.repoDirs().map((d) => stat(path.join(d, ".git", "config")));
    return [stat(configFilePath(this.env)), ...configs].join("|");
  }

  private async look(): Promise<boolean> {
    if (!loadGitHubSettings(this.env).token) return false;
    if (this.ws.urlOnlyReferences.some((r) => parseRepoUrl(r.url) !== undefined)) return true;
    // git's modules (and node:child_process) load only when a token makes the remotes matter: a start, and
    // every server without GitHub tools, never loads them for this (0.7 % of the instructions of a start).
    const [{ openRepository }, { remoteUrl }] = await Promise.all([
      import("../git/repository-gate.js"),
      import("../git/repo.js"),
    ]);
    for (const root of this.ws.roots) {
      if (root.kind === "reference" && root.url && parseRepoUrl(root.url)) return true;
      if (root.kind !== "project" && root.kind !== "reference") continue;
      const repo = await openRepository(root).catch(() => undefined);
      const url = repo && (await remoteUrl(repo));
      if (url && parseRepoUrl(url)) return true;
    }
    return false;
  }
}
