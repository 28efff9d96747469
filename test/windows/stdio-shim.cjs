// Test-only, run by the Windows Node under Wine: Wine cannot hand Windows Node a pipe as stdio, so this
// connects to the test's loopback port and makes that socket the process's stdin and stdout, then runs the
// server entry point given (mcpfs's bundle or the official server) unchanged, with the remaining arguments.
// Usage: node stdio-shim.cjs PORT ENTRY [ARGS...]
"use strict";
const net = require("node:net");
const { pathToFileURL } = require("node:url");

const [port, entry, ...args] = process.argv.slice(2);
const socket = net.connect(Number(port), "127.0.0.1", () => {
  socket.setNoDelay(true);
  for (const name of ["stdin", "stdout"])
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => socket });
  process.argv = [process.argv[0], entry, ...args];
  import(pathToFileURL(entry).href).catch((err) => {
    process.stderr.write(`shim: cannot start ${entry}: ${err?.stack}\n`);
    process.exit(70);
  });
});
socket.on("error", (err) => {
  process.stderr.write(`shim: ${err.message}\n`);
  process.exit(71);
});
// The test closing its end is the end of stdin: the server shuts down as on a closed pipe.
socket.on("close", () => setTimeout(() => process.exit(0), 2000).unref());
