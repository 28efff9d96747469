/** The one line-number formatter of every read (both surfaces): `N→text`, numbers right-aligned. */
export function numberLines(lines: readonly string[], first: number): string[] {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}→${l}`);
}
