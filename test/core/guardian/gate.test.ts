import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS,
  evaluateGate,
  pressureLevel,
  thresholdProblems,
} from '../../../src/core/guardian/gate.js';
import { STATUS_HALT_CONTEXT_LIMIT } from '../../../src/core/guardian/signals.js';

const T = DEFAULT_THRESHOLDS;

describe('pressure thresholds', () => {
  it('defaults to warning 0.55, compress 0.70, critical 0.85', () => {
    expect(DEFAULT_THRESHOLDS).toEqual({ warning: 0.55, compress: 0.7, critical: 0.85 });
  });

  it.each([
    [0, 'normal'],
    [0.5499, 'normal'],
    [0.55, 'warning'],
    [0.6999, 'warning'],
    [0.7, 'compress'],
    [0.8499, 'compress'],
    [0.85, 'critical'],
    [1, 'critical'],
  ] as const)('%f is %s (lower bounds inclusive)', (p, level) => {
    expect(pressureLevel(p, T)).toBe(level);
  });

  it('validates a threshold set', () => {
    expect(thresholdProblems(T)).toEqual([]);
    expect(thresholdProblems({ warning: 0.8, compress: 0.7, critical: 0.9 })).toEqual([
      'warning must not be above compress.',
    ]);
    expect(thresholdProblems({ warning: 0.5, compress: 0.7, critical: 1.5 })).toEqual([
      'critical must be a number from 0 to 1.',
    ]);
  });
});

describe('evaluateGate', () => {
  it('continues below warning with nothing due', () => {
    const d = evaluateGate({ pressure: 0.2, first_turn: false }, T);
    expect(d).toMatchObject({
      action: 'continue',
      halt: false,
      checkpoint: false,
      summary: false,
      signal: null,
    });
  });

  it('asks for a fresh summary at warning and at compress', () => {
    expect(evaluateGate({ pressure: 0.6, first_turn: false }, T)).toMatchObject({
      action: 'fresh_summary',
      level: 'warning',
    });
    expect(evaluateGate({ pressure: 0.75, first_turn: false }, T)).toMatchObject({
      action: 'fresh_summary',
      level: 'compress',
    });
  });

  it('halts at critical: checkpoint + summary + STATUS:HALT_CONTEXT_LIMIT (the critical stop)', () => {
    const d = evaluateGate({ pressure: 0.85, first_turn: false, action_changed_state: false }, T);
    expect(d).toMatchObject({
      action: 'halt',
      halt: true,
      checkpoint: true,
      summary: true,
      signal: STATUS_HALT_CONTEXT_LIMIT,
    });
    expect(d.reasons[0]).toContain('critical (0.85)');
  });

  it('assumes 0.0 for a missing pressure on the first turn only', () => {
    expect(evaluateGate({ first_turn: true }, T)).toMatchObject({
      action: 'continue',
      pressure: 0,
      pressure_source: 'first_turn_default',
    });
    expect(evaluateGate({ pressure: null, first_turn: false }, T)).toMatchObject({
      action: 'halt',
      pressure_source: 'missing',
      level: 'critical',
      signal: STATUS_HALT_CONTEXT_LIMIT,
    });
  });

  it('treats an unreliable pressure (NaN, out of range) as missing', () => {
    expect(evaluateGate({ pressure: Number.NaN, first_turn: false }, T).halt).toBe(true);
    expect(evaluateGate({ pressure: 1.2, first_turn: false }, T).halt).toBe(true);
    expect(evaluateGate({ pressure: -0.1, first_turn: true }, T).pressure_source).toBe('first_turn_default');
  });

  it('requires a checkpoint after a state change even at low pressure', () => {
    const d = evaluateGate({ pressure: 0.1, first_turn: false, action_changed_state: true }, T);
    expect(d).toMatchObject({ action: 'checkpoint', checkpoint: true, summary: false });
  });

  it('requires a fresh summary after a phase or goal change, or a summary conflict, even at low pressure', () => {
    expect(evaluateGate({ pressure: 0.1, first_turn: false, phase_or_goal_changed: true }, T)).toMatchObject({
      action: 'fresh_summary',
      summary: true,
    });
    expect(evaluateGate({ pressure: 0.1, first_turn: false, summary_conflict: true }, T)).toMatchObject({
      action: 'fresh_summary',
      summary: true,
    });
  });

  it('combines a state change with a summary reason into a checkpoint that also needs the summary', () => {
    const d = evaluateGate({ pressure: 0.72, first_turn: false, action_changed_state: true }, T);
    expect(d).toMatchObject({ action: 'checkpoint', checkpoint: true, summary: true });
  });

  it('lets the halt override everything else', () => {
    const d = evaluateGate(
      { pressure: 0.9, first_turn: true, action_changed_state: true, summary_conflict: true },
      T,
    );
    expect(d.action).toBe('halt');
  });

  it('uses host-configured thresholds', () => {
    const custom = { warning: 0.3, compress: 0.5, critical: 0.6 };
    expect(evaluateGate({ pressure: 0.6, first_turn: false }, custom).halt).toBe(true);
    expect(evaluateGate({ pressure: 0.6, first_turn: false }, T).halt).toBe(false);
  });
});
