import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stateDir } from "./state-dir.js";

describe("the user's state directory (journals)", () => {
  const home = os.homedir();
  it("MCPFS_STATE_DIR wins everywhere", () => {
    for (const p of ["linux", "darwin", "win32"] as const)
      expect(stateDir({ MCPFS_STATE_DIR: "rel/state" }, p)).toBe(path.resolve("rel/state"));
  });
  it("Linux: $XDG_STATE_HOME/mcpfs (absolute only), else ~/.local/state/mcpfs", () => {
    expect(stateDir({ XDG_STATE_HOME: "/x/state" }, "linux")).toBe(path.join("/x/state", "mcpfs"));
    expect(stateDir({ XDG_STATE_HOME: "relative" }, "linux")).toBe(
      path.join(home, ".local", "state", "mcpfs"),
    );
    expect(stateDir({}, "linux")).toBe(path.join(home, ".local", "state", "mcpfs"));
  });
  it("macOS: ~/Library/Application Support/mcpfs; Windows: %LOCALAPPDATA%\\mcpfs", () => {
    expect(stateDir({}, "darwin")).toBe(path.join(home, "Library", "Application Support", "mcpfs"));
    expect(stateDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toBe(
      path.join("C:\\Users\\u\\AppData\\Local", "mcpfs"),
    );
  });
});
