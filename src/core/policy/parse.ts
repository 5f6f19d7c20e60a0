// Policy text (YAML or JSON) → a validated, defaulted, frozen Policy plus its compiled PII
// rules, with every problem found reported at once and at its line:column (DESIGN §3).
import { diagnostic, hasErrors } from '../diagnostics.js';
import type { Diagnostic } from '../types.js';
import { DEFAULT_POLICY } from './default.js';
import { deepFreeze } from './freeze.js';
import { issueDiagnostic, unknownKeyDiagnostics } from './issues.js';
import type { IssueContext } from './issues.js';
import { checkRawRulePatterns, compileRules } from './rules.js';
import type { CompiledRule } from './rules.js';
import { PolicySchema } from './schema.js';
import type { Policy } from './schema.js';
import { readPolicySource } from './source.js';
import type { Locate } from './source.js';

/**
 * `rules` are `policy.pii.rules` compiled (same order), so later stages never recompile.
 * `ok: true` may carry warnings (unknown keys, an empty file); `ok: false` has at least one error.
 */
export type ParsePolicyResult = ParsedPolicy | { ok: false; diagnostics: Diagnostic[] };

export interface ParsedPolicy {
  ok: true;
  policy: Policy;
  rules: CompiledRule[];
  diagnostics: Diagnostic[];
}

export interface ParsePolicyOptions {
  /** The name diagnostics give the policy, e.g. `.github/context-policy.yml`. */
  file: string;
  /**
   * Unknown keys are errors rather than warnings (`policy validate --strict`). A misspelling of a
   * known key (`budjet`) is an error either way.
   */
  strict?: boolean;
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.column - b.column;
}

/** A copy of `value` without the keys at `paths` (unknown keys, so the defaults can apply). */
function withoutKeys(
  value: unknown,
  paths: readonly (readonly PropertyKey[])[],
  at: PropertyKey[] = [],
): unknown {
  if (Array.isArray(value)) return value.map((item, index) => withoutKeys(item, paths, [...at, index]));
  if (value === null || typeof value !== 'object') return value;
  const depth = at.length;
  const drop = new Set(
    paths
      .filter((p) => p.length === depth + 1 && at.every((segment, i) => p[i] === segment))
      .map((p) => String(p[depth])),
  );
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !drop.has(key))
      .map(([key, child]) => [key, withoutKeys(child, paths, [...at, key])]),
  );
}

/**
 * The document without a top-level `$schema` string: the JSON Schema reference a JSON policy
 * carries for editors (docs/policy.md). It is not a setting, so it never reaches the Policy (nor
 * its hash); any other `$schema` value is an unknown key like any other.
 */
function withoutSchemaReference(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (!Object.hasOwn(value, '$schema') || typeof (value as Record<string, unknown>)['$schema'] !== 'string') {
    return value;
  }
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '$schema'));
}

function validate(
  document: unknown,
  opts: ParsePolicyOptions,
  locate: Locate,
  found: Diagnostic[],
): ParsePolicyResult {
  const { file } = opts;
  const raw = withoutSchemaReference(document);
  const ctx: IssueContext = { file, raw, locate };
  const diagnostics = [...found];
  const first = PolicySchema.safeParse(raw);
  let policy = first.success ? first.data : undefined;

  if (!first.success) {
    const unknown: PropertyKey[][] = [];
    const invalidPaths: (readonly PropertyKey[])[] = [];
    for (const issue of first.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        diagnostics.push(...unknownKeyDiagnostics(issue.path, issue.keys, ctx, opts.strict === true));
        unknown.push(...issue.keys.map((key) => [...issue.path, key]));
      } else {
        diagnostics.push(issueDiagnostic(issue, ctx));
        invalidPaths.push(issue.path);
      }
    }
    if (invalidPaths.length === 0) {
      const second = PolicySchema.safeParse(withoutKeys(raw, unknown));
      if (second.success) policy = second.data;
      else diagnostics.push(...second.error.issues.map((issue) => issueDiagnostic(issue, ctx)));
    } else {
      const rawRules = (raw as { pii?: { rules?: unknown } } | null)?.pii?.rules;
      const hasIssue = (index: number) =>
        invalidPaths.some((p) => p[0] === 'pii' && p[1] === 'rules' && p[2] === index && p[3] === 'pattern');
      diagnostics.push(...checkRawRulePatterns(rawRules, { file, locate, skip: hasIssue }));
    }
  }

  if (!policy || hasErrors(diagnostics)) return { ok: false, diagnostics: diagnostics.sort(byPosition) };
  const compiled = compileRules(policy, { file, locate });
  diagnostics.push(...compiled.diagnostics);
  diagnostics.sort(byPosition);
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  return { ok: true, policy: deepFreeze(policy), rules: compiled.rules, diagnostics };
}

/** Parses and validates a policy file's text. Never throws on bad input. */
export function parsePolicy(text: string, opts: ParsePolicyOptions): ParsePolicyResult {
  const source = readPolicySource(text, opts.file);
  if (source.empty) {
    // An empty file is most likely a policy still being written: usable, but said out loud.
    const warning = diagnostic(
      'warning',
      'empty-policy',
      { file: opts.file, line: 1, column: 1 },
      'the policy file is empty: the built-in default policy applies.',
      'Add the settings you want to change (`context-stability policy print-default` shows them all), or delete the file.',
    );
    return parseDefault([warning]);
  }
  if (source.value === undefined) return { ok: false, diagnostics: source.diagnostics.sort(byPosition) };
  return validate(source.value, opts, source.locate, source.diagnostics);
}

/**
 * Validates a policy given as a value (a library caller's object) with the same rules and
 * messages as a file. There is no source text, so every diagnostic is at 1:1 of `file`.
 */
export function policyFromObject(value: unknown, opts: ParsePolicyOptions): ParsePolicyResult {
  return validate(value, opts, () => ({ line: 1, column: 1 }), []);
}

/** The built-in default policy with its (empty) compiled rules. */
function parseDefault(diagnostics: Diagnostic[]): ParsedPolicy {
  const compiled = compileRules(DEFAULT_POLICY, { file: '(built-in default)' });
  return { ok: true, policy: DEFAULT_POLICY, rules: compiled.rules, diagnostics };
}

/** The built-in default policy as a parse result, for callers that have no policy file. */
export function defaultPolicyResult(): ParsedPolicy {
  return parseDefault([]);
}
