/**
 * Structured config edits on a corpus of real files (this repository's package.json, a commented
 * tsconfig.json, a GitHub workflow, a docker-compose.yml with anchors and merge keys, a pyproject.toml):
 * set, delete and merge change only the targeted value — the rest of the file byte-identical, the result
 * parsing to the expected value — and what cannot be done in place is refused.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "@decimalturn/toml-patch";
import { parse as parseJsonc } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ROOT } from "../../../test/helpers/server.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import { clientMessage } from "../../surfaces/wording.js";
import { type ConfigFormat, editConfigText, queryConfig } from "./config-edit.js";
import type { StructuredEdit } from "./path-expr.js";

const fixture = (rel: string) => fs.readFileSync(path.join(ROOT, "test/fixtures/config", rel), "utf8");
const PACKAGE = fs.readFileSync(path.join(ROOT, "package.json"), "utf8");
const TSCONFIG = fixture("tsconfig.json");
const CI = fixture(".github/workflows/ci.yml");
const COMPOSE = fixture("docker-compose.yml");
const PYPROJECT = fixture("pyproject.toml");

const parsers: Record<ConfigFormat, (t: string) => unknown> = {
  json: (t) => parseJsonc(t, [], { allowTrailingComma: true }),
  yaml: (t) => parseYaml(t),
  toml: (t) => JSON.parse(JSON.stringify(parseToml(t))),
};

interface Case {
  name: string;
  format: ConfigFormat;
  text: string;
  edits: StructuredEdit[];
  /** The whole expected file: the original with only the targeted text changed. */
  expected: string;
}

const CASES: Case[] = [
  {
    name: "package.json: set a script",
    format: "json",
    text: PACKAGE,
    edits: [{ set: "scripts.start", value: "node dist/bundle/mcpfs.js --verbose" }],
    expected: PACKAGE.replace(
      '"start": "node dist/bundle/mcpfs.js"',
      '"start": "node dist/bundle/mcpfs.js --verbose"',
    ),
  },
  {
    name: "package.json: add a keyword, delete an engine",
    format: "json",
    text: PACKAGE,
    edits: [{ set: "keywords[10]", value: "notebooks" }, { delete: "engines.node" }],
    expected: PACKAGE.replace('"llm"\n  ]', '"llm",\n    "notebooks"\n  ]').replace(
      /"engines": \{\n\s+"node": ">=20"\n\s+\}/,
      '"engines": {}',
    ),
  },
  {
    name: "tsconfig.json: comments kept on set, add and delete",
    format: "json",
    text: TSCONFIG,
    edits: [
      { set: "compilerOptions.target", value: "ES2023" },
      { merge: "compilerOptions", value: { noEmit: true } },
      { delete: "exclude" },
    ],
    expected: TSCONFIG.replace('"ES2022"', '"ES2023"')
      .replace('"paths": { "@app/*": ["src/*"] },', '"paths": { "@app/*": ["src/*"] },\n    "noEmit": true,')
      .replace(
        ', // tests have their own config\n  "exclude": ["node_modules"]',
        " // tests have their own config",
      ),
  },
  {
    name: "workflow: set a matrix entry and a step's input",
    format: "yaml",
    text: CI,
    edits: [
      { set: "jobs.test.strategy.matrix.node[1]", value: "24" },
      { set: "jobs.test.steps[1].with.cache", value: "pnpm" },
    ],
    expected: CI.replace('node: ["20", "22"]', 'node: ["20", "24"]').replace("cache: npm", "cache: pnpm"),
  },
  {
    name: "workflow: delete a step, add a job key",
    format: "yaml",
    text: CI,
    edits: [{ delete: "jobs.test.steps[2]" }, { set: "jobs.test.timeout-minutes", value: 20 }],
    expected: CI.replace(
      "      # Install exactly what the lock file says.\n      - run: npm ci\n",
      "      # Install exactly what the lock file says.\n",
    ).replace('          CI: "true"\n', '          CI: "true"\n    timeout-minutes: 20\n'),
  },
  {
    name: "docker-compose: anchors, aliases and merge keys kept",
    format: "yaml",
    text: COMPOSE,
    edits: [
      { set: "services.web.image", value: "nginx:1.27-alpine" },
      { merge: "services.web.environment", value: { UPSTREAM: "api:4000", DEBUG: "1" } },
      { delete: "services.api.volumes" },
    ],
    expected: COMPOSE.replace('"nginx:1.25-alpine"', '"nginx:1.27-alpine"')
      .replace("UPSTREAM: api:3000\n", 'UPSTREAM: api:4000\n      DEBUG: "1"\n')
      .replace("    volumes:\n      - ./api:/app:cached # live reload\n", ""),
  },
  {
    name: "pyproject.toml: set, add and delete keep comments",
    format: "toml",
    text: PYPROJECT,
    edits: [
      { set: "project.version", value: "0.5.0" },
      { set: "tool.ruff.line-length", value: 120 },
      { delete: "project.optional-dependencies.dev[1]" },
    ],
    expected: PYPROJECT.replace('"0.4.2"', '"0.5.0"')
      .replace("line-length = 100", "line-length = 120")
      .replace('["pytest>=8", "ruff"]', '["pytest>=8"]'),
  },
];

describe("edit_structured on real config files", () => {
  it.each(CASES)("$name", async (c) => {
    const out = await editConfigText(c.format, c.text, c.edits);
    expect(out).toBe(c.expected);
    expect(parsers[c.format](out)).toEqual(parsers[c.format](c.expected));
  });

  it("an alias is replaced, never edited through (that would change its anchor's other users)", async () => {
    expect(
      await wordedRejection(
        editConfigText("yaml", COMPOSE, [{ set: "services.web.logging.driver", value: "local" }]),
      ),
    ).toMatch(/alias \*default-logging/);
    const out = await editConfigText("yaml", COMPOSE, [
      { set: "services.api.logging", value: { driver: "local" } },
    ]);
    expect(parseYaml(out).services.web.logging.driver).toBe("json-file");
    expect(parseYaml(out).services.api.logging).toEqual({ driver: "local" });
  });

  it("refuses a path through a scalar, and deleting what is not there", async () => {
    expect(await wordedRejection(editConfigText("json", PACKAGE, [{ set: "name.first", value: 1 }]))).toMatch(
      /No object or array/,
    );
    expect(await wordedRejection(editConfigText("toml", PYPROJECT, [{ delete: "project.nope" }]))).toMatch(
      /Nothing at/,
    );
  });
});

describe("YAML values: merge keys, aliases, duplicate keys", () => {
  const yamlRead = (text: string, query?: string) => queryConfig("yaml", text, query);

  it("read_structured expands merge keys (<<) the way docker-compose does; the edit keeps << as written", async () => {
    expect(await yamlRead(COMPOSE, "services.web.environment")).toEqual({
      TZ: "UTC",
      LOG_LEVEL: "info",
      UPSTREAM: "api:3000",
    });
    // The same value yaml gives with its YAML 1.1 merge key on.
    expect(await yamlRead(COMPOSE)).toEqual(parseYaml(COMPOSE, { merge: true }));
    // Setting a merged key overrides it in the map itself; the merge key stays.
    const out = await editConfigText("yaml", COMPOSE, [
      { set: "services.web.environment.LOG_LEVEL", value: "debug" },
    ]);
    expect(out).toBe(COMPOSE.replace("UPSTREAM: api:3000\n", "UPSTREAM: api:3000\n      LOG_LEVEL: debug\n"));
    expect(await yamlRead(out, "services.web.environment.LOG_LEVEL")).toBe("debug");
    expect(await yamlRead(out, "services.api.environment.LOG_LEVEL")).toBe("info");
  });

  it("refuses to delete a key a merge brings (it is not in that map), naming what to do", async () => {
    expect(
      await wordedRejection(editConfigText("yaml", COMPOSE, [{ delete: "services.web.environment.TZ" }])),
    ).toMatch(/comes from a merge key \(<<\).*delete it at its anchor, or set it here/);
  });

  it("merge order: the map's own keys win wherever they stand, then earlier sources", async () => {
    const text = [
      "a: &a {x: 1, y: 1, z: 1}",
      "b: &b {x: 2, y: 2, w: 2}",
      "c:",
      "  y: own",
      "  <<: [*a, *b]",
      "  z: late",
      "d:",
      "  <<: {inline: true}",
      "e:",
      "  <<: 5",
      "",
    ].join("\n");
    expect(await yamlRead(text, "c")).toEqual({ y: "own", x: 1, z: "late", w: 2 });
    expect(await yamlRead(text, "d")).toEqual({ inline: true });
    // Not a map: an ordinary key.
    expect(await yamlRead(text, "e")).toEqual({ "<<": 5 });
    const mergesOnly = text.replace("e:\n  <<: 5\n", "");
    expect(await yamlRead(mergesOnly)).toEqual(parseYaml(mergesOnly, { merge: true }));
  });

  it("aliases are copies; a duplicate key, a recursive alias and an alias bomb are refused", async () => {
    const out = await editConfigText("yaml", "a: &x [1, 2]\nb: *x\n", [{ set: "a[0]", value: 9 }]).catch(
      (e: unknown) => clientMessage(e),
    );
    // Changing the anchor would change b too, so it is refused rather than done behind the user's back.
    expect(out).toMatch(/could not be made in place/);
    expect(await wordedRejection(yamlRead("a: 1\nb: 2\na: 3\n"))).toMatch(
      /keys must be unique \('a' again at line 3\)/,
    );
    expect(await wordedRejection(yamlRead("a: &x [*x]\n"))).toMatch(/inside its own anchor/);
    const bomb = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(", ")}]`,
      );
    expect(await wordedRejection(yamlRead(bomb.join("\n")))).toMatch(/expand to more than/);
  });

  it("a __proto__ key is an ordinary key", async () => {
    const v = (await yamlRead("__proto__: {polluted: true}\nok: 1\n")) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__", "ok"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives the value yaml itself gives for the workflow and a generated file with many aliases", async () => {
    expect(await yamlRead(CI)).toEqual(parseYaml(CI, { merge: true }));
    const big = ["x-log: &log", "  driver: json-file # shared", "services:"];
    for (let i = 0; i < 300; i++)
      big.push(`  svc${i}:`, `    image: "img:${i}"`, "    logging: *log", `    ports: ["${i}:80"]`);
    const text = `${big.join("\n")}\n`;
    expect(await yamlRead(text)).toEqual(parseYaml(text, { merge: true, maxAliasCount: -1 }));
  });
});

describe("TOML: new keys where a person would write them", () => {
  it("a new table under a table without a header is a [section] after its siblings, not a dotted key", async () => {
    const out = await editConfigText("toml", PYPROJECT, [
      { set: "tool.black", value: { "line-length": 88, "skip-string-normalization": true } },
    ]);
    expect(out).toBe(`${PYPROJECT}\n[tool.black]\nline-length = 88\nskip-string-normalization = true\n`);
    const nested = await editConfigText("toml", PYPROJECT, [{ set: "tool.mypy.strict", value: true }]);
    expect(nested).toBe(`${PYPROJECT}\n[tool.mypy]\nstrict = true\n`);
  });

  it("a new value under such a table is a [table] before its first subtable (and that one's comments)", async () => {
    const out = await editConfigText("toml", PYPROJECT, [{ set: "tool.cache-dir", value: ".cache" }]);
    expect(out).toBe(
      PYPROJECT.replace("# Lint settings\n", '[tool]\ncache-dir = ".cache"\n\n# Lint settings\n'),
    );
  });

  it("a new top-level value is a key = value line of the root table; a new table goes at the end", async () => {
    const text = '# settings\ntitle = "x" # the title\n\n[server]\nport = 80\n';
    const out = await editConfigText("toml", text, [
      { set: "debug", value: false },
      { set: "client", value: { retries: 3 } },
    ]);
    expect(out).toBe(
      '# settings\ntitle = "x" # the title\ndebug = false\n\n[server]\nport = 80\n\n[client]\nretries = 3\n',
    );
  });

  it("refuses what toml-patch cannot place, changing nothing", async () => {
    expect(
      await wordedRejection(
        editConfigText("toml", "[a]\nb = 1\n", [{ set: "arr", value: [{ x: 1 }, { x: 2 }] }]),
      ),
    ).toMatch(/could not be made in place/);
  });
});
