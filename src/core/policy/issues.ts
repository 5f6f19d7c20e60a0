// zod issues → diagnostics: the field path, the value (shortened), the accepted shape, a hint,
// and the line:column of the value. The accepted shape is each schema's `error` text
// (schema.ts); custom checks carry their own problem statement and hint.
import type { z } from 'zod';
import { diagnostic } from '../diagnostics.js';
import type { Diagnostic } from '../types.js';
import { formatPath, kindOf, showKey, showValue } from './format.js';
import { POLICY_VERSION, PolicySchema } from './schema.js';
import type { Locate } from './source.js';
import { closest, typoOf } from './suggest.js';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

export interface IssueContext {
  file: string;
  /** The value as parsed from the file, before defaults. */
  raw: unknown;
  locate: Locate;
}

/** The value at `path` in a parsed document, or undefined when it is absent. */
export function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

interface SchemaNode {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, SchemaNode>;
      element?: SchemaNode;
      innerType?: SchemaNode;
      in?: SchemaNode;
    };
  };
}

function unwrap(node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let i = 0; current && i < 8; i++) {
    const next = current._zod.def.innerType ?? current._zod.def.in;
    if (!next) break;
    current = next;
  }
  return current;
}

/** The keys the schema accepts in the mapping at `path` (empty when it is not a mapping). */
export function knownKeysAt(path: Path): string[] {
  let node = unwrap(PolicySchema as unknown as SchemaNode);
  for (const segment of path) {
    const def = node?._zod.def;
    if (def?.type === 'object' && typeof segment === 'string') node = unwrap(def.shape?.[segment]);
    else if (def?.type === 'array') node = unwrap(def.element);
    else return [];
  }
  const def = node?._zod.def;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

/**
 * Unknown keys. A misspelling of a known key (`typoOf`: `budjet`, `Budget`, `keep-recent`) is an
 * error, since ignoring it would silently apply the default of the key meant. Any other unknown
 * key is ignored with a warning (seed 002: forward compatibility), or is an error when `strict`.
 * Messages name keys, never values.
 */
export function unknownKeyDiagnostics(
  objectPath: Path,
  keys: readonly string[],
  ctx: IssueContext,
  strict = false,
): Diagnostic[] {
  const known = knownKeysAt(objectPath);
  return keys.map((key) => {
    const path = [...objectPath, key];
    const where = formatPath(path);
    const at = { file: ctx.file, ...ctx.locate(path, 'key') };
    const typo = typoOf(key, known);
    if (typo !== undefined) {
      return diagnostic(
        'error',
        'unknown-key-typo',
        at,
        `unknown key ${where}: did you mean \`${typo}\`? A misspelt key is an error, since the setting would otherwise be silently ignored.`,
        `Rename it to \`${typo}\`, or delete it to use the default.`,
      );
    }
    const suggestion = closest(key, known);
    const hint = suggestion
      ? `Did you mean \`${suggestion}\`?`
      : `Remove it; the keys accepted ${objectPath.length === 0 ? 'at the top level' : `in ${formatPath(objectPath)}`} are ${known.join(', ')}.`;
    return strict
      ? diagnostic(
          'error',
          'unknown-key',
          at,
          `unknown key ${where}: strict mode accepts only the keys this release knows.`,
          hint,
        )
      : diagnostic('warning', 'unknown-key', at, `unknown key ${where}: it is ignored.`, hint);
  });
}

const BOOLEAN_WORDS = /^(true|false|yes|no|on|off|y|n)$/i;

function lastKey(path: Path): string {
  const key = [...path].reverse().find((segment) => typeof segment === 'string');
  return key === undefined ? 'the value' : showKey(key);
}

function typeHint(expected: string, value: unknown, path: Path): string {
  if ((expected === 'number' || expected === 'int') && typeof value === 'string' && value.trim() !== '') {
    if (Number.isFinite(Number(value))) return 'Write the number without quotes.';
  }
  if (expected === 'int' && typeof value === 'number') return 'Use a whole number.';
  if (expected === 'boolean' && typeof value === 'string' && BOOLEAN_WORDS.test(value)) {
    return 'Write true or false without quotes (YAML 1.2 reads yes, no, on and off as text).';
  }
  if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return 'Quote the value to make it text.';
  }
  if (expected === 'array') return 'Write a list: `[a, b]`, or one `- item` per line.';
  if (expected === 'object') {
    return `Write the keys of ${lastKey(path)} indented under it (\`context-stability policy print-default\` shows the layout).`;
  }
  return 'Change the value to the accepted shape.';
}

function sizeHint(issue: Issue): string {
  if (issue.code === 'too_small') {
    if (issue.origin === 'string') return 'Remove the empty entry, or give it a value.';
    if (issue.origin === 'array') return 'Add at least one entry, or delete the key to use the default.';
  }
  if (issue.code === 'too_big') {
    if (issue.origin === 'string') return `Shorten it to at most ${String(issue.maximum)} characters.`;
    if (issue.origin === 'array') return `Keep at most ${String(issue.maximum)} entries.`;
  }
  return 'Use a value within the accepted range.';
}

function hintFor(issue: Issue, value: unknown, path: Path): string {
  switch (issue.code) {
    case 'invalid_value': {
      const accepted = issue.values.filter((v): v is string => typeof v === 'string');
      const suggestion = typeof value === 'string' ? closest(value, accepted) : undefined;
      return suggestion ? `Did you mean \`${suggestion}\`?` : 'Use one of the accepted values.';
    }
    case 'invalid_type':
      return typeHint(issue.expected, value, path);
    case 'too_small':
    case 'too_big':
      return sizeHint(issue);
    case 'invalid_format':
      return 'Use lower-case letters, digits and underscores, starting with a letter, e.g. `employee_id`.';
    default:
      return 'Change the value to the accepted shape.';
  }
}

// `key:` with nothing after it reads as null, which is rarely what the author meant.
function nullHint(issue: Issue): string {
  const empty =
    issue.code !== 'invalid_type'
      ? ''
      : issue.expected === 'array'
        ? ' Write [] for an empty list.'
        : issue.expected === 'object'
          ? ' Write {} to keep every default.'
          : '';
  return `Give it a value, or delete the key to use the default.${empty}`;
}

function versionDiagnostic(value: unknown, ctx: IssueContext): Diagnostic {
  const later = typeof value === 'number' && Number.isInteger(value) && value > POLICY_VERSION;
  return diagnostic(
    'error',
    'unsupported-version',
    { file: ctx.file, ...ctx.locate(['version']) },
    `version ${showValue(value)} is not supported: this release reads policy version ${POLICY_VERSION}.`,
    later
      ? `Upgrade context-stability to a release that reads version ${String(value)}, or rewrite the policy for version ${POLICY_VERSION}.`
      : `Set \`version: ${POLICY_VERSION}\`.`,
  );
}

function describeProblem(issue: Issue, where: string, value: unknown, present: boolean): string {
  const accepts = issue.message;
  if (!present) return `${where} is missing; expected ${accepts}.`;
  if (value === null) return `${where} is empty (null); expected ${accepts}.`;
  if (issue.code === 'invalid_type' && typeof value === 'object') {
    return `${where}: found ${kindOf(value)}; expected ${accepts}.`;
  }
  if (issue.code === 'invalid_type')
    return `${where}: ${showValue(value)} is ${kindOf(value)}; expected ${accepts}.`;
  return `${where}: ${showValue(value)} is not valid; expected ${accepts}.`;
}

/** One schema issue (other than an unknown key) as an error diagnostic. */
export function issueDiagnostic(issue: Issue, ctx: IssueContext): Diagnostic {
  const path = issue.path as Path;
  const value = valueAt(ctx.raw, path);
  const parent = valueAt(ctx.raw, path.slice(0, -1));
  const present =
    path.length === 0 ||
    (parent !== null &&
      typeof parent === 'object' &&
      Object.hasOwn(parent, path[path.length - 1] as PropertyKey));
  if (path.length === 1 && path[0] === 'version') return versionDiagnostic(value, ctx);

  const at = { file: ctx.file, ...ctx.locate(path) };
  const where = formatPath(path);
  if (path.length === 0) {
    return diagnostic(
      'error',
      'invalid-value',
      at,
      `the policy must be a mapping of keys; found ${kindOf(value)}.`,
      'Start from the output of `context-stability policy print-default`.',
    );
  }
  if (issue.code === 'custom') {
    const hint = (issue.params as { hint?: unknown } | undefined)?.hint;
    return diagnostic(
      'error',
      'invalid-value',
      at,
      `${where}: ${issue.message}`,
      typeof hint === 'string' ? hint : 'Change the value to the accepted shape.',
    );
  }
  const hint = !present
    ? `Add \`${lastKey(path)}:\` here.`
    : value === null
      ? nullHint(issue)
      : hintFor(issue, value, path);
  return diagnostic('error', 'invalid-value', at, describeProblem(issue, where, value, present), hint);
}
