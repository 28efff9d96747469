import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/index.js";
import { loadGitHubSettings } from "../core/github/settings.js";
import { applyEnvironment } from "./environment.js";

describe("applyEnvironment: the CLI reads the environment once, into the Config", () => {
  it("forces a grep engine only for the values it knows", () => {
    for (const [value, engine] of [
      ["js", "js"],
      ["rg", "rg"],
      ["ripgrep", "auto"],
      [undefined, "auto"],
    ] as const) {
      const config = defaultConfig();
      applyEnvironment(config, value === undefined ? {} : { MCPFS_GREP_ENGINE: value });
      expect(config.grepEngine, String(value)).toBe(engine);
    }
  });

  it("captures the GitHub variables and nothing else, frozen at start-up", () => {
    const env: NodeJS.ProcessEnv = {
      GITHUB_TOKEN: "t0ken",
      GITHUB_API_URL: "https://ghe.example.com/api/v3/",
      MCPFS_GITHUB_TIMEOUT_MS: "2500",
      HOME: "/nowhere-home",
      AWS_SECRET_ACCESS_KEY: "not for GitHub",
    };
    const config = defaultConfig();
    applyEnvironment(config, env);
    expect(config.githubEnv).toEqual({
      GITHUB_TOKEN: "t0ken",
      GITHUB_API_URL: "https://ghe.example.com/api/v3/",
      MCPFS_GITHUB_TIMEOUT_MS: "2500",
      HOME: "/nowhere-home",
    });
    expect(Object.isFrozen(config.githubEnv)).toBe(true);
    // A later change to the process's environment does not reach the settings the tools use.
    env.GITHUB_TOKEN = "changed";
    const s = loadGitHubSettings(config.githubEnv);
    expect(s.token).toBe("t0ken");
    expect(s.apiUrl).toBe("https://ghe.example.com/api/v3");
    expect(s.timeoutMs).toBe(2500);
  });

  it("sets the volume test switches only for 1", () => {
    const config = defaultConfig();
    applyEnvironment(config, {
      MCPFS_FORCE_PORTABLE_FD: "1",
      MCPFS_FORCE_CASE_FOLD: "0",
      MCPFS_FORCE_NO_HARDLINKS: "1",
    });
    expect(config.volumeOverrides).toEqual({ portableDescriptors: true, noHardLinks: true });
  });
});
