/**
 * One gate for every entry point: on the workspace surface, resources/read, resources/list,
 * completion/complete and resource subscriptions refuse exactly what the tools refuse (`.git/`, gitignored
 * files, of the project and of a reference project), over both protocol eras.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { git, initRepo } from "../helpers/git-repo.js";
import { connectHttp, type HttpServerProcess, startHttpServer } from "../helpers/http.js";
import { type Connection, startServer } from "../helpers/server.js";

const TOKEN = "ghp_SECRETTOKEN0123456789";
const area = tempArea("mcpfs-entry-gates-");
const project = area.tree("project", {
  ".gitignore": ".env\nsecret/\n*.key\nlogs/\n",
  ".env": `GITHUB_TOKEN=${TOKEN}\n`,
  "secret/db.txt": `password ${TOKEN}\n`,
  "id.key": `${TOKEN}\n`,
  "ok.txt": "ok\n",
  "src/main.ts": "export {};\n",
});
const reference = area.tree("reference", {
  ".gitignore": ".env\n",
  ".env": `REF_TOKEN=${TOKEN}\n`,
  "lib.txt": "lib\n",
});
for (const dir of [project, reference]) {
  initRepo(dir);
  git(dir, "remote", "add", "origin", `https://x-access-token:${TOKEN}@github.com/o/r.git`);
}
// A temp file of an interrupted write: listings and completions hide it.
fs.writeFileSync(path.join(project, ".mcpfs-0123456789abcdef.tmp"), "partial\n");
afterAll(() => area.cleanup());

const uri = (p: string) => `file://${p}`;
const gated = [
  path.join(project, ".env"),
  path.join(project, ".git/config"),
  path.join(project, ".git"),
  path.join(project, "secret/db.txt"),
  path.join(project, "secret"),
  path.join(project, "id.key"),
  path.join(reference, ".env"),
  path.join(reference, ".git/config"),
];
const args = ["--project-dir", project, "--reference-project", `ref=${reference}`];

async function refusal(p: Promise<unknown>): Promise<string> {
  return p.then(
    (r) => `NOT REFUSED: ${JSON.stringify(r)}`,
    (e: Error) => String(e.message),
  );
}

/** The tools' own verdict, for comparison: read_file refuses each gated file of the project. */
async function toolsRefuse(conn: Connection) {
  for (const f of [".env", ".git/config", "secret/db.txt", "id.key"]) {
    const r = await conn.call("read_file", { file_path: f });
    expect(r.isError, f).toBe(true);
    expect(r.text).toContain("is excluded by .gitignore");
  }
  // list_directory never lists the inside of .git/ or of an ignored folder either (refused with the reason).
  for (const d of [".git", ".git/hooks", "secret"]) {
    const r = await conn.call("list_directory", { path: d });
    expect(r.isError, d).toBe(true);
    expect(r.text, d).toContain(d === "secret" ? "is excluded by .gitignore" : "is inside .git/");
    expect(r.text, d).not.toContain("db.txt");
  }
}

describe.each(["v1", "v2"] as const)("workspace surface over stdio, %s client", (kind) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(args, { client: kind });
  });
  afterAll(() => conn?.close());

  it("resources/read and resources/list refuse what read_file refuses, and reveal nothing of it", async () => {
    await toolsRefuse(conn);
    for (const p of gated) {
      const msg = await refusal(conn.client.readResource({ uri: uri(p) }));
      expect(msg, p).not.toContain("NOT REFUSED");
      expect(msg).not.toContain(TOKEN);
    }
    const ok = await conn.client.readResource({ uri: uri(path.join(project, "ok.txt")) });
    expect(ok.contents[0].text).toBe("ok\n");
    const listing = (await conn.client.readResource({ uri: uri(project) })).contents[0].text as string;
    expect(listing.split("\n").sort()).toEqual(["[DIR] src", "[FILE] .gitignore", "[FILE] ok.txt"]);
    const refListing = (await conn.client.readResource({ uri: uri(reference) })).contents[0].text as string;
    expect(refListing.split("\n").sort()).toEqual(["[FILE] .gitignore", "[FILE] lib.txt"]);
    // resources/list offers the roots only, never an entry below them.
    const { resources } = await conn.client.listResources();
    expect(resources.map((r: { uri: string }) => r.uri).sort()).toEqual(
      [uri(project), uri(reference)].sort(),
    );
  });

  it("completion/complete never offers a gated entry nor the inside of .git", async () => {
    const complete = async (value: string): Promise<string[]> =>
      (
        await conn.client.complete({
          ref: { type: "ref/resource", uri: "file://{+path}" },
          argument: { name: "path", value },
        })
      ).completion.values;
    expect(await complete(`${project}/`)).toEqual([
      `${project}/.gitignore`,
      `${project}/ok.txt`,
      `${project}/src/`,
    ]);
    for (const value of [
      `${project}/.git/`,
      `${project}/.git/hooks/`,
      `${project}/.e`,
      `${project}/secret/`,
      `${project}/.mcpfs`,
      `${reference}/.git/`,
      `${reference}/.e`,
    ])
      expect(await complete(value), value).toEqual([]);
  });

  if (kind === "v1")
    it("resources/subscribe refuses a gated file and accepts a plain one", async () => {
      for (const p of gated) {
        const msg = await refusal(conn.client.subscribeResource({ uri: uri(p) }));
        expect(msg, p).not.toContain("NOT REFUSED");
      }
      await conn.client.subscribeResource({ uri: uri(path.join(project, "ok.txt")) });
      await conn.client.unsubscribeResource({ uri: uri(path.join(project, "ok.txt")) });
    });
});

describe("workspace surface over HTTP, 2026 era: subscriptions/listen", () => {
  let srv: HttpServerProcess;
  beforeAll(async () => {
    srv = await startHttpServer(args);
  });
  afterAll(() => srv?.stop());

  it("never notifies a change of a gated file; a plain file's change is notified", async () => {
    const c = await connectHttp(srv.url, { client: "v2" });
    try {
      const seen: string[] = [];
      let plainSeen: () => void = () => {};
      const plain = new Promise<void>((resolve) => {
        plainSeen = resolve;
      });
      const okFile = path.join(project, "ok.txt");
      c.client.setNotificationHandler("notifications/resources/updated", (n: { params: { uri: string } }) => {
        seen.push(n.params.uri);
        if (n.params.uri === uri(okFile)) plainSeen();
      });
      const envFile = path.join(project, ".env");
      const sub = await c.client.listen({ resourceSubscriptions: [uri(envFile), uri(okFile)] });
      await new Promise((r) => setTimeout(r, 400));
      fs.writeFileSync(envFile, `GITHUB_TOKEN=${TOKEN}\nMORE=1\n`);
      await new Promise((r) => setTimeout(r, 400));
      fs.writeFileSync(okFile, "ok changed\n");
      await plain;
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).not.toContain(uri(envFile));
      await sub.close();
    } finally {
      fs.writeFileSync(path.join(project, "ok.txt"), "ok\n");
      await c.close();
    }
  });
});
