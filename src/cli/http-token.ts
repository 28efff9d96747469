import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Where a generated token is kept, and the token. */
export interface GeneratedToken {
  token: string;
  /** The owner-only file holding it; undefined when no state directory is known. */
  file?: string;
}

const TOKEN_FILE = "http-token";

/**
 * The bearer token of an HTTP server started without `--auth-token`/`MCPFS_AUTH_TOKEN`: the one kept in the
 * state directory (so configured clients keep working across restarts), else a new one written there
 * owner-only (file 0600 in a 0700 directory on POSIX; on Windows the per-user `%LOCALAPPDATA%` protects it).
 * A file another user could read or replace is not trusted: a new token overwrites it.
 */
export function httpToken(stateDir: string | undefined): GeneratedToken {
  if (stateDir === undefined) return { token: fresh() };
  const file = path.join(stateDir, TOKEN_FILE);
  const kept = readOwnerOnly(file);
  if (kept) return { token: kept, file };
  const token = fresh();
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  // Written beside, then renamed over: never a moment where the file is there with other permissions.
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temp, `${token}\n`, { mode: 0o600, flag: "wx" });
  fs.renameSync(temp, file);
  return { token, file };
}

const fresh = () => randomBytes(32).toString("base64url");

/** The token in `file` when only its owner (this user) can read or change it; undefined otherwise. */
function readOwnerOnly(file: string): string | undefined {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile()) return undefined;
    if (process.platform !== "win32") {
      const uid = process.getuid?.();
      if ((st.mode & 0o077) !== 0 || (uid !== undefined && st.uid !== uid)) return undefined;
    }
    const token = fs.readFileSync(file, "utf8").trim();
    return token.length >= 32 ? token : undefined;
  } catch {
    return undefined;
  }
}
