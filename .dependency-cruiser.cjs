/**
 * The layers of the house (see DESIGN.md), checked by `npm run lint`:
 * core/ is pure operations on a Workspace (no MCP, no server, no surface); a surface is schema → core call →
 * formatter and never touches the file system itself.
 */

/**
 * The rooms of core/ that once were one folder (core/files/), each with the rooms it may import: lower ones
 * only (ARCHITECTURE.md draws them). A room never imports one above it or beside it.
 */
const ROOMS = {
  fs: [], // verified opens, atomic writes, pinned mkdir, identities of file versions
  text: ["fs"], // the line model, the one reader and decode policy, hashes taken while reading
  journal: ["fs", "text"], // the undo journal and crash intents
  mutate: ["fs", "text", "journal"], // transactions and every operation that changes the tree
  edit: ["fs", "text", "journal", "mutate"], // the edit engine, patches, diffs
  listing: ["fs", "text"], // directory listings, trees, entry info
  media: ["fs", "text"], // content types, media and resource reads
};
/**
 * A unit test beside its module (`x.test.ts` beside `x.ts`) is not part of its layer or room: it may import
 * what it needs to set its module up (a surface's path rules, the test helpers). Only the rules below that
 * name TEST apply to it.
 */
const TEST = "\\.test\\.ts$";

const roomRules = Object.entries(ROOMS).map(([room, below]) => ({
  name: `room-${room}`,
  comment: `core/${room}/ imports only ${below.length ? below.map((r) => `core/${r}/`).join(", ") : "no other room"} of the rooms (ROOMS above)`,
  severity: "error",
  from: { path: `^src/core/${room}/`, pathNot: TEST },
  to: {
    path: `^src/core/(${Object.keys(ROOMS)
      .filter((r) => r !== room && !below.includes(r))
      .join("|")})/`,
  },
}));

module.exports = {
  forbidden: [
    ...roomRules,
    {
      name: "no-test-imports",
      comment:
        "the server's code never imports a unit test, nor the test helpers (a test imports its module)",
      severity: "error",
      from: { path: "^src/", pathNot: TEST },
      to: { path: ["\\.test\\.ts$", "^test/"] },
    },
    {
      name: "no-circular",
      comment: "no module reaches itself through its imports (madge --circular reports the same)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-not-upward",
      comment: "core/ never imports server/ or surfaces/",
      severity: "error",
      from: { path: "^src/core/", pathNot: TEST },
      to: { path: "^src/(server|surfaces)/" },
    },
    {
      name: "core-surface-blind",
      comment:
        "core/ never sees which surface it serves: not even the configuration (its Surface name); a surface hands it data (PathRules, error kinds)",
      severity: "error",
      from: { path: "^src/core/", pathNot: TEST },
      to: { path: "^src/config/" },
    },
    {
      name: "core-no-mcp",
      comment: "core/ never imports the MCP SDK",
      severity: "error",
      from: { path: "^src/core/", pathNot: TEST },
      to: { path: "@modelcontextprotocol/" },
    },
    {
      name: "surfaces-no-fs",
      comment: "a surface never touches the file system directly: it calls into core/",
      severity: "error",
      from: { path: "^src/surfaces/", pathNot: TEST },
      to: { path: "^(node:)?fs(/promises)?$", dependencyTypes: ["core"] },
    },
    {
      name: "no-circular-layers",
      comment: "server/ is above surfaces/: a surface never imports the server",
      severity: "error",
      from: { path: "^src/surfaces/", pathNot: TEST },
      to: { path: "^src/server/" },
    },
    {
      name: "cli-on-top",
      comment: "cli/ produces the Config (src/config/) and starts the server; nothing below it imports cli/",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/cli/", TEST] },
      to: { path: "^src/cli/" },
    },
    {
      name: "config-is-plain",
      comment: "src/config/ holds the configuration's types and defaults, below server/ and surfaces/",
      severity: "error",
      from: { path: "^src/config/", pathNot: TEST },
      to: { path: "^src/(cli|server|surfaces)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^dist/" },
  },
};
