// The pressure gate: given the host's context pressure and what the last action did, says what
// must happen before the next major action. It encodes the seed's pressure thresholds, the
// pressure fallback rule, runtime-loop step 5 (persist state) and the halt rule.
import { STATUS_HALT_CONTEXT_LIMIT } from './signals.js';

export interface GuardianThresholds {
  warning: number;
  compress: number;
  critical: number;
}

/** The seed's defaults; the policy's `guardian:` block and the host may override them. */
export const DEFAULT_THRESHOLDS: Readonly<GuardianThresholds> = Object.freeze({
  warning: 0.55,
  compress: 0.7,
  critical: 0.85,
});

/** Problems with a threshold set (each in 0..1, warning ≤ compress ≤ critical); empty when valid. */
export function thresholdProblems(t: GuardianThresholds): string[] {
  const out: string[] = [];
  for (const name of ['warning', 'compress', 'critical'] as const) {
    const v = t[name];
    if (!Number.isFinite(v) || v < 0 || v > 1) out.push(`${name} must be a number from 0 to 1.`);
  }
  if (out.length > 0) return out;
  if (t.warning > t.compress) out.push('warning must not be above compress.');
  if (t.compress > t.critical) out.push('compress must not be above critical.');
  return out;
}

/** normal < warning ≤ … < compress ≤ … < critical ≤ … (each bound inclusive, as the seed says). */
export type PressureLevel = 'normal' | 'warning' | 'compress' | 'critical';

export function pressureLevel(pressure: number, t: GuardianThresholds): PressureLevel {
  if (pressure >= t.critical) return 'critical';
  if (pressure >= t.compress) return 'compress';
  if (pressure >= t.warning) return 'warning';
  return 'normal';
}

/** A usable host pressure: a finite number from 0 to 1. Anything else is "missing". */
export function isValidPressure(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

export interface GateInput {
  /** Host-reported pressure 0.0–1.0; undefined, null or out of range counts as missing. */
  pressure?: number | null;
  /** True on the task's first turn only, where a missing pressure is assumed to be 0.0. */
  first_turn: boolean;
  /** The guarded action mutated durable task state (files, data, plan). */
  action_changed_state?: boolean;
  /** The action changed the current phase or the goal. */
  phase_or_goal_changed?: boolean;
  /** The summary on disk disagrees with the durable state. */
  summary_conflict?: boolean;
}

/**
 * The single most pressing requirement:
 * - `halt`: write checkpoint + summary, emit STATUS:HALT_CONTEXT_LIMIT, stop autonomous work;
 * - `checkpoint`: write the durable state (and the summary when `summary` is set) now;
 * - `fresh_summary`: write a fresh summary before the next major action;
 * - `continue`: nothing is due.
 */
export type GateAction = 'continue' | 'checkpoint' | 'fresh_summary' | 'halt';

export type PressureSource = 'host' | 'first_turn_default' | 'missing';

export interface GateDecision {
  action: GateAction;
  /** The pressure the decision used: the host's, 0.0 on a first turn without one, 1.0 when missing. */
  pressure: number;
  pressure_source: PressureSource;
  level: PressureLevel;
  checkpoint: boolean;
  summary: boolean;
  halt: boolean;
  signal: typeof STATUS_HALT_CONTEXT_LIMIT | null;
  /** Why each requirement applies, in plain words (no input content). */
  reasons: string[];
}

/** Thresholds are assumed valid (see thresholdProblems). */
export function evaluateGate(input: GateInput, thresholds: GuardianThresholds): GateDecision {
  const reasons: string[] = [];
  let pressure: number;
  let source: PressureSource;
  if (isValidPressure(input.pressure)) {
    pressure = input.pressure;
    source = 'host';
  } else if (input.first_turn) {
    // Fallback rule 1: on the first turn only, assume 0.0.
    pressure = 0;
    source = 'first_turn_default';
  } else {
    // Fallback rule 2: on any later turn a missing pressure is critical.
    pressure = 1;
    source = 'missing';
  }
  const level = source === 'missing' ? 'critical' : pressureLevel(pressure, thresholds);

  const halt = level === 'critical';
  if (halt) {
    reasons.push(
      source === 'missing'
        ? 'pressure is missing after the first turn, which counts as critical'
        : `pressure ${pressure} is at or above critical (${thresholds.critical})`,
    );
  }
  const checkpoint = halt || input.action_changed_state === true;
  if (input.action_changed_state && !halt)
    reasons.push('the action changed state: a fresh checkpoint is due');
  const summaryReasons = [
    ...(level === 'compress' ? [`pressure is at or above compress (${thresholds.compress})`] : []),
    ...(level === 'warning' ? [`pressure is at or above warning (${thresholds.warning})`] : []),
    ...(input.summary_conflict ? ['the summary conflicts with the durable state'] : []),
    ...(input.phase_or_goal_changed ? ['the phase or goal changed'] : []),
  ];
  const summary = halt || summaryReasons.length > 0;
  if (!halt) reasons.push(...summaryReasons.map((r) => `${r}: a fresh summary is due`));

  const action: GateAction = halt
    ? 'halt'
    : checkpoint
      ? 'checkpoint'
      : summary
        ? 'fresh_summary'
        : 'continue';
  return {
    action,
    pressure,
    pressure_source: source,
    level,
    checkpoint,
    summary,
    halt,
    signal: halt ? STATUS_HALT_CONTEXT_LIMIT : null,
    reasons,
  };
}
