// Reads a machine report written by `check --report` (a shard's, for `merge`). The file comes
// from another job, so its shape is checked before anything relies on it; problems are
// diagnostics at the offending value, never an echo of the file's content.
import { diagnostic } from '../../core/diagnostics.js';
import { CHECK_REPORT_SCHEMA } from '../../core/golden/check-report.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import { parseJson } from '../../core/json/parse.js';
import type { Diagnostic } from '../../core/types.js';
import { readInput } from '../../io/read-input.js';

/** Reports carry unified diffs: larger than a transcript may be. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

export type ReadReportResult = { ok: true; report: CheckReport } | { ok: false; diagnostic: Diagnostic };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isOutcome(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value['transcript'] === 'string' &&
    typeof value['golden'] === 'string' &&
    typeof value['outcome'] === 'string' &&
    Array.isArray(value['violations'])
  );
}

/** The first top-level field that does not have the shape `merge` relies on, or null. */
function badField(value: Json): string | null {
  const checks: [string, (v: unknown) => boolean][] = [
    ['tool', (v) => isObject(v) && typeof v['name'] === 'string' && typeof v['version'] === 'string'],
    ['ci', (v) => typeof v === 'boolean'],
    ['policy', (v) => isObject(v) && typeof v['source'] === 'string' && typeof v['hash'] === 'string'],
    ['base_policy', (v) => v === undefined || (isObject(v) && typeof v['hash'] === 'string')],
    ['tokenizer', (v) => isObject(v) && typeof v['name'] === 'string' && typeof v['version'] === 'string'],
    [
      'shard',
      (v) => v === null || (isObject(v) && Number.isInteger(v['index']) && Number.isInteger(v['total'])),
    ],
    ['golden_dir', (v) => typeof v === 'string'],
    ['golden_files', isStringArray],
    ['transcripts', (v) => Array.isArray(v) && v.every(isOutcome)],
    ['obsolete', (v) => v === null || isStringArray(v)],
  ];
  for (const [field, ok] of checks) if (!ok(value[field])) return field;
  return null;
}

export async function readCheckReport(file: string, cwd: string): Promise<ReadReportResult> {
  const input = await readInput(file, { cwd, maxFileBytes: MAX_REPORT_BYTES });
  if (!input.ok) return { ok: false, diagnostic: input.error };
  const parsed = parseJson(input.text, { file });
  if (!parsed.ok) return { ok: false, diagnostic: parsed.error };
  const value = parsed.value;
  const fail = (message: string, hint: string): ReadReportResult => ({
    ok: false,
    diagnostic: diagnostic('error', 'not-a-check-report', { file, line: 1, column: 1 }, message, hint),
  });
  const hint = 'Pass the files that `context-stability check --shard i/n --report FILE` wrote.';
  if (!isObject(value) || typeof value['schema_version'] !== 'number') {
    return fail('The file is not a check report (it has no schema_version).', hint);
  }
  if (value['schema_version'] !== CHECK_REPORT_SCHEMA) {
    return fail(
      `The report has schema version ${String(value['schema_version'])}; this version reads schema ${CHECK_REPORT_SCHEMA}.`,
      'Merge reports written by the same version of context-stability.',
    );
  }
  const field = badField(value);
  if (field !== null)
    return fail(`The report's field ${field} is missing or does not have the expected shape.`, hint);
  return { ok: true, report: value as unknown as CheckReport };
}
