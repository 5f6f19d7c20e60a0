// The fixed-format result every guardian command prints: `key: value` lines, then the status
// signal as the last line of stdout, and the matching exit code. Diagnostics go to stderr.
import { formatDiagnostic } from '../../core/diagnostics.js';
import type { GateDecision } from '../../core/guardian/gate.js';
import type { HaltRecord } from '../../core/guardian/state.js';
import {
  STATUS_COMPLETE,
  STATUS_HALT_CONTEXT_LIMIT,
  STATUS_MISSING_STATE,
  STATUS_OK,
} from '../../core/guardian/signals.js';
import { ARCHIVABLE_REASONS } from '../../core/guardian/startup.js';
import type { MissingReason } from '../../core/guardian/startup.js';
import type { SummaryConflict } from '../../core/guardian/summary-parse.js';
import type { Diagnostic } from '../../core/types.js';
import type { CliIO } from '../command.js';
import { GUARDIAN_EXIT, guardianCommandLine } from './options.js';

export type StatusLine =
  typeof STATUS_OK | typeof STATUS_MISSING_STATE | typeof STATUS_HALT_CONTEXT_LIMIT | typeof STATUS_COMPLETE;

const EXIT_OF: Record<StatusLine, number> = {
  [STATUS_OK]: GUARDIAN_EXIT.ok,
  [STATUS_MISSING_STATE]: GUARDIAN_EXIT.missingState,
  [STATUS_HALT_CONTEXT_LIMIT]: GUARDIAN_EXIT.halt,
  [STATUS_COMPLETE]: GUARDIAN_EXIT.complete,
};

/** Prints the lines and the status as the last line; returns the exit code. */
export function finish(io: CliIO, lines: readonly string[], status: StatusLine): number {
  io.stdout([...lines, status].map((l) => `${l}\n`).join(''));
  return EXIT_OF[status];
}

export function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
}

const REASON_TEXT: Record<MissingReason, string> = {
  'summary-without-state': 'the summary exists but the durable task state is missing',
  unreadable: 'the durable task state cannot be read',
  malformed: 'the durable task state is not a JSON object',
  legacy: 'the durable task state has a legacy or foreign format',
  incomplete: 'the durable task state lacks required fields or has invalid ones',
  'empty-next-action': 'next_action is empty',
  'summary-missing': 'the structured summary is missing',
};

/** Lines for a MISSING_STATE result: what is wrong, and what a human (not the agent) may do. */
export function missingLines(reason: MissingReason | 'no-state', archiveOffered: boolean): string[] {
  if (reason === 'no-state') {
    return ['missing: no durable task state yet', `do: run \`${guardianCommandLine('ensure')}\` first`];
  }
  const lines = [`missing: ${REASON_TEXT[reason]} (details on stderr)`];
  if (ARCHIVABLE_REASONS.has(reason)) {
    lines.push(
      archiveOffered
        ? `do: stop. A human may run \`${guardianCommandLine('ensure --archive')}\` to move it to archive/ and start a new task state.`
        : 'do: stop and wait for a human; nothing was overwritten.',
    );
  } else if (reason === 'empty-next-action') {
    lines.push(
      `do: stop. A human records the next step with \`${guardianCommandLine('checkpoint --next-action TEXT')}\`.`,
    );
  } else {
    lines.push(
      `do: stop. A human may run \`${guardianCommandLine('checkpoint')}\` to rewrite the summary from the durable state.`,
    );
  }
  return lines;
}

export function conflictText(conflicts: readonly SummaryConflict[]): string {
  return conflicts.map((c) => `${c.section} (${c.problem})`).join(', ');
}

/** `pressure:` and `required:` lines for a gate decision. */
export function gateLines(decision: GateDecision): string[] {
  const source =
    decision.pressure_source === 'host'
      ? 'host'
      : decision.pressure_source === 'first_turn_default'
        ? 'not given; first turn assumes 0.0'
        : 'not given after the first turn: counts as critical';
  const required = [
    ...(decision.halt ? ['halt'] : []),
    ...(decision.checkpoint && !decision.halt ? ['checkpoint'] : []),
    ...(decision.summary && !decision.halt ? ['fresh summary'] : []),
  ];
  return [
    `pressure: ${decision.pressure_source === 'missing' ? 'missing' : decision.pressure} (${decision.level}; ${source})`,
    `gate: ${decision.action}`,
    ...decision.reasons.map((r) => `reason: ${r}`),
    `required: ${required.length === 0 ? 'nothing' : required.join(', ')}`,
  ];
}

/** The `do:` line after a gate decision. */
export function gateAdvice(decision: GateDecision): string {
  const checkpoint = guardianCommandLine('checkpoint');
  switch (decision.action) {
    case 'halt':
      return `do: stop autonomous work now. If this turn changed anything not yet saved, record it with \`${checkpoint}\` first; then wait for a human.`;
    case 'checkpoint':
      return `do: run \`${checkpoint}\` (it writes the state and a fresh summary) before the next major action.`;
    case 'fresh_summary':
      return decision.level === 'warning' || decision.level === 'compress'
        ? `do: continue with one major action, then run \`${checkpoint}\` (it writes a fresh summary) before the next one.`
        : `do: run \`${guardianCommandLine('ensure')}\` to rewrite the summary before the next major action.`;
    case 'continue':
      return 'do: continue with the next action.';
  }
}

/** Lines for a latched halt: since when, why (plain words, no state content), and the only way on. */
export function haltLines(halt: HaltRecord): string[] {
  const pressure = halt.pressure === null ? 'missing' : String(halt.pressure);
  return [
    `halt: latched since ${halt.at} (pressure ${pressure}, critical ${halt.threshold}); it holds whatever the pressure now`,
    `reason: ${halt.reason}`,
    `do: stop autonomous work now and wait for a human. Only an explicit override ends the halt: \`${guardianCommandLine('resume --by WHO --why TEXT')}\`.`,
  ];
}
