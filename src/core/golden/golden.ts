// Golden snapshots (DESIGN §6): the part of a transcript's report that CI pins, plus what it was
// made with (policy hash, tokenizer) so that a drift can name its cause. Built only from the
// report, which is already masked: nothing from the raw transcript, no timestamps, no absolute
// paths. Events are left out: they are run narration, not part of the contract.
import { z } from 'zod';
import { diagnostic } from '../diagnostics.js';
import { parseJson } from '../json/parse.js';
import type { JsonPos } from '../json/parse.js';
import { formatJsonPath } from '../json/path.js';
import type { Policy } from '../policy/schema.js';
import type { TranscriptReport } from '../report/report.js';
import { hash64Hex } from '../similarity/hash.js';
import { ACTIONS, STAGES } from '../stabilize/types.js';
import type { ContextItem, LedgerEntry, Status, SummaryLog } from '../stabilize/types.js';
import { ARTIFACT_KINDS } from '../types.js';
import type { Diagnostic } from '../types.js';
import type { CheckResult } from '../validate/types.js';
import { stableStringify } from './stable-json.js';

export const GOLDEN_SCHEMA = 1;

export interface Golden {
  schema: typeof GOLDEN_SCHEMA;
  /** Repo-relative, '/'-separated transcript path. */
  transcript: string;
  policy_hash: string;
  tokenizer: { name: string; version: string };
  status: Status;
  budget: { limit: number; used: number };
  context: ContextItem[];
  ledger: LedgerEntry[];
  summaries: SummaryLog[];
  checks: CheckResult[];
}

export interface GoldenMeta {
  transcript: string;
  policy: Policy;
  tokenizer: { name: string; version: string };
}

/**
 * Fingerprint of the normalized (defaults filled) policy: any edit that can change the output
 * changes it. The watchdog's limit is left out: it bounds how long a run may take, not what it
 * writes, so raising it must not turn every golden into a "policy changed" note.
 */
export function policyHash(policy: Policy): string {
  const { watchdog: _limit, ...effective } = policy;
  return hash64Hex(stableStringify(effective));
}

export function buildGolden(report: TranscriptReport, meta: GoldenMeta): Golden {
  return buildGoldenText(report, meta).golden;
}

/**
 * The golden and its file text, serialized once: the text is exactly `stableStringify(golden)`
 * (stableStringify is idempotent over its own output parsed back), so callers never serialize a
 * second time.
 */
export function buildGoldenText(report: TranscriptReport, meta: GoldenMeta): { golden: Golden; text: string } {
  const golden: Golden = {
    schema: GOLDEN_SCHEMA,
    transcript: meta.transcript,
    policy_hash: policyHash(meta.policy),
    tokenizer: { name: meta.tokenizer.name, version: meta.tokenizer.version },
    status: report.status,
    budget: { limit: report.budget.limit, used: report.budget.used },
    context: report.context,
    ledger: report.ledger,
    summaries: report.summaries,
    checks: report.checks,
  };
  // A plain copy as it reads back from disk (undefined fields gone, -0 as 0), so a freshly built
  // golden and a parsed one compare by value and never share objects with the report.
  const text = stableStringify(golden);
  return { golden: JSON.parse(text) as Golden, text };
}

// The shape a golden must have to be compared. Objects are loose: a field added to the report
// model later must not make older tooling reject goldens, and unknown fields still take part in
// the comparison.
const str = z.string();
const int = z.number().int();
const count = z.number().int().min(0);
const strings = z.array(str);

const ContentSchema = z.union([str, z.array(z.looseObject({ type: str }))]);

const ContextItemSchema = z.looseObject({
  id: str,
  kind: z.enum(ARTIFACT_KINDS),
  role: str.optional(),
  tokens: count,
  content: ContentSchema,
  tool: str.optional(),
  call_id: str.optional(),
  call_ids: strings.optional(),
  tool_calls: z.array(z.looseObject({ id: str, name: str, arguments: str })).optional(),
  is_error: z.boolean().optional(),
  placeholder: z.boolean().optional(),
  excerpt: z.boolean().optional(),
  line: int,
});

const LedgerEntrySchema = z.looseObject({
  id: str,
  stage: z.enum(STAGES),
  action: z.enum(ACTIONS),
  reason: str,
  detail: str.optional(),
  tokens_before: count.nullable(),
  tokens_after: count,
  duplicate_of: str.optional(),
  protected_by: strings.optional(),
  pii: z.record(str, count).optional(),
  line: int,
});

const SummaryLogSchema = z.looseObject({
  id: str,
  status: z.enum(['valid', 'expired', 'invalid']),
  reasons: strings,
  age: z.number(),
  ttl: z.number(),
  provenance: strings,
  line: int,
});

const CheckResultSchema = z.looseObject({
  name: str,
  ok: z.boolean(),
  severity: z.enum(['error', 'warning', 'off']),
  violations: z.array(z.looseObject({ id: str, line: int, message: str })),
});

const GoldenSchema = z.looseObject({
  schema: z.literal(GOLDEN_SCHEMA),
  transcript: str,
  policy_hash: str,
  tokenizer: z.looseObject({ name: str, version: str }),
  status: z.enum(['ok', 'warning', 'escalated']),
  budget: z.looseObject({ limit: count, used: count }),
  context: z.array(ContextItemSchema),
  ledger: z.array(LedgerEntrySchema),
  summaries: z.array(SummaryLogSchema),
  checks: z.array(CheckResultSchema),
});

const REGENERATE_HINT =
  'Restore the golden from version control, or regenerate it with `context-stability update` and review the diff.';

export type ParseGoldenResult = { ok: true; golden: Golden } | { ok: false; diagnostic: Diagnostic };

/** Reads a golden file's text; `file` is the path as shown to the user (diagnostics only). */
export function parseGolden(text: string, file: string): ParseGoldenResult {
  const parsed = parseJson(text, { file });
  if (!parsed.ok) return { ok: false, diagnostic: { ...parsed.error, hint: REGENERATE_HINT } };
  const { value, positions } = parsed;

  const top = isRecord(value) ? value : undefined;
  const start = (top && positions.get(top)) ?? { line: 1, column: 1 };
  if (top && 'schema' in top && top['schema'] !== GOLDEN_SCHEMA) {
    const newer = typeof top['schema'] === 'number' && top['schema'] > GOLDEN_SCHEMA;
    return {
      ok: false,
      diagnostic: diagnostic(
        'error',
        'golden-schema-version',
        { file, ...start },
        newer
          ? `The golden was written by a newer version of context-stability (schema above ${GOLDEN_SCHEMA}).`
          : `The golden has an unsupported schema version; this version reads schema ${GOLDEN_SCHEMA}.`,
        newer ? 'Upgrade context-stability to the version that wrote it.' : REGENERATE_HINT,
      ),
    };
  }

  const result = GoldenSchema.safeParse(value);
  if (result.success) return { ok: true, golden: value as Golden };
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).filter((s): s is string | number => typeof s !== 'symbol');
  return {
    ok: false,
    diagnostic: diagnostic(
      'error',
      'golden-shape',
      { file, ...positionOf(value, path, positions, start) },
      `The value at ${formatJsonPath(path)} does not have the shape of a golden snapshot: ${describeIssue(issue, isPresent(value, path))}.`,
      REGENERATE_HINT,
    ),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isPresent(root: unknown, path: readonly (string | number)[]): boolean {
  let node: unknown = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node !== undefined;
}

/** Start of the deepest object or array on `path`: the closest position the parser recorded. */
function positionOf(
  root: unknown,
  path: readonly (string | number)[],
  positions: Map<object, JsonPos>,
  fallback: JsonPos,
): JsonPos {
  let best = fallback;
  let node: unknown = root;
  for (const segment of [undefined, ...path]) {
    if (segment !== undefined) {
      if (node === null || typeof node !== 'object') break;
      node = (node as Record<string | number, unknown>)[segment];
    }
    if (node !== null && typeof node === 'object') best = positions.get(node) ?? best;
  }
  return best;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function typeWords(expected: string): string {
  return TYPE_WORDS[expected] ?? expected;
}

// Written from the issue's code, never from zod's message: the message text may evolve and the
// description must not echo the input.
function describeIssue(issue: z.core.$ZodIssue | undefined, present: boolean): string {
  switch (issue?.code) {
    case 'invalid_type':
      return present
        ? `expected ${typeWords(issue.expected)}`
        : `the required field is missing (expected ${typeWords(issue.expected)})`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `expected at least ${String(issue.minimum)}`;
    case 'too_big':
      return `expected at most ${String(issue.maximum)}`;
    case 'invalid_union':
      return 'expected a string or a list of content parts';
    case 'invalid_format':
      return `expected ${issue.format}`;
    default:
      return 'the value is not valid here';
  }
}
