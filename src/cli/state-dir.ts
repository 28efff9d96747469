import os from "node:os";
import path from "node:path";

/**
 * The user's state directory for mcpfs (journals): `MCPFS_STATE_DIR` if set, else `$XDG_STATE_HOME/mcpfs`
 * or `~/.local/state/mcpfs` (Linux and other POSIX), `~/Library/Application Support/mcpfs` (macOS),
 * `%LOCALAPPDATA%\mcpfs` (Windows). Undefined when no home directory is known.
 */
export function stateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (env.MCPFS_STATE_DIR) return path.resolve(env.MCPFS_STATE_DIR);
  const home = os.homedir();
  if (platform === "win32") {
    const local = env.LOCALAPPDATA || (home ? path.join(home, "AppData", "Local") : undefined);
    return local ? path.join(local, "mcpfs") : undefined;
  }
  if (platform === "darwin")
    return home ? path.join(home, "Library", "Application Support", "mcpfs") : undefined;
  if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME))
    return path.join(env.XDG_STATE_HOME, "mcpfs");
  return home ? path.join(home, ".local", "state", "mcpfs") : undefined;
}
