/**
 * The hostile-path arena shared by the black-box table test, the race test and the property test: a real
 * temp tree with an allowed root, canary files outside it, and every kind of symlink an attacker would plant.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface Arena {
  /** Parent temp dir: everything in it except `root` is "outside". */
  base: string;
  /** The allowed directory (realpath'd). */
  root: string;
  /** Server working directory (outside the root; its path must never show up in a reply). */
  cwd: string;
  /** HOME of the server process, so `~` lands somewhere we can watch. */
  home: string;
  /** Strings that must never appear in a reply: the canaries' contents. */
  canaries: string[];
  /** Recreates the root's content exactly (tools may have written or moved things inside). */
  resetRoot(): void;
  /** Everything outside the root, as a comparable snapshot. */
  outsideSnapshot(): Map<string, string>;
}

const NFC_NAME = "caf\u00e9.txt";
const NFD_NAME = "cafe\u0301.txt";
export const NFD_LINK = "lie\u0301n"; // an NFD-named symlink pointing outside

export function makeArena(base: string): Arena {
  const tag = randomBytes(6).toString("hex");
  const canaries = [`CANARY-secret-${tag}`, `CANARY-dir-${tag}`, `CANARY-evil-${tag}`, `CANARY-home-${tag}`];
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  const cwd = path.join(base, `srvcwd_${tag}`);
  const home = path.join(base, "home");
  fs.mkdirSync(path.join(outside, "dir"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), canaries[0]!);
  fs.writeFileSync(path.join(outside, "dir", "secret2.txt"), canaries[1]!);
  fs.mkdirSync(path.join(base, "root_evil"), { recursive: true });
  fs.writeFileSync(path.join(base, "root_evil", "secret3.txt"), canaries[2]!);
  fs.mkdirSync(path.join(home, ".ssh"), { recursive: true });
  fs.writeFileSync(path.join(home, ".ssh", "id_rsa"), canaries[3]!);
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(root, { recursive: true });

  const resetRoot = () => {
    for (const name of fs.readdirSync(root))
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
    const file = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    const link = (rel: string, target: string) => fs.symlinkSync(target, path.join(root, rel));
    file("a.txt", "inside a\n");
    file("sub/b.txt", "inside b\n");
    file(NFD_NAME, "inside nfd-named file\n");
    link("link_out_file", path.join(outside, "secret.txt"));
    link("link_out_rel", "../outside/secret.txt");
    link("link_out_dir", path.join(outside, "dir"));
    link("dangling_out", path.join(outside, "created-through-dangling.txt"));
    link("dangling_out_dir", path.join(outside, "newdir"));
    link("chain1", "chain2");
    link("chain2", "chain3");
    link("chain3", "link_out_file");
    link("dchain1", "dchain2");
    link("dchain2", path.join(outside, "created-through-chain.txt"));
    link("dangling_in_then_out", "link_out_dir/new-via-inside-link.txt");
    link("loop1", "loop2");
    link("loop2", "loop1");
    link("self", "self");
    link("link_in", "a.txt");
    link("link_parent", "..");
    link("sub/up", "../..");
    link(NFD_LINK, path.join(outside, "secret.txt"));
    link("link_proc_cwd", "/proc/self/cwd");
    link("link_root_evil", "../root_evil");
    link("link_home", "../home");
  };
  resetRoot();

  const outsideSnapshot = () => {
    const out = new Map<string, string>();
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (p === root) continue;
        if (e.isSymbolicLink()) out.set(p, `link:${fs.readlinkSync(p)}`);
        else if (e.isDirectory()) {
          out.set(p, `dir:${fs.statSync(p).mode}`);
          walk(p);
        } else {
          const st = fs.statSync(p);
          out.set(p, `file:${st.mode}:${fs.readFileSync(p, "latin1")}`);
        }
      }
    };
    walk(base);
    return out;
  };
  return { base, root, cwd, home, canaries, resetRoot, outsideSnapshot };
}

export type Expect = "refuse" | "any";

export interface HostileCase {
  name: string;
  value: string;
  /** `refuse`: every tool must answer with an error; `any`: the path is inside, success is fine. */
  expect: Expect;
}

/** The table: every path an attacker would try, built against a concrete arena. */
export function hostileCases(a: Arena): HostileCase[] {
  const { base, root } = a;
  const out = path.join(base, "outside");
  const R = (name: string, value: string): HostileCase => ({ name, value, expect: "refuse" });
  const A = (name: string, value: string): HostileCase => ({ name, value, expect: "any" });
  return [
    // Absolute paths outside.
    R("absolute outside file", path.join(out, "secret.txt")),
    R("absolute outside dir", path.join(out, "dir")),
    R("absolute outside new file", path.join(out, "new.txt")),
    R("absolute outside new nested", path.join(out, "newdir", "x", "y.txt")),
    R("/etc/passwd", "/etc/passwd"),
    R("filesystem root", "/"),
    R("/proc/self/root escape", "/proc/self/root/etc/passwd"),
    R("/proc/self/cwd", "/proc/self/cwd"),
    R("home dir absolute", path.join(a.home, ".ssh", "id_rsa")),
    // `..` chains.
    R("..", ".."),
    R("../", "../"),
    R("../outside/secret.txt", "../outside/secret.txt"),
    R("deep ../ chain", `${"../".repeat(40)}etc/passwd`),
    R("sub/../../outside", "sub/../../outside/secret.txt"),
    R("./../outside", "./../outside/secret.txt"),
    R("root/../outside (absolute)", `${root}/../outside/secret.txt`),
    R("root/sub/../../outside (absolute)", `${root}/sub/../../outside/secret.txt`),
    R("double slashes and ..", "sub/..//..//outside/secret.txt"),
    R("../ new file", "../outside/new-by-dotdot.txt"),
    R("long .. chain after inside segments", `${"sub/../".repeat(200)}../outside/secret.txt`),
    R(".. then back into root name", "../root/../outside/secret.txt"),
    // Sibling directory sharing the root's prefix (CVE-2025-53110).
    R("sibling prefix (relative)", "../root_evil/secret3.txt"),
    R("sibling prefix (absolute)", `${root}_evil/secret3.txt`),
    R("sibling prefix new file", `${root}_evil/new.txt`),
    R("sibling prefix dir itself", `${root}_evil`),
    // Symlinks leading out (CVE-2025-53109).
    R("symlink to outside file", "link_out_file"),
    R("symlink to outside file (absolute)", path.join(root, "link_out_file")),
    R("relative symlink to outside file", "link_out_rel"),
    R("symlink to outside dir", "link_out_dir"),
    R("file through outside dir link", "link_out_dir/secret2.txt"),
    R("new file through outside dir link", "link_out_dir/new.txt"),
    R("new nested through outside dir link", "link_out_dir/newdir/new.txt"),
    R("file below a file link (ENOTDIR probe)", "link_out_file/x"),
    R("below an outside file (ENOTDIR probe)", "link_out_dir/secret2.txt/x"),
    R("dangling symlink outside (write target)", "dangling_out"),
    R("dangling symlink outside (absolute)", path.join(root, "dangling_out")),
    R("below a dangling dir symlink", "dangling_out_dir/new.txt"),
    R("symlink chain to outside", "chain1"),
    R("dangling symlink chain to outside", "dchain1"),
    R("dangling link via an inside link to outside", "dangling_in_then_out"),
    R("symlink loop", "loop1"),
    R("below a symlink loop", "loop1/x"),
    R("self-referencing symlink", "self"),
    R("link to parent", "link_parent/outside/secret.txt"),
    R("link to parent then sibling", "link_parent/root_evil/secret3.txt"),
    R("nested link to grandparent", "sub/up/outside/secret.txt"),
    R("link to /proc/self/cwd", "link_proc_cwd"),
    R("link to sibling-prefix dir", "link_root_evil/secret3.txt"),
    R("link to home", "link_home/.ssh/id_rsa"),
    R("NFD-named symlink to outside", NFD_LINK),
    R("NFC spelling of an NFD-named outside symlink", NFD_LINK.normalize("NFC")),
    // Strings no path may be.
    R("NUL in the middle", "a.txt\u0000../outside/secret.txt"),
    R("NUL alone", "\u0000"),
    R("trailing NUL", "a.txt\u0000"),
    R("NUL before ..", "..\u0000/outside/secret.txt"),
    R("Windows drive path", "C:\\Windows\\System32\\drivers\\etc\\hosts"),
    R("Windows drive with slashes", "C:/Windows/win.ini"),
    R("bare drive", "c:"),
    R("UNC path", "\\\\server\\share\\secret.txt"),
    R("UNC device path", "\\\\?\\C:\\secret.txt"),
    R("ADS ::$DATA", "a.txt::$DATA"),
    R("ADS :$DATA", "a.txt:$DATA"),
    R("empty string", ""),
    R("only spaces", "   "),
    R("POSIX double-slash root", "//server/share/secret.txt"),
    // file:// URLs.
    R("file:// outside", `file://${path.join(out, "secret.txt")}`),
    R("file:// with .. out of the root", `file://${root}/../outside/secret.txt`),
    R("file:// with encoded ..", `file://${root}/%2e%2e/outside/secret.txt`),
    R("file:// /etc/passwd", "file:///etc/passwd"),
    R("file:// with a host", "file://evilhost/etc/passwd"),
    R("file://localhost outside", `file://localhost${path.join(out, "secret.txt")}`),
    R("file: without slashes", `file:${path.join(out, "secret.txt")}`),
    R("file:// encoded NUL", `file://${root}/a.txt%00`),
    R("file:// encoded slash", `file://${root}/..%2foutside%2fsecret.txt`),
    R("file:// to outside symlink", `file://${root}/link_out_file`),
    // Home.
    R("~", "~"),
    R("~/", "~/"),
    R("~/.ssh/id_rsa", "~/.ssh/id_rsa"),
    R("~/new file", "~/created-by-tilde.txt"),
    // Very long paths.
    R("very long .. escape", `${"x/../".repeat(2000)}../outside/secret.txt`),
    // Inside, oddly spelled: success is fine, escapes are not.
    A("dot (the root)", "."),
    A("root itself (absolute)", root),
    A("file:// inside", `file://${root}/a.txt`),
    A("inside symlink", "link_in"),
    A("NFC spelling of an NFD-named file", NFC_NAME),
    A("NFD spelling", NFD_NAME),
    A("~user is a literal name", "~root/x.txt"),
    A("backslash .. is a literal name on POSIX", "..\\outside\\secret.txt"),
    A("percent-encoded .. is literal outside URLs", "%2e%2e/outside/secret.txt"),
    A("one-dot-leader lookalike", "\u2024\u2024/outside/secret.txt"),
    A("quoted path is literal", '"../outside/secret.txt"'),
    A("drive-like name without slash", "C:file.txt"),
    A("ADS-like name without $", "a.txt:stream"),
    A("trailing slash on a file", "a.txt/"),
    A("very long path (> PATH_MAX)", `${"a/".repeat(3000)}x.txt`),
    A("very long component (> NAME_MAX)", "x".repeat(300)),
    A("inside .. that stays inside", "sub/../a.txt"),
    A("file:// with .. that stays inside", `file://${root}/sub/../a.txt`),
    A("file:// with encoded .. that stays inside", `file://${root}/sub/%2e%2E/a.txt`),
  ];
}

/** True when the string has a `..` segment, also in a file:// URL's percent-encoded spelling. */
export function hasDotDotSegment(value: string): boolean {
  const forms = [value];
  if (/^file:/i.test(value)) forms.push(value.replace(/%2e/gi, "."));
  return forms.some((f) => f.split(/[\\/]+/).some((seg) => seg === ".."));
}

/**
 * What the kernel says about a resolved location, independently of the code under test: its deepest
 * existing part (by lstat) is a canonical non-symlink path (realpath of it is itself) inside `rootReal`, so
 * nothing on the way can lead out, now or when a missing tail is created.
 */
export function kernelConfined(real: string, rootReal: string): boolean {
  const within = (p: string) => p === rootReal || p.startsWith(rootReal + path.sep);
  if (!within(real)) return false;
  let p = real;
  for (;;) {
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(p);
    } catch {
      st = undefined;
    }
    if (st) {
      if (st.isSymbolicLink()) return false;
      try {
        return fs.realpathSync(p) === p && within(p);
      } catch {
        return false;
      }
    }
    const up = path.dirname(p);
    if (up === p) return false;
    p = up;
  }
}

/** Tool argument names that carry a path (scalar or array). Tools added later are covered by name. */
export function isPathKey(key: string): boolean {
  return /^(path|paths|source|destination|target|file|files|dir|directory|root)$|_path$|_paths$|_dir$|_file$/i.test(
    key,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema from tools/list
type Schema = any;

/** A harmless value for a schema (used for required arguments that are not the one under attack). */
export function benignValue(schema: Schema, key: string): unknown {
  if (!schema || typeof schema !== "object") return "x";
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alt)) return benignValue(alt.find((s: Schema) => s.type !== "null") ?? alt[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      if (isPathKey(key)) return "a.txt";
      if (/content|text|new/i.test(key)) return "mcpfs hostile-path probe\n";
      return "x";
    case "integer":
    case "number":
      return Math.max(1, typeof schema.minimum === "number" ? schema.minimum : 1);
    case "boolean":
      return false;
    case "array":
      return [benignValue(schema.items ?? { type: "string" }, key)];
    case "object": {
      const obj: Record<string, unknown> = {};
      for (const k of schema.required ?? []) obj[k] = benignValue(schema.properties?.[k], k);
      return obj;
    }
    default:
      return "x";
  }
}

export interface Probe {
  tool: string;
  /** The argument under attack. */
  key: string;
  /** True when the argument is an array of paths (errors may be per item inside a successful reply). */
  array: boolean;
  args: Record<string, unknown>;
}

/** For every tool and every path-like argument: the call with the hostile value in that argument. */
export function probesFor(
  tools: { name: string; inputSchema: Schema }[],
  value: string,
): { probes: Probe[]; pathless: string[] } {
  const probes: Probe[] = [];
  const pathless: string[] = [];
  for (const t of tools) {
    const props: Record<string, Schema> = t.inputSchema?.properties ?? {};
    const required: string[] = t.inputSchema?.required ?? [];
    const keys = Object.keys(props).filter((k) => {
      const s = props[k];
      const type = s?.type ?? s?.anyOf?.[0]?.type;
      return isPathKey(k) && (type === "string" || type === "array");
    });
    if (keys.length === 0) {
      pathless.push(t.name);
      continue;
    }
    for (const key of keys) {
      const args: Record<string, unknown> = {};
      for (const k of required) args[k] = benignValue(props[k], k);
      const array = (props[key]?.type ?? props[key]?.anyOf?.[0]?.type) === "array";
      args[key] = array ? [value] : value;
      probes.push({ tool: t.name, key, array, args });
    }
  }
  return { probes, pathless };
}
