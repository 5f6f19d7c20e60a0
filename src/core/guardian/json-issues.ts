// Schema problems of a guardian JSON file (state or patch) as diagnostics at file:line:column.
// Messages name the field path and the accepted shape, never the value: state files hold the
// agent's notes, which may quote user data.
import type { z } from 'zod';
import { diagnostic } from '../diagnostics.js';
import type { JsonPos } from '../json/parse.js';
import { formatJsonPath, isShowableKey } from '../json/path.js';
import type { Diagnostic } from '../types.js';

export interface JsonIssueContext {
  file: string;
  /** The parsed document and the start position of each of its objects and arrays. */
  value: unknown;
  positions: Map<object, JsonPos>;
  /** Diagnostic code, e.g. `guardian-state-field`. */
  code: string;
  hint: string;
}

type Segment = string | number;

/** Position of the deepest object or array on `path` (scalars have no position of their own). */
export function locate(value: unknown, positions: Map<object, JsonPos>, path: readonly Segment[]): JsonPos {
  let best: JsonPos = { line: 1, column: 1 };
  let node: unknown = value;
  for (let i = 0; ; i++) {
    if (node === null || typeof node !== 'object') break;
    best = positions.get(node) ?? best;
    const segment = path[i];
    if (segment === undefined) break;
    node = (node as Record<Segment, unknown>)[segment];
  }
  return best;
}

function segments(path: readonly PropertyKey[]): Segment[] {
  return path.map((s) => (typeof s === 'number' ? s : String(s)));
}

function describe(issue: z.core.$ZodIssue): string {
  const at = formatJsonPath(segments(issue.path));
  switch (issue.code) {
    case 'invalid_type':
      return 'input' in issue && issue.input !== undefined
        ? `${at} must be ${article(issue.expected)}.`
        : `${at} is missing.`;
    case 'invalid_value':
      return `${at} must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}.`;
    case 'too_big':
      return `${at} is too ${issue.origin === 'array' ? 'long' : 'large'} (at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}).`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${at} must not be empty.`
        : `${at} must be at least ${String(issue.minimum)}.`;
    case 'invalid_format':
      return `${at} must be an ISO 8601 date-time (e.g. 2025-01-31T12:00:00Z).`;
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => (isShowableKey(k) ? k : '[…]'));
      return `${at} has unknown field${keys.length === 1 ? '' : 's'} ${keys.join(', ')}.`;
    }
    default:
      return `${at} is invalid.`;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return `a ${expected}`;
}

/** One diagnostic per issue, positioned at the enclosing object or array. */
export function jsonIssueDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  ctx: JsonIssueContext,
): Diagnostic[] {
  return issues.map((issue) => {
    const pos = locate(ctx.value, ctx.positions, segments(issue.path));
    return diagnostic('error', ctx.code, { file: ctx.file, ...pos }, describe(issue), ctx.hint);
  });
}
