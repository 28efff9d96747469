// Table formatting for bench results.

const ms = (v) =>
  v === undefined
    ? "–"
    : typeof v === "string"
      ? v
      : v >= 1000
        ? `${(v / 1000).toFixed(2)} s`
        : v >= 10
          ? `${v.toFixed(0)} ms`
          : `${v.toFixed(1)} ms`;
const mib = (v) => (v === undefined || Number.isNaN(v) ? "–" : `${v.toFixed(0)}`);
const ratio = (a, b) =>
  typeof a === "number" && typeof b === "number" && a > 0 && b > 0
    ? `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×`
    : "–";

/**
 * A row: { label, mcpfs, official, os, osLabel, rssMcpfs, rssOfficial, target, met, note }. Times are
 * numbers (ms) or "n/a"; `met` is true/false/undefined.
 */
export function verdictLine(r) {
  if (r.error) return `${r.label}: error ${r.error}`;
  return (
    `${r.label}: mcpfs ${ms(r.mcpfs)}, official ${ms(r.official)} (${ratio(r.official, r.mcpfs)}), ` +
    `${r.osLabel ?? "os"} ${ms(r.os)}; ${r.target ?? ""} ${r.met === undefined ? "" : r.met ? "✔" : "✘"} ${r.note ?? ""}`
  );
}

export function formatTable(rows) {
  const head =
    "| case | mcpfs | official | official ÷ mcpfs | OS tool | mcpfs ÷ OS | peak RSS MiB mcpfs / official | target | met | notes |";
  const sep = "|---|---:|---:|---:|---|---:|---:|---|:-:|---|";
  const lines = rows.map((r) => {
    if (r.error) return `| ${r.label} | error | | | | | | | ✘ | ${r.error.replaceAll("|", "\\|")} |`;
    const osCell = r.os === undefined ? "–" : `${r.osLabel}: ${ms(r.os)}`;
    const met = r.met === undefined ? "–" : r.met ? "✔" : "✘";
    return `| ${r.label} | ${ms(r.mcpfs)} | ${ms(r.official)} | ${ratio(r.official, r.mcpfs)} | ${osCell} | ${ratio(r.mcpfs, r.os)} | ${mib(r.rssMcpfs)} / ${mib(r.rssOfficial)} | ${r.target ?? ""} | ${met} | ${(r.note ?? "").replaceAll("|", "\\|")} |`;
  });
  return [head, sep, ...lines].join("\n");
}
