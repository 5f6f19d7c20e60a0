// Reads a state file's text into a TaskState, or says why it cannot be used. The three failure
// kinds all stop the agent (STATUS:MISSING_STATE) and all protect the file from being
// overwritten: only an explicit archive step may move it aside.
import { diagnostic } from '../diagnostics.js';
import { parseJson } from '../json/parse.js';
import type { Diagnostic } from '../types.js';
import { jsonIssueDiagnostics } from './json-issues.js';
import { TASK_STATE_SCHEMA_ID, TaskStateSchema } from './state.js';
import type { TaskState } from './state.js';

/**
 * - `malformed`: not JSON, or not a JSON object.
 * - `legacy`: a JSON object without this module's `schema` marker (an older or foreign shape).
 * - `incomplete`: this module's shape with required fields missing or invalid (seed: "required
 *   fields are missing").
 */
export type StateProblem = 'malformed' | 'legacy' | 'incomplete';

export type ParsedState =
  { kind: 'valid'; state: TaskState } | { kind: StateProblem; diagnostics: Diagnostic[] };

const ARCHIVE_HINT =
  'The file is left untouched. Fix it by hand, or run `guardian ensure --archive` to move it to archive/ and start a new task state.';

export function parseTaskState(text: string, file: string): ParsedState {
  const parsed = parseJson(text, { file });
  if (!parsed.ok) {
    return { kind: 'malformed', diagnostics: [{ ...parsed.error, hint: ARCHIVE_HINT }] };
  }
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      kind: 'malformed',
      diagnostics: [
        diagnostic(
          'error',
          'guardian-state-malformed',
          { file, line: 1, column: 1 },
          'the task state must be one JSON object.',
          ARCHIVE_HINT,
        ),
      ],
    };
  }
  const marker = (value as Record<string, unknown>).schema;
  if (marker !== TASK_STATE_SCHEMA_ID) {
    const pos = parsed.positions.get(value) ?? { line: 1, column: 1 };
    const message =
      marker === undefined
        ? `the task state has no "schema": "${TASK_STATE_SCHEMA_ID}" field: it is a legacy or foreign state file.`
        : `the task state's "schema" field is not "${TASK_STATE_SCHEMA_ID}": it was written by another tool or version.`;
    return {
      kind: 'legacy',
      diagnostics: [diagnostic('error', 'guardian-state-legacy', { file, ...pos }, message, ARCHIVE_HINT)],
    };
  }
  const checked = TaskStateSchema.safeParse(value, { reportInput: true });
  if (!checked.success) {
    return {
      kind: 'incomplete',
      diagnostics: jsonIssueDiagnostics(checked.error.issues, {
        file,
        value,
        positions: parsed.positions,
        code: 'guardian-state-field',
        hint: ARCHIVE_HINT,
      }),
    };
  }
  return { kind: 'valid', state: checked.data };
}
