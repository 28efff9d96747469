import type { Ignore } from "ignore";

/**
 * The one reach into `ignore`'s internals (the pinned version keeps its compiled rules at `_rules._rules`,
 * each `{ negative, regex }`). `src/core/ignore-compiled.test.ts` fails loudly when an upgrade moves them;
 * until then, callers fall back to the public `ig.test`.
 */
export interface CompiledRule {
  readonly negative: boolean;
  readonly regex: RegExp;
}

/** The compiled rules of `ig` in order (the last match decides), or undefined for another `ignore` build. */
export function compiledRules(ig: Ignore): readonly CompiledRule[] | undefined {
  const rules = (ig as unknown as { _rules?: { _rules?: unknown } })._rules?._rules;
  return Array.isArray(rules) && rules.every(isCompiledRule) ? rules : undefined;
}

function isCompiledRule(r: unknown): r is CompiledRule {
  const rule = r as Partial<CompiledRule> | null;
  return typeof rule?.negative === "boolean" && rule.regex instanceof RegExp;
}
