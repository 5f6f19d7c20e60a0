// The seed's startup branch as a pure function of what was read from disk. The edge reads the
// state and summary files, this decides, and the edge performs the writes the decision asks for
// (initialize, rewrite the summary, or nothing) and emits the signal.
import { diagnostic } from '../diagnostics.js';
import type { Diagnostic } from '../types.js';
import { parseTaskState } from './parse-state.js';
import { STATUS_COMPLETE, STATUS_MISSING_STATE } from './signals.js';
import { isTerminalAction } from './state.js';
import type { TaskState } from './state.js';
import { summaryConflicts } from './summary-parse.js';
import type { SummaryConflict } from './summary-parse.js';

/** What the edge found at a path: nothing, text, or a file it could not use (with the reason). */
export type FileRead =
  { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'unusable'; diagnostic: Diagnostic };

export type MissingReason =
  /** The summary exists but the durable state does not (startup step 2). */
  | 'summary-without-state'
  /** The state file exists but cannot be read (I/O error, link, not a regular file). */
  | 'unreadable'
  | 'malformed'
  | 'legacy'
  /** Required fields missing or invalid (step 3). */
  | 'incomplete'
  /** next_action is empty (step 4). */
  | 'empty-next-action'
  /** The state is fine but the summary is missing or unreadable (step 8). */
  | 'summary-missing';

/** Reasons whose state file `--archive` may move aside: the file cannot be used as it is. */
export const ARCHIVABLE_REASONS: ReadonlySet<MissingReason> = new Set([
  'summary-without-state',
  'unreadable',
  'malformed',
  'legacy',
  'incomplete',
]);

export interface SummaryStatus {
  present: boolean;
  conflicts: SummaryConflict[];
  /** The summary must be written from the durable state (absent or conflicting). */
  rewrite: boolean;
}

export type StartupDecision =
  /** Nothing exists: write the initial state (next_action START) and summary, then continue. */
  | { kind: 'initialize' }
  | {
      kind: 'missing_state';
      signal: typeof STATUS_MISSING_STATE;
      reason: MissingReason;
      diagnostics: Diagnostic[];
      /** The state when it was readable (empty-next-action, summary-missing). */
      state?: TaskState;
    }
  /** next_action is DONE/COMPLETE/FINISH: write the final state + summary, emit STATUS:COMPLETE. */
  | { kind: 'complete'; signal: typeof STATUS_COMPLETE; state: TaskState; summary: SummaryStatus }
  /** Safe recovery: continue (rewriting the summary first when `summary.rewrite`). */
  | { kind: 'ready'; state: TaskState; summary: SummaryStatus };

export interface StartupFiles {
  /** The names diagnostics give the files, e.g. `task-state.json`. */
  state: string;
  summary: string;
}

function missing(
  reason: MissingReason,
  diagnostics: Diagnostic[],
  state?: TaskState,
): Extract<StartupDecision, { kind: 'missing_state' }> {
  return {
    kind: 'missing_state',
    signal: STATUS_MISSING_STATE,
    reason,
    diagnostics,
    ...(state ? { state } : {}),
  };
}

function summaryStatus(state: TaskState, summary: FileRead): SummaryStatus {
  if (summary.kind !== 'text') return { present: false, conflicts: [], rewrite: true };
  const conflicts = summaryConflicts(state, summary.text);
  return { present: true, conflicts, rewrite: conflicts.length > 0 };
}

export function decideStartup(state: FileRead, summary: FileRead, files: StartupFiles): StartupDecision {
  if (state.kind === 'absent') {
    if (summary.kind === 'absent') return { kind: 'initialize' };
    return missing('summary-without-state', [
      diagnostic(
        'error',
        'guardian-state-missing',
        { file: files.state, line: 1, column: 1 },
        `the durable task state is missing while the summary ${files.summary} exists: the task cannot be resumed safely.`,
        'Restore the state file, or run `guardian ensure --archive` to move the summary to archive/ and start a new task.',
      ),
    ]);
  }
  if (state.kind === 'unusable') return missing('unreadable', [state.diagnostic]);

  const parsed = parseTaskState(state.text, files.state);
  if (parsed.kind !== 'valid') return missing(parsed.kind, parsed.diagnostics);
  const current = parsed.state;

  if (current.next_action.trim() === '') {
    return missing(
      'empty-next-action',
      [
        diagnostic(
          'error',
          'guardian-next-action-empty',
          { file: files.state, line: 1, column: 1 },
          'next_action is empty: there is no safe next step to resume.',
          'A human decides the next step and records it with `guardian checkpoint --next-action TEXT`.',
        ),
      ],
      current,
    );
  }
  // Completion comes before the summary read (runtime loop step 1, startup step 5).
  if (isTerminalAction(current.next_action)) {
    return {
      kind: 'complete',
      signal: STATUS_COMPLETE,
      state: current,
      summary: summaryStatus(current, summary),
    };
  }
  if (summary.kind !== 'text') {
    const found =
      summary.kind === 'unusable'
        ? summary.diagnostic
        : diagnostic(
            'error',
            'guardian-summary-missing',
            { file: files.summary, line: 1, column: 1 },
            'the structured summary is missing.',
            'The durable state is intact: `guardian checkpoint` rewrites the summary from it.',
          );
    return missing('summary-missing', [found], current);
  }
  return { kind: 'ready', state: current, summary: summaryStatus(current, summary) };
}
