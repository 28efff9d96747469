import { ToolError } from "./errors.js";
import type { compileGlobAny } from "./search/glob-match.js";

/**
 * `--deny GLOB`: paths no entry point may read, list, reveal or change, whatever the surface. The rules are
 * the server's (from the command line), held by each root (`Root.deny`) so every entry point that reaches a
 * root reaches them: `Workspace.resolve`/`resolveEntry` refuse a denied path or a path below a denied folder,
 * the walker and the listings leave denied entries out (never named), grep's ripgrep hits are filtered, git
 * gets exclude pathspecs, and a move, copy or delete that would carry a denied entry is refused.
 *
 * A glob without `/` matches an entry's name at any depth (`*.pem`, `.env*`); one with `/` matches the
 * end of a path at any depth (`.aws/credentials`), or from the root when it starts with `/`. A denied folder
 * denies everything below it. Names are compared in NFC (as git on macOS with `core.precomposeUnicode`) and
 * without case where the root's volume folds case. Globs are the linear-time ones of search/glob-match.ts.
 */
export class DenyRules {
  private constructor(
    readonly globs: readonly string[],
    private readonly exact: Matchers,
    private readonly folded: Matchers,
  ) {}

  /**
   * The glob matcher (and its regex engine) is loaded only when there are rules, not by every start.
   * @throws ToolError `invalid` for a glob the matcher refuses (too long, a negated extglob).
   */
  static async compile(globs: readonly string[]): Promise<DenyRules | undefined> {
    const kept = globs.map((g) => g.trim().normalize("NFC")).filter((g) => g !== "" && g !== "/");
    if (kept.length === 0) return undefined;
    const { compileGlobAny: any } = await import("./search/glob-match.js");
    return new DenyRules(kept, matchers(kept, false, any), matchers(kept, true, any));
  }

  /**
   * The entry `rel` itself (root-relative, `/` separators) is denied; its folders are not looked at (a walk
   * never enters a denied folder). `folds`: the volume compares names without case.
   */
  deniesEntry(rel: string, folds: boolean): boolean {
    let p = NON_ASCII.test(rel) ? rel.normalize("NFC") : rel;
    if (folds) p = p.toLowerCase();
    const m = folds ? this.folded : this.exact;
    const name = p.slice(p.lastIndexOf("/") + 1);
    return m.names(name) || m.paths(p);
  }

  /** The entry `name` of the folder `dirRel` (root-relative, "" for the root) is denied. */
  deniesChild(dirRel: string, name: string, folds: boolean): boolean {
    return this.deniesEntry(dirRel === "" ? name : `${dirRel}/${name}`, folds);
  }

  /** `rel` or a folder above it is denied ("" is the root, never denied). */
  denies(rel: string, folds: boolean): boolean {
    if (rel === "") return false;
    for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1))
      if (i > 0 && this.deniesEntry(rel.slice(0, i), folds)) return true;
    return this.deniesEntry(rel, folds);
  }
}

interface Matchers {
  readonly names: (name: string) => boolean;
  readonly paths: (rel: string) => boolean;
}

const NON_ASCII = /[^\x00-\x7f]/;

function matchers(globs: readonly string[], folds: boolean, any: typeof compileGlobAny): Matchers {
  const names: string[] = [];
  const paths: string[] = [];
  for (const raw of globs) {
    const g = (folds ? raw.toLowerCase() : raw).replace(/\/+$/, "");
    if (g.startsWith("/")) paths.push(g.slice(1));
    else if (g.includes("/")) paths.push(`**/${g}`);
    else names.push(g);
  }
  return { names: any(names), paths: any(paths) };
}

/**
 * `--deny-preset secrets`: credential and key files by their usual names (docs/security.md lists them). A
 * starting point, not a guarantee: a secret under another name needs its own `--deny`.
 */
const SECRETS_PRESET: readonly string[] = [
  ".env*",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  ".ssh/*",
  ".gnupg",
  ".npmrc",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".pgpass",
  ".git-credentials",
  ".aws/credentials",
  ".aws/config",
  ".azure/accessTokens.json",
  ".azure/msal_token_cache.*",
  ".docker/config.json",
  ".kube/config",
  ".config/gcloud/credentials.db",
  ".config/gcloud/access_tokens.db",
  ".config/gcloud/application_default_credentials.json",
  ".config/gcloud/legacy_credentials",
  ".config/gh/hosts.yml",
  ".password-store",
  "credentials.json",
  "service-account*.json",
];

/** The presets `--deny-preset` accepts. */
export const DENY_PRESETS: Readonly<Record<string, readonly string[]>> = { secrets: SECRETS_PRESET };

/** A refusal by the `--deny` rules: it names the requested path only, never the rule that matched. */
export function deniedByRuleError(shown: string): ToolError {
  return new ToolError("ignored", { reason: "deny_rule", path: shown });
}
