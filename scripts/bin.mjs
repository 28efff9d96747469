#!/usr/bin/env node
// The `mcpfs` executable: loads the bundled server (mcpfs-main.cjs beside this file). On Node 22.1+ Node's
// own module compile cache is turned on first, so later starts skip compiling the bundle; the cache lives
// where Node puts it (NODE_COMPILE_CACHE, else the system's temp directory) and is Node's to validate.
// Older Nodes load it plainly. NODE_DISABLE_COMPILE_CACHE=1 turns the cache off (Node's own switch).
import module from "node:module";

module.enableCompileCache?.();
module.createRequire(import.meta.url)("./mcpfs-main.cjs");
