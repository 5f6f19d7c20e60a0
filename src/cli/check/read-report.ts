// Reads a machine report written by `check --report` (a shard's, for `merge`). The file comes
// from another job, possibly a fork's artifact, so it is held to the report contract
// (core/golden/report-contract.ts) before anything relies on it; a breach is one diagnostic at
// the offending value (its line and column, or those of the object or array holding it, and its
// JSON path), never an echo of the file's content.
import { diagnostic } from '../../core/diagnostics.js';
import { CHECK_REPORT_SCHEMA } from '../../core/golden/check-report.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import { checkReportContract } from '../../core/golden/report-contract.js';
import type { ReportPath } from '../../core/golden/report-contract.js';
import { parseJson } from '../../core/json/parse.js';
import type { JsonPos } from '../../core/json/parse.js';
import { formatJsonPath } from '../../core/json/path.js';
import type { Diagnostic } from '../../core/types.js';
import { readInput } from '../../io/read-input.js';

/** Reports carry unified diffs: larger than a transcript may be. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

export type ReadReportResult = { ok: true; report: CheckReport } | { ok: false; diagnostic: Diagnostic };

const HINT =
  'Pass the files that `context-stability check --report FILE` wrote (each shard with --shard i/n), unedited; ' +
  'a report from an untrusted job may have been tampered with.';

/** The position of the value at `path`, or of the innermost object or array on the way to it. */
function positionOf(root: unknown, path: ReportPath, positions: Map<object, JsonPos>): JsonPos {
  let best: JsonPos = { line: 1, column: 1 };
  let value: unknown = root;
  for (let i = 0; ; i++) {
    if (value === null || typeof value !== 'object') return best;
    best = positions.get(value) ?? best;
    const key = path[i];
    if (key === undefined || !Object.hasOwn(value, key)) return best;
    value = (value as Record<string | number, unknown>)[key];
  }
}

export async function readCheckReport(file: string, cwd: string): Promise<ReadReportResult> {
  const input = await readInput(file, { cwd, maxFileBytes: MAX_REPORT_BYTES });
  if (!input.ok) return { ok: false, diagnostic: input.error };
  const parsed = parseJson(input.text, { file });
  if (!parsed.ok) return { ok: false, diagnostic: parsed.error };
  const value = parsed.value;
  const fail = (at: JsonPos, message: string, hint: string): ReadReportResult => ({
    ok: false,
    diagnostic: diagnostic('error', 'not-a-check-report', { file, ...at }, message, hint),
  });
  const start = { line: 1, column: 1 };
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const version = isObject ? (value as Record<string, unknown>)['schema_version'] : undefined;
  if (typeof version !== 'number') {
    return fail(start, 'The file is not a check report (it has no schema_version).', HINT);
  }
  if (version !== CHECK_REPORT_SCHEMA) {
    // A number only: it says which version wrote the report, and quotes nothing else.
    return fail(
      start,
      `The report has schema version ${String(version)}; this version reads schema ${CHECK_REPORT_SCHEMA}.`,
      'Merge reports written by the same version of context-stability.',
    );
  }
  const checked = checkReportContract(value);
  if (checked.ok) return { ok: true, report: checked.report };
  const { path, expected } = checked.breach;
  return fail(
    positionOf(value, path, parsed.positions),
    `The report does not keep the check report contract: ${formatJsonPath(path)} must be ${expected}.`,
    HINT,
  );
}
