// User PII rules (`pii.rules`) compiled with re2js: linear-time matching, so a policy pattern
// can never hang a run on a hostile transcript (no backtracking, no lookaround). Compiled
// once when the policy is parsed; masking takes `{ name, re }` as it is.
import { RE2JS } from 're2js';
import { diagnostic } from '../diagnostics.js';
import type { Diagnostic } from '../types.js';
import { formatPath, showString } from './format.js';
import { HASH_PLACEHOLDER, LABEL_TEMPLATE, NUMBER_PLACEHOLDER, isPerValue } from '../pii/template.js';
import { PII_DETECTORS, TYPE_PLACEHOLDER } from './schema.js';
import type { Policy } from './schema.js';
import type { Locate, Position } from './source.js';

export interface CompiledRule {
  name: string;
  pattern: string;
  re: RE2JS;
}

export interface CompileRulesOptions {
  file: string;
  /** Positions of the policy's values; without it (a policy built in code) every finding is at 1:1. */
  locate?: Locate;
}

export interface CompileRulesResult {
  /** Every rule that compiled, in policy order; complete only when `diagnostics` has no error. */
  rules: CompiledRule[];
  diagnostics: Diagnostic[];
}

type CompileOutcome = { ok: true; re: RE2JS } | { ok: false; reason: string };

/** The replacement text for one detector type: `{TYPE}` becomes the upper-case type. */
export function replacementText(replacement: string, type: string): string {
  return replacement.split(TYPE_PLACEHOLDER).join(type.toUpperCase());
}

const UNSUPPORTED_SYNTAX = /\(\?<?[=!]|\\[1-9]/;

function compile(pattern: string): CompileOutcome {
  try {
    return { ok: true, re: RE2JS.compile(pattern) };
  } catch (error) {
    const e = error as { getDescription?: () => string; input?: unknown };
    const reason = typeof e.getDescription === 'function' ? e.getDescription() : 'it cannot be compiled';
    // re2js names the offending fragment: quote it (shortened) when it narrows the pattern down.
    const fragment =
      typeof e.input === 'string' && e.input !== pattern && e.input !== '' ? ` ${showString(e.input)}` : '';
    return { ok: false, reason: `${reason}${fragment}` };
  }
}

// A pattern that matches empty text would insert a replacement between every two characters.
const EMPTY_MATCH_PROBES = ['', 'a 1_-.@\n'];

function matchesEmptyText(re: RE2JS): boolean {
  return EMPTY_MATCH_PROBES.some((probe) => [...re.matchAll(probe)].some((m) => m[0] === ''));
}

interface RuleCheck {
  file: string;
  at: (path: PropertyKey[]) => Position;
  out: Diagnostic[];
}

function invalid(check: RuleCheck, path: PropertyKey[], message: string, hint: string): void {
  check.out.push(
    diagnostic('error', 'invalid-value', { file: check.file, ...check.at(path) }, message, hint),
  );
}

/** Compiles one pattern, reporting a syntax error at `path`. */
function compileAt(check: RuleCheck, pattern: string, path: PropertyKey[]): RE2JS | undefined {
  const outcome = compile(pattern);
  if (!outcome.ok) {
    invalid(
      check,
      path,
      `${formatPath(path)}: ${showString(pattern)} is not a valid RE2 regular expression: ${outcome.reason}.`,
      UNSUPPORTED_SYNTAX.test(pattern)
        ? 'RE2 has no lookaround and no backreferences: rewrite the pattern without them.'
        : 'Fix the pattern; the syntax is RE2 (https://github.com/google/re2/wiki/Syntax), use (?i) for case-insensitive.',
    );
    return undefined;
  }
  if (matchesEmptyText(outcome.re)) {
    invalid(
      check,
      path,
      `${formatPath(path)}: ${showString(pattern)} matches empty text, so it would insert replacements everywhere.`,
      'Make the pattern require at least one character, e.g. `+` instead of `*`.',
    );
    return undefined;
  }
  return outcome.re;
}

function atFor(opts: CompileRulesOptions): (path: PropertyKey[]) => Position {
  const locate = opts.locate;
  return locate ? (path) => locate(path) : () => ({ line: 1, column: 1 });
}

/**
 * Compiles `pii.rules` of a schema-valid policy. Beyond syntax, each rule must keep masking
 * idempotent: it must not match empty text nor any replacement text, and a rule name that
 * becomes `{TYPE}` must not hold a digit run that `digit_run` would mask again.
 */
export function compileRules(policy: Pick<Policy, 'pii'>, opts: CompileRulesOptions): CompileRulesResult {
  const check: RuleCheck = { file: opts.file, at: atFor(opts), out: [] };
  const { rules, replacement, digit_run: digitRun } = policy.pii;
  const types = [...PII_DETECTORS, ...rules.map((r) => r.name)];
  // A numbered or hashed alias is checked by its fixed text (its digits are inert whatever a rule
  // matches, mask.ts), and tags and meta get the label form (template.ts).
  const perValue = isPerValue(replacement);
  const fixed = (type: string): string =>
    replacementText(replacement, type).replaceAll(NUMBER_PLACEHOLDER, '').replaceAll(HASH_PLACEHOLDER, '');
  const replacements = [
    ...new Set([
      ...types.map(fixed),
      ...(perValue ? types.map((type) => replacementText(LABEL_TEMPLATE, type)) : []),
    ]),
  ];
  const compiled: CompiledRule[] = [];

  rules.forEach((rule, index) => {
    const path = ['pii', 'rules', index, 'pattern'];
    const re = compileAt(check, rule.pattern, path);
    if (!re) return;
    const hit = replacements.find((text) => re.test(text));
    if (hit !== undefined) {
      invalid(
        check,
        path,
        `${formatPath(path)}: ${showString(rule.pattern)} matches the replacement text ${showString(hit)}, so masking would not be idempotent.`,
        'Make the pattern stricter, or change pii.replacement.',
      );
      return;
    }
    if (digitRun >= 2 && (perValue || replacement.includes(TYPE_PLACEHOLDER))) {
      const run = new RegExp(`[0-9]{${digitRun},}`).exec(rule.name);
      if (run) {
        invalid(
          check,
          ['pii', 'rules', index, 'name'],
          `${formatPath(['pii', 'rules', index, 'name'])}: ${showString(rule.name)} holds a run of ${run[0].length} digits that digit_run (${digitRun}) would mask again inside its replacement.`,
          'Rename the rule without that run of digits.',
        );
        return;
      }
    }
    compiled.push({ name: rule.name, pattern: rule.pattern, re });
  });
  return { rules: compiled, diagnostics: check.out };
}

/**
 * Syntax-checks the patterns of a policy that failed schema validation, so one run reports
 * every problem. `skip(index)` excludes rules whose pattern already has a schema error.
 */
export function checkRawRulePatterns(
  rawRules: unknown,
  opts: CompileRulesOptions & { skip: (index: number) => boolean },
): Diagnostic[] {
  if (!Array.isArray(rawRules)) return [];
  const check: RuleCheck = { file: opts.file, at: atFor(opts), out: [] };
  rawRules.forEach((rule: unknown, index) => {
    const pattern = (rule as { pattern?: unknown } | null)?.pattern;
    if (typeof pattern === 'string' && !opts.skip(index))
      compileAt(check, pattern, ['pii', 'rules', index, 'pattern']);
  });
  return check.out;
}
