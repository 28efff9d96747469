/**
 * Every cut reply says what it shows and how to go on: workspace search_files (content and file modes)
 * bounds matched_files and names the next page (offset, max_results) and how to narrow (glob), with
 * counts that match what the reply really holds, whatever the reply budget cut.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-cut-");
const FILES = 120;
const project = area.tree("project", {
  ".gitignore": "node_modules/\nbuild/\n",
  "README.md": "# app\n",
  "build/out.py": "needle()\n",
  "node_modules/dep/index.js": "needle\n",
  ...Object.fromEntries(
    Array.from({ length: FILES }, (_, i) => [
      `src/pkg${String(i).padStart(3, "0")}/mod.py`,
      `import os\n\ndef needle_${i}():\n    return needle(${i})  # needle\n`,
    ]),
  ),
});
execFileSync("git", ["init", "-q"], { cwd: project });
afterAll(() => area.cleanup());

type Detail = { file: string; line: number };

describe("workspace search_files, cut replies", () => {
  let conn: Connection;
  let tight: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
    tight = await startServer(["--project-dir", project, "--console-only", "--max-output-bytes", "6000"]);
  });
  afterAll(async () => {
    await conn.close();
    await tight.close();
  });

  it("content search: matched_files is bounded, and the reply names the next page and how to narrow", async () => {
    const r = await conn.call("search_files", { pattern: "needle" });
    const s = r.structured!;
    expect(s.total_matches).toBe(FILES * 2);
    expect(s.truncated).toBe(true);
    expect((s.details as Detail[]).length).toBe(50);
    expect((s.matched_files as unknown[]).length).toBeLessThan(FILES);
    expect(s.more).toBe(
      `matches 1-50 of ${FILES * 2} shown; matched_files lists ${(s.matched_files as unknown[]).length} of ${FILES} files. ` +
        'Next page: offset=50 (or a larger max_results). Or narrow with glob, e.g. "src/**/*.py".',
    );
    const next = await conn.call("search_files", { pattern: "needle", offset: 50 });
    const page2 = next.structured!.details as Detail[];
    // The second page starts at the 51st match: file 25 (two matches per file), its first matching line.
    expect(page2[0]).toMatchObject({ file: "src/pkg025/mod.py", line: 3 });
    expect(next.structured!.more).toContain("matches 51-100 of");
  });

  it("the counts in the note are those of the reply the budget cut", async () => {
    const r = await tight.call("search_files", { pattern: "needle", max_results: 200 });
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(6000);
    const s = r.structured!;
    const shown = (s.details as Detail[]).length;
    const listed = ((s.matched_files as unknown[]) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(s.more).toContain(
      `matches 1-${shown} of ${FILES * 2} shown; matched_files lists ${listed} of ${FILES} files`,
    );
    expect(s.more).toContain(`offset=${shown}`);
  });

  it("file search: a cut list names the next page and how to narrow", async () => {
    const r = await conn.call("search_files", { glob: "*.py", max_results: 10 });
    expect(r.structured).toMatchObject({ total_files: FILES, truncated: true });
    expect(r.structured!.more).toBe(
      `files 1-10 of ${FILES} shown. Next page: offset=10 (or a larger max_results). Or narrow with glob, e.g. "src/**/*.py".`,
    );
    const next = await conn.call("search_files", { glob: "*.py", max_results: 10, offset: 10 });
    expect((next.structured!.files as string[])[0]).toBe("src/pkg010/mod.py");
    const last = await conn.call("search_files", { glob: "*.py", offset: FILES - 5 });
    expect(last.structured).toMatchObject({ truncated: false });
    expect(last.structured!.more).toBeUndefined();
  });
});
