import type { Readable } from "node:stream";

/**
 * ripgrep's flags for the output `rgRecords` reads: one record per matching line, `PATH \0 LINE : TEXT \n`.
 * `--max-columns 1` turns every line longer than one byte into "[Omitted long matching line]", so no line
 * of a searched file crosses the pipe, whatever its length (the JSON printer ignores --max-columns: a match
 * in a 1 GiB one-line file arrived as 1 GiB of JSON). The text is never read: the caller reads the file again.
 */
export const RG_RECORD_FLAGS = [
  "--null",
  "--with-filename",
  "--line-number",
  "--no-heading",
  "--max-columns=1",
];

/** A path longer than this is not held (no file system has one): its record is dropped. */
const MAX_PATH = 64 * 1024;
const NUL = 0x00;
const LF = 0x0a;
const COLON = 0x3a;

/**
 * After the matches of a binary file (a NUL byte past its first buffer), ripgrep prints a line of its own,
 * `PATH: WARNING: stopped searching binary file after match (found "\0" byte around offset N)`, which has
 * no NUL: the bytes up to the next NUL are then that line and the next path.
 */
const WARNING =
  /^(?:WARNING: stopped searching binary file after match|binary file matches) \(found "[^"\n]{1,8}" byte around offset \d+\)\r?$/;

/**
 * Reads ripgrep's records (flags above) from `input` however the stream is cut, memory bounded by the
 * longest path. `onRecord` gets the path as printed and the line number; `afterWarning` is true when a
 * binary-file warning of the previous path was taken off the front of this path. Such a path could also
 * be a name that begins with that warning text (a name may hold a line break), so the caller re-checks it.
 */
export function rgRecords(
  input: Readable,
  onRecord: (path: string, line: number, afterWarning: boolean) => void,
): void {
  // 0: in a path, 1: in a line number, 2: in the (ignored) text, up to the record's end.
  let phase = 0;
  let parts: Buffer[] = [];
  let held = 0;
  let overflow = false;
  let path: Buffer | undefined;
  let previous: Buffer | undefined;
  let afterWarning = false;
  let line = 0;
  let digits = 0;
  let bad = false;

  const endPath = () => {
    let p = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    held = 0;
    const rest = overflow ? undefined : withoutWarning(p, previous);
    afterWarning = rest !== undefined;
    if (rest) p = rest;
    path = overflow || p.length === 0 ? undefined : Buffer.from(p);
    overflow = false;
    line = 0;
    digits = 0;
    bad = path === undefined;
  };
  const endRecord = () => {
    if (!bad && digits > 0 && path) {
      onRecord(path.toString("utf8"), line, afterWarning);
      previous = path;
    }
  };

  input.on("data", (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (phase === 0) {
        const nul = chunk.indexOf(NUL, i);
        const end = nul === -1 ? chunk.length : nul;
        if (!overflow) {
          held += end - i;
          if (held > MAX_PATH) {
            overflow = true;
            parts = [];
          } else parts.push(Buffer.from(chunk.subarray(i, end)));
        }
        if (nul === -1) return;
        endPath();
        phase = 1;
        i = nul + 1;
      } else if (phase === 1) {
        const c = chunk[i++]!;
        if (c >= 0x30 && c <= 0x39 && digits < 15) {
          line = line * 10 + (c - 0x30);
          digits++;
        } else {
          if (c !== COLON) bad = true;
          phase = 2;
          if (c === LF) {
            endRecord();
            phase = 0;
          }
        }
      } else {
        const nl = chunk.indexOf(LF, i);
        if (nl === -1) return;
        endRecord();
        phase = 0;
        i = nl + 1;
      }
    }
  });
}

/** What follows `previous`'s binary-file warning at the front of `text`, or undefined when it has none. */
function withoutWarning(text: Buffer, previous: Buffer | undefined): Buffer | undefined {
  if (!previous) return undefined;
  const at = previous.length;
  if (text.length <= at + 2 || text[at] !== COLON || text[at + 1] !== 0x20) return undefined;
  if (!text.subarray(0, at).equals(previous)) return undefined;
  const nl = text.indexOf(LF, at + 2);
  if (nl === -1 || !WARNING.test(text.toString("latin1", at + 2, nl))) return undefined;
  return text.subarray(nl + 1);
}
