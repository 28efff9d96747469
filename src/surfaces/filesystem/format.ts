/** Text formats shared by the filesystem surface's tools (the official server's layouts). */

/** 1024-based units labelled B/KB/MB/GB/TB: `512 B`, `1.50 KB`, capped at TB; 0 and negatives are `0 B`. */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (!(bytes > 0)) return "0 B";
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  if (i <= 0) return `${bytes} B`;
  return `${(bytes / 1024 ** i).toFixed(2)} ${units[i]}`;
}

/** The marker appended to a reply cut to the output budget. */
export function truncationNote(what: string, howToContinue: string): string {
  return `\n[mcpfs: output truncated: ${what}. ${howToContinue}]`;
}
