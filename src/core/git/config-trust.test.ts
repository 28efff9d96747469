import { describe, expect, it } from "vitest";
import { type ConfigEntry, guardFromConfig, parseConfigList } from "./config-trust.js";

const entry = (scope: string, key: string, value: string | null = "x"): ConfigEntry => ({
  scope,
  key,
  value,
});

/** Whether the guard keeps git from acting on `key` when the repository's own config sets it. */
const namesProgram = (key: string) => guardFromConfig([entry("local", key)]).neutralised.includes(key);

describe("which keys can name a program (the guard neutralises them when the repository sets them)", () => {
  it("covers the known vectors and keys of the same kind git may add later", () => {
    for (const key of [
      "filter.lfs.clean",
      "filter.x.process",
      "filter.x.future",
      "diff.x.textconv",
      "diff.x.command",
      "diff.external",
      "merge.x.driver",
      "gpg.program",
      "gpg.ssh.program",
      "gpg.ssh.defaultkeycommand",
      "credential.helper",
      "credential.https://example.com.helper",
      "core.sshcommand",
      "core.gitproxy",
      "core.alternaterefscommand",
      "core.fsmonitor",
      "core.hookspath",
      "core.pager",
      "core.askpass",
      "core.editor",
      "pager.log",
      "pretty.sig",
      "format.pretty",
      "remote.origin.uploadpack",
      "remote.origin.receivepack",
      "remote.origin.vcs",
      "remote.origin.proxy",
      "uploadpack.packobjectshook",
      "http.cookiefile",
      "hook.lint.command",
      "submodule.sm.update",
      "alias.st",
      "someday.new.command",
    ])
      expect(namesProgram(key), key).toBe(true);
  });

  it("leaves data keys alone", () => {
    for (const key of [
      "core.repositoryformatversion",
      "core.bare",
      "extensions.objectformat",
      "remote.origin.url",
      "remote.origin.fetch",
      "branch.main.remote",
      "user.name",
      "diff.context",
      "diff.renames",
      "include.path",
      "submodule.fetchjobs",
    ])
      expect(namesProgram(key), key).toBe(false);
  });
});

describe("guardFromConfig", () => {
  it("parses git's -z listing, bare keys included", () => {
    expect(parseConfigList("global\0filter.lfs.clean\ngit-lfs clean -- %f\0local\0core.flag\0")).toEqual([
      entry("global", "filter.lfs.clean", "git-lfs clean -- %f"),
      entry("local", "core.flag", null),
    ]);
  });

  it("overrules repository keys with the user's value, or an inert one", () => {
    const g = guardFromConfig([
      entry("global", "filter.lfs.clean", "git-lfs clean"),
      entry("local", "filter.lfs.clean", "evil"),
      entry("local", "filter.x.smudge", "evil"),
      entry("worktree", "core.sshcommand", "evil"),
      entry("local", "remote.origin.url", "/somewhere"),
    ]);
    expect(g.refusal).toBeUndefined();
    expect(g.overrides).toEqual([
      ["filter.lfs.clean", ""],
      ["filter.x.smudge", ""],
      ["core.sshcommand", "ssh"],
      ["filter.lfs.clean", "git-lfs clean"],
    ]);
  });

  it("rebuilds the user's credential helpers after clearing the repository's", () => {
    const g = guardFromConfig([
      entry("system", "credential.helper", "store"),
      entry("global", "credential.https://a.example.helper", "a-helper"),
      entry("local", "credential.https://b.example.helper", "!evil"),
    ]);
    expect(g.overrides).toEqual([
      ["credential.https://b.example.helper", ""],
      ["credential.helper", "store"],
      ["credential.https://a.example.helper", "a-helper"],
    ]);
  });

  it("refuses on first-wins keys and on keys -c cannot name; core.gitProxy is stopped by the environment", () => {
    expect(guardFromConfig([entry("local", "remote.o.uploadpack", "evil")]).refusal).toEqual({
      reason: "git_config_first_wins",
      actual: "remote.o.uploadpack",
    });
    expect(guardFromConfig([entry("local", "filter.a=b.clean", "evil")]).refusal).toEqual({
      reason: "git_config_unsayable",
      actual: "filter.a=b.clean",
    });
    const g = guardFromConfig([
      entry("local", "core.gitproxy", "evil"),
      entry("global", "protocol.hg.allow", "always"),
    ]);
    expect(g.env).toEqual({ GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh:hg", GIT_PROXY_COMMAND: "" });
  });
});
