/**
 * Safety flags whose misspelling must not silently serve read-write: a near miss of one of these is a
 * startup error (other unknown flags keep their documented warn-and-ignore behaviour).
 */
const SAFETY_FLAGS = ["--read-only", "--read-only-dir"] as const;

/** Lower case, letters and digits only: `--Read_Only`, `-readonly` and `--read-only` all become `readonly`. */
function squash(flag: string): string {
  return flag.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The safety flag `arg` (an unrecognised flag, maybe with `=value`) was probably meant to be, if any. */
export function safetyFlagMeant(arg: string): string | undefined {
  if (!arg.startsWith("-")) return undefined;
  const name = squash(arg.split("=")[0]!);
  if (name === "") return undefined;
  let best: { flag: string; d: number } | undefined;
  for (const flag of SAFETY_FLAGS) {
    const d = distance(name, squash(flag));
    if (d <= 2 && (!best || d < best.d)) best = { flag, d };
  }
  return best?.flag;
}

/** The startup error for the first unrecognised argument that is a near miss of a safety flag. */
export function safetyFlagError(unknownArgs: readonly string[]): string | undefined {
  for (const arg of unknownArgs) {
    const meant = safetyFlagMeant(arg);
    if (meant)
      return (
        `Error: unknown option '${arg.split("=")[0]}' (did you mean ${meant}?). ` +
        "Refusing to start: a misspelt safety flag would serve read-write.\n"
      );
  }
  return undefined;
}

/** The known name nearest to `name`, when near enough to be a slip (a third of its letters, at least 2). */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k);
    if (d <= Math.max(2, Math.floor(name.length / 3)) && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}

/** The start-up error for names in `--disable-tools` that no tool of the surface has, each with its nearest. */
export function unknownToolsError(
  requested: readonly string[],
  known: readonly string[],
): string | undefined {
  const unknown = requested.filter((n) => !known.includes(n));
  if (unknown.length === 0) return undefined;
  const each = unknown.map((n) => {
    const near = closest(n, known);
    return `unknown tool '${n}'${near ? ` (did you mean ${near}?)` : ""}`;
  });
  return `Error: --disable-tools: ${each.join(", ")}. The tools here: ${known.join(", ")}\n`;
}
