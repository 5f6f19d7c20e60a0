// The latched halt (seed halt rule: it "overrides everything" and waits for an explicit human or
// system override). A gate decision of `halt` is recorded in the state once; while the record is
// there every guardian answer is STATUS:HALT_CONTEXT_LIMIT, whatever the pressure, until
// `guardian resume` clears it and appends who overrode it and why. Pure: times come from callers.
import type { GateDecision, GuardianThresholds } from './gate.js';
import { applyPatch } from './patch.js';
import type { ApplyPatchResult } from './patch.js';
import type { HaltRecord, TaskState } from './state.js';

export function isHalted(state: TaskState): boolean {
  return state.halt !== undefined;
}

/** The halt record for a gate decision that halted. */
export function haltRecord(gate: GateDecision, thresholds: GuardianThresholds, at: string): HaltRecord {
  return {
    at,
    pressure: gate.pressure_source === 'missing' ? null : gate.pressure,
    threshold: thresholds.critical,
    reason: gate.reasons[0] ?? 'pressure is at or above critical',
  };
}

/**
 * The checkpoint written when a halt is first signalled: the same update an empty
 * `guardian checkpoint` makes (turn + 1, updated_at), with the halt recorded.
 */
export function latchHalt(state: TaskState, halt: HaltRecord): ApplyPatchResult {
  return applyPatch({ ...state, halt }, {}, halt.at);
}

export interface ResumeInput {
  by: string;
  why: string;
  at: string;
}

export type ResumeResult =
  | { ok: true; state: TaskState }
  | { ok: false; reason: 'not-halted' }
  | { ok: false; reason: 'invalid'; problems: string[] };

/** Clears the halt and appends the override to `resumes`, through the checkpoint update. */
export function resumeFromHalt(state: TaskState, input: ResumeInput): ResumeResult {
  if (state.halt === undefined) return { ok: false, reason: 'not-halted' };
  const problems: string[] = [];
  if (input.by.trim() === '') problems.push('--by needs who overrides the halt.');
  if (input.why.trim() === '') problems.push('--why needs the reason for the override.');
  if (problems.length > 0) return { ok: false, reason: 'invalid', problems };
  const { halt, ...rest } = state;
  const next: TaskState = {
    ...rest,
    resumes: [...(state.resumes ?? []), { at: input.at, by: input.by, why: input.why, halted_at: halt.at }],
  };
  const applied = applyPatch(next, {}, input.at);
  if (!applied.ok) return { ok: false, reason: 'invalid', problems: applied.problems };
  return { ok: true, state: applied.state };
}
