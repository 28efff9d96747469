/** A Node 22 binary: the running Node if 22+, else MCPFS_NODE22, else the registry's, installed on first use. */
export function node22(repoRoot: string): string;
