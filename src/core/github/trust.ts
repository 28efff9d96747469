/** Roles GitHub reports (author_association / authorAssociation) that make an author trusted. */
const TRUSTED_ROLES = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

/**
 * Whether text by this author may be shown: a trusted role in the repository being read, or a login in the
 * user's `trusted_commenters` (case-insensitive, `[bot]` suffix included).
 */
export function isTrusted(
  login: string | null | undefined,
  association: string | null | undefined,
  allow: ReadonlySet<string>,
): boolean {
  if (association && TRUSTED_ROLES.has(association.toUpperCase())) return true;
  return !!login && allow.has(login.toLowerCase());
}

/** The one line that stands in for everything withheld. */
export function withheldLine(count: number): string {
  return `[${count} item${count === 1 ? "" : "s"} from untrusted authors withheld (trusted: OWNER, MEMBER, COLLABORATOR, or a login in [github] trusted_commenters)]`;
}

export const WITHHELD_BODY = "(description withheld: author is not trusted)";
