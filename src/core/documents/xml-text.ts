/** The few XML helpers the Office readers need: entity decoding and attribute lookup. */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Text with XML entities and character references decoded. */
export function decodeXml(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return ENTITIES[e] ?? whole;
  });
}

/** The value of attribute `name` (with its namespace prefix, if any) in a tag's attribute text. */
export function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? decodeXml(m[1] ?? m[2]!) : undefined;
}

/** Text runs: `<t>` of spreadsheets, `<a:t>` of slides (the pattern's one group is the text). */
export const SHEET_TEXT = /<t(?:\s[^>]*)?>([^<]*)<\/t>/g;
export const SLIDE_TEXT = /<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g;

/** The concatenated text of every run `runs` (SHEET_TEXT, SLIDE_TEXT) finds in `xml`. */
export function textsOf(xml: string, runs: RegExp): string {
  let out = "";
  for (const m of xml.matchAll(runs)) out += m[1]!;
  return decodeXml(out);
}

/** Relationship ids to targets from a `.rels` part, resolved against the folder `base` ("ppt/"). */
export function relationships(xml: string | undefined, base: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of (xml ?? "").matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const id = attr(m[1]!, "Id");
    const target = attr(m[1]!, "Target");
    if (id && target) map.set(id, target.startsWith("/") ? target.slice(1) : normalise(base + target));
  }
  return map;
}

function normalise(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.join("/");
}
