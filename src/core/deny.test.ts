/**
 * The `--deny` matcher (core/deny.ts): names at any depth, paths at any depth or from the root, what lies
 * below a denied folder, case folded only where the volume folds it, Unicode compared in NFC. And the start-up
 * memory of ignore rules (core/rule-memory.ts): first look wins, a place created since start had none.
 */
import { describe, expect, it } from "vitest";
import { DENY_PRESETS, DenyRules } from "./deny.js";
import { RuleMemory } from "./rule-memory.js";

const rules = async (...globs: string[]) => {
  const r = await DenyRules.compile(globs);
  if (!r) throw new Error("no rules");
  return r;
};

describe("DenyRules", () => {
  it("matches a name glob at any depth, and everything below a denied folder", async () => {
    const r = await rules("*.pem", ".ssh");
    expect(r.denies("a.pem", false)).toBe(true);
    expect(r.denies("x/y/a.pem", false)).toBe(true);
    expect(r.denies("a.pem.txt", false)).toBe(false);
    expect(r.denies(".ssh/known_hosts", false)).toBe(true);
    expect(r.denies("home/.ssh/id", false)).toBe(true);
    expect(r.denies("ssh/id", false)).toBe(false);
    expect(r.denies("", false)).toBe(false);
  });

  it("matches a path glob at any depth, or from the root with a leading slash", async () => {
    const r = await rules(".aws/credentials", "/config/master.key");
    expect(r.denies(".aws/credentials", false)).toBe(true);
    expect(r.denies("u/.aws/credentials", false)).toBe(true);
    expect(r.denies(".aws/config", false)).toBe(false);
    expect(r.denies("config/master.key", false)).toBe(true);
    expect(r.denies("x/config/master.key", false)).toBe(false);
    expect(r.deniesChild("config", "master.key", false)).toBe(true);
  });

  it("folds case only where the volume does, and compares NFC with NFD", async () => {
    const r = await rules("*.PEM", "cl\u00e9.env");
    expect(r.denies("a.pem", false)).toBe(false);
    expect(r.denies("a.pem", true)).toBe(true);
    expect(r.denies("A.PEM", false)).toBe(true);
    expect(r.denies("d/cle\u0301.env", false)).toBe(true);
    expect(r.denies("d/CLE\u0301.ENV", true)).toBe(true);
    expect((await rules("cle\u0301.env")).denies("cl\u00e9.env", false)).toBe(true);
  });

  it("keeps no rule from blank globs; the preset covers the usual secrets", async () => {
    expect(await DenyRules.compile(["", "  "])).toBeUndefined();
    const preset = await rules(...DENY_PRESETS.secrets!);
    for (const p of [".env", ".env.production", "k/server.pem", ".ssh/id_rsa", "id_ed25519.pub", ".npmrc"])
      expect(preset.denies(p, false), p).toBe(true);
    for (const p of [".aws/credentials", ".docker/config.json", ".config/gcloud/credentials.db", "a.p12"])
      expect(preset.denies(p, false), p).toBe(true);
    for (const p of ["src/env.ts", "README.md", "keys.txt", "docker/config.json"])
      expect(preset.denies(p, false), p).toBe(false);
  });
});

describe("RuleMemory", () => {
  it("keeps what a rules file held on first look, and nothing for a place created since", () => {
    const m = new RuleMemory((p) => p);
    expect(m.startOf("/r/.gitignore", [".env"])).toEqual([".env"]);
    expect(m.startOf("/r/.gitignore", ["# none"])).toEqual([".env"]);
    expect(m.hadRulesIn("/r")).toBe(false);
    m.remember("/r/.gitignore", ["ignored now"]);
    expect(m.hadRulesIn("/r")).toBe(true);
    expect(m.touched).toBe(true);
    m.markNew("/r/new");
    expect(m.startOf("/r/new/sub/.gitignore", ["!.env"])).toBeUndefined();
    expect(m.startOf("/r/old/.gitignore", ["*.key"])).toEqual(["*.key"]);
  });
});
