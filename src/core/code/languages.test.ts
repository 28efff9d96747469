import { describe, expect, it } from "vitest";
import { languageOf } from "./languages.js";

describe("languageOf", () => {
  it("reads a file by its extension, whatever its first line", () => {
    expect(languageOf("a/b.TS")).toBe("typescript");
    expect(languageOf("x.inl")).toBe("cpp");
    expect(languageOf("tasks.rake")).toBe("ruby");
    expect(languageOf("notes.txt", "#!/usr/bin/env python3\n")).toBeUndefined();
  });

  it("reads a script without an extension by the interpreter its #! line names", () => {
    expect(languageOf("bin/tool", "#!/usr/bin/env python3\nimport sys\n")).toBe("python");
    expect(languageOf("bin/tool", "#!/usr/bin/env -S node --no-warnings\n")).toBe("javascript");
    expect(languageOf("bin/tool", "#!/usr/local/bin/ruby2.7 -w\r\nputs 1\n")).toBe("ruby");
    expect(languageOf("bin/tool", "#!/usr/bin/php\n")).toBe("php");
    expect(languageOf("bin/tool", "#!/bin/sh\necho hi\n")).toBeUndefined();
    expect(languageOf("bin/tool", "print(1)\n")).toBeUndefined();
    expect(languageOf("bin/tool")).toBeUndefined();
  });
});
