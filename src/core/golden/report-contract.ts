// The contract of a check report (`check --report`, a shard's for `merge`), checked value by value.
// A report file comes from another job, possibly a fork's artifact: before `merge` or the Action
// relies on it, every field its merge, its renderers and its exit code read must have the type and
// the range a report written by `check` has. Then merging and rendering it cannot throw (no
// negative counts for `repeat`, no shard count for a billion-element array, no string where a number
// is printed raw) and every string it shows is one the renderers escape as they do for `check`.
// Fields this version does not know are kept as they are (additive fields of a newer version with
// the same schema) and never shown.
import { ARTIFACT_KINDS } from '../types.js';
import { MAP_FATES } from './picture.js';
import { MAX_SHARDS } from './shard.js';
import { CHECK_REPORT_SCHEMA } from './check-report.js';
import type { CheckReport } from './check-report.js';

export type ReportPath = (string | number)[];

/** Where the report breaks the contract: the path of the bad value and what it should be. */
export interface ContractBreach {
  path: ReportPath;
  /** What the value should be, e.g. `a whole number from 0`. Never quotes the value. */
  expected: string;
}

type Check = (value: unknown, path: ReportPath) => ContractBreach | null;

const breach = (path: ReportPath, expected: string): ContractBreach => ({ path, expected });

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A name, id, path or message. Any string: ids and paths come from the transcripts and may hold
 * anything, and every surface shows them escaped (shownName, JSON, the runner's escaping), as it
 * does for `check`.
 */
const name: Check = (v, p) => (typeof v === 'string' ? null : breach(p, 'a string'));

/**
 * C0 controls but tab and line feed: stable JSON escapes them, so a unified diff of two goldens
 * holds none (it may hold C1 controls and U+2028, which JSON writes as they are).
 */
const C0_IN_TEXT = /[\u0000-\u0008\u000b-\u001f]/;

/** Multi-line text of ours (a unified diff of stable JSON): no other C0 control than tab and line feed. */
const text: Check = (v, p) =>
  typeof v !== 'string'
    ? breach(p, 'a string')
    : C0_IN_TEXT.test(v)
      ? breach(p, 'a string without control characters other than tab and line feed')
      : null;

/**
 * A unified diff of two goldens: lines of stable JSON behind a diff marker, so no line starts
 * with `::` after leading whitespace (Unicode's, as the runner trims it), which a shown line would
 * hand the runner as a workflow command.
 */
const diffText: Check = (v, p) =>
  text(v, p) ?? (/(^|\n)[\s\u0085]*::/.test(v as string) ? breach(p, 'a unified diff of two goldens') : null);

/** A count, token figure, line or column: a whole number from 0 (no sign, no fraction, no overflow). */
const count: Check = (v, p) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? null : breach(p, 'a whole number from 0');

/** A difference of two counts. */
const delta: Check = (v, p) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : breach(p, 'a whole number'));

/** A share of a prefix cache: from 0 to 1, or null when nothing was measured. */
const share: Check = (v, p) =>
  v === null || (typeof v === 'number' && v >= 0 && v <= 1) ? null : breach(p, 'a number from 0 to 1, or null');

const bool: Check = (v, p) => (typeof v === 'boolean' ? null : breach(p, 'true or false'));

function oneOf(values: readonly string[]): Check {
  const allowed = new Set(values);
  const expected = `one of ${values.join(', ')}`;
  return (v, p) => (typeof v === 'string' && allowed.has(v) ? null : breach(p, expected));
}

function nullable(check: Check): Check {
  return (v, p) => (v === null ? null : check(v, p));
}

function list(item: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return breach(p, 'an array');
    for (let i = 0; i < v.length; i++) {
      const bad = item(v[i], [...p, i]);
      if (bad) return bad;
    }
    return null;
  };
}

/** An object with string keys of `key` and values of `value` (a count by kind or by reason). */
function record(key: Check, value: Check): Check {
  return (v, p) => {
    if (!isRecord(v)) return breach(p, 'an object');
    for (const k of Object.keys(v)) {
      const bad = key(k, [...p, k]) ?? value(v[k], [...p, k]);
      if (bad) return bad;
    }
    return null;
  };
}

/**
 * A value of a field this version does not know: kept in the merged report, so it must be JSON
 * that can be written back (a number beyond a double, `1e400`, parses to Infinity, which cannot).
 * Iterative: the parser bounds the depth, this walk does not rely on it.
 */
const unknownField: Check = (v, p) => {
  const stack: [unknown, ReportPath][] = [[v, p]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, at] = top;
    if (typeof value === 'number' && !Number.isFinite(value)) return breach(at, 'a finite number');
    if (value !== null && typeof value === 'object') {
      const array = Array.isArray(value);
      for (const key of Object.keys(value)) {
        stack.push([(value as Record<string, unknown>)[key], [...at, array ? Number(key) : key]]);
      }
    }
  }
  return null;
};

/**
 * An object with the `required` fields and any of the `optional` ones (absent, never null); other
 * fields are kept as they are (unknownField).
 */
function shape(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  return (v, p) => {
    if (!isRecord(v)) return breach(p, 'an object');
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(v, key)) return breach([...p, key], 'present');
      const bad = check(v[key], [...p, key]);
      if (bad) return bad;
    }
    for (const key of Object.keys(v)) {
      const check = known.has(key) ? optional[key] : unknownField;
      if (check === undefined) continue;
      const bad = check(v[key], [...p, key]);
      if (bad) return bad;
    }
    return null;
  };
}

const SEVERITY = oneOf(['error', 'warning']);
const STATUS = oneOf(['ok', 'warning', 'escalated']);
const KIND = oneOf(ARTIFACT_KINDS);

const violation = shape(
  { check: name, severity: oneOf(['error', 'warning', 'off']), id: name, line: count, message: name },
  { column: count },
);

/** A diagnostic's kind: `json-syntax`, `not-found`… (a title of its annotation). */
const code: Check = (v, p) =>
  typeof v === 'string' && /^[a-z][a-z0-9_-]{0,63}$/.test(v) ? null : breach(p, 'a kebab-case code');

const diagnosticShape = shape({
  severity: SEVERITY,
  code,
  file: name,
  line: count,
  column: count,
  message: name,
  hint: name,
});

const fate = nullable(shape({ action: name, reason: name, tokens: count }));
const checkState = nullable(shape({ ok: bool, violations: count }));
const at = shape({ id: name, line: count });

const diff = shape({
  equal: bool,
  causes: list(name),
  metadata: list(name),
  first: nullable(at),
  status: nullable(shape({ before: name, after: name })),
  tokens: shape({ before: count, after: count, delta }),
  fates: list(shape({ id: name, line: count, before: fate, after: fate })),
  contentChanged: list(at),
  checks: list(shape({ name, before: checkState, after: checkState })),
});

const picture = shape({
  runs: list(shape({ fate: oneOf(MAP_FATES), count, line: count, id: name, tokens: count })),
  by_kind: record(KIND, count),
  consumers: list(shape({ id: name, kind: KIND, line: count, tokens: count, percent: count })),
});

const impactSide = shape(
  { status: STATUS, tokens: count, kept: count, masked: count, dropped: record(name, count), failing: list(name) },
  { cache_prefix: shape({ mean_share: share, min_share: share }), facts_lost: count },
);

const impact = shape({ transcript: name, base: impactSide, head: impactSide, newlyFailing: list(name), fixed: list(name) });

const cachePrefix = shape(
  {
    format: oneOf(['openai', 'anthropic', 'responses']),
    calls: count,
    replayed: count,
    turns: count,
    mean_share: share,
    min_share: share,
    reused_tokens: count,
    sent_tokens: count,
  },
  { lowest: shape({ id: name, line: count, turn_id: name, turn_line: count }) },
);

const lostFact = shape({
  value: name,
  needed: shape({ id: name, line: count, column: count, tool: name }),
  source: shape({ id: name, line: count, kind: name }),
  cause: name,
});

const retention = shape(
  { calls: count, replayed: count, facts: count, lost: count, lost_facts: list(lostFact) },
  { summary_findings: count },
);

/** The run a session stands for, as `check` writes it (golden-run.ts shownLabel): a plain identifier. */
const sessionLabel: Check = (v, p) =>
  typeof v === 'string' && /^[A-Za-z0-9][\w.\-/: #]{0,119}$/.test(v) ? null : breach(p, 'a plain identifier');

const outcome = shape(
  { transcript: name, golden: name, outcome: oneOf(['pass', 'drift', 'new', 'violations', 'error']), violations: list(violation) },
  {
    session_label: sessionLabel,
    drift_severity: SEVERITY,
    status: STATUS,
    budget: shape({ limit: count, used: count }),
    diff,
    unified: diffText,
    notes: list(name),
    picture,
    diagnostics: list(diagnosticShape),
    written: bool,
    impact,
    cache_prefix: cachePrefix,
    retention,
  },
);

const shard: Check = (v, p) => {
  if (v === null) return null;
  const bad = shape({ index: count, total: count })(v, p);
  if (bad) return bad;
  const { index, total } = v as { index: number; total: number };
  if (total < 1 || total > MAX_SHARDS) return breach([...p, 'total'], `a shard count from 1 to ${MAX_SHARDS}`);
  if (index < 1 || index > total) return breach([...p, 'index'], 'a shard index from 1 to the shard count');
  return null;
};

const counts = shape({
  checked: count,
  pass: count,
  drift: count,
  new: count,
  violations: count,
  errors: count,
  obsolete: count,
});

const report = shape(
  {
    schema_version: (v, p) => (v === CHECK_REPORT_SCHEMA ? null : breach(p, `schema version ${CHECK_REPORT_SCHEMA}`)),
    tool: shape({ name, version: name }),
    ci: bool,
    policy: shape({ source: name, hash: name }),
    tokenizer: shape({ name, version: name }),
    shard,
    golden_dir: name,
    golden_files: list(name),
    transcripts: list(outcome),
    obsolete: nullable(list(name)),
    // Recomputed by merge; still part of what `check` writes.
    summary: counts,
  },
  { base_policy: shape({ source: name, hash: name }) },
);

export type ContractResult = { ok: true; report: CheckReport } | { ok: false; breach: ContractBreach };

/** Whether `value` (a parsed report file) keeps the report contract; the first breach if not. */
export function checkReportContract(value: unknown): ContractResult {
  const bad = report(value, []);
  return bad ? { ok: false, breach: bad } : { ok: true, report: value as CheckReport };
}
