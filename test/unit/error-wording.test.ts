import { describe, expect, it } from "vitest";
import { noSuchPathError, ToolError, toClientMessage } from "../../src/core/errors.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";

const notUtf8 = new ToolError("Not a UTF-8 text file: a\\x07.bin", "invalid", {
  kind: "not_utf8",
  path: "a\u0007.bin",
});

describe("typed errors, worded once per surface", () => {
  it("the filesystem surface answers with the default message", () => {
    expect(filesystemPolicy.errorText("edit_file", notUtf8, notUtf8.message)).toBe(notUtf8.message);
  });

  it("the workspace surface words a kind from its parameters (the path made printable)", () => {
    expect(workspacePolicy.errorText("edit_file", notUtf8, notUtf8.message)).toBe(
      "Error executing tool edit_file: File 'a\\x07.bin' contains invalid characters. Ensure it's a valid text file.",
    );
  });

  it("decides by kind, never by the message's text", () => {
    const lookalike = new ToolError("Not a UTF-8 text file: x", "invalid");
    expect(workspacePolicy.errorText("read_file", lookalike, lookalike.message)).toBe(
      "Error executing tool read_file: Not a UTF-8 text file: x",
    );
  });

  it("a missing path is a ToolError worded as a system ENOENT is", () => {
    const e = noSuchPathError("dir/missing.txt");
    expect(e.code).toBe("not_found");
    expect(e.message).toBe(
      toClientMessage(Object.assign(new Error("ENOENT: /abs"), { code: "ENOENT" }), "dir/missing.txt"),
    );
    expect(e.message).toBe("No such file or directory: dir/missing.txt");
  });

  it("system errors keep their wording", () => {
    const sys = (code: string) => Object.assign(new Error(`${code}: /abs/secret`), { code });
    expect(toClientMessage(sys("EACCES"), "p")).toBe("Permission denied: p");
    expect(toClientMessage(sys("EXDEV"), "p")).toBe("Operation failed: p (EXDEV)");
    expect(toClientMessage(sys("constructor"))).toBe("Operation failed (constructor)");
    expect(toClientMessage(Object.assign(new Error("x"), { name: "AbortError" }), "p")).toBe("Cancelled: p");
  });
});
