import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, evaluateGate } from '../../../src/core/guardian/gate.js';
import { haltRecord, isHalted, latchHalt, resumeFromHalt } from '../../../src/core/guardian/halt.js';
import { parseTaskState } from '../../../src/core/guardian/parse-state.js';
import { serializeState } from '../../../src/core/guardian/state.js';
import { T1, fullState, makeState } from './helpers.js';

const T2 = '2025-03-01T09:10:00.000Z';
const HALT = { at: T1, pressure: 0.9, threshold: 0.85, reason: 'critical' };

describe('haltRecord', () => {
  it('records the host pressure, the critical threshold and the reason', () => {
    const gate = evaluateGate({ pressure: 0.9, first_turn: false }, DEFAULT_THRESHOLDS);
    expect(haltRecord(gate, DEFAULT_THRESHOLDS, T1)).toEqual({
      at: T1,
      pressure: 0.9,
      threshold: 0.85,
      reason: 'pressure 0.9 is at or above critical (0.85)',
    });
  });

  it('records a missing pressure as null', () => {
    const gate = evaluateGate({ first_turn: false }, DEFAULT_THRESHOLDS);
    expect(haltRecord(gate, DEFAULT_THRESHOLDS, T1)).toMatchObject({ pressure: null });
  });
});

describe('latchHalt', () => {
  it('is a checkpoint (turn + 1, updated_at) with the halt recorded', () => {
    const state = fullState();
    const halt = { at: T2, pressure: 0.9, threshold: 0.85, reason: 'critical' };
    const latched = latchHalt(state, halt);
    expect(latched.ok && latched.state).toEqual({ ...state, turn: state.turn + 1, updated_at: T2, halt });
    expect(latched.ok && isHalted(latched.state)).toBe(true);
    expect(isHalted(state)).toBe(false);
  });
});

describe('resumeFromHalt', () => {
  const halt = { at: T1, pressure: null, threshold: 0.85, reason: 'missing' };

  it('clears the halt and appends who, why and when to resumes', () => {
    const state = makeState({
      next_action: 'go',
      halt,
      resumes: [{ at: T1, by: 'a', why: 'b', halted_at: T1 }],
    });
    const r = resumeFromHalt(state, { by: 'ops', why: 'compacted', at: T2 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.halt).toBeUndefined();
    expect(r.state.resumes).toEqual([
      { at: T1, by: 'a', why: 'b', halted_at: T1 },
      { at: T2, by: 'ops', why: 'compacted', halted_at: T1 },
    ]);
    expect(r.state).toMatchObject({ turn: state.turn + 1, updated_at: T2 });
  });

  it('says not-halted without a halt, and refuses an empty who or why', () => {
    expect(resumeFromHalt(makeState(), { by: 'ops', why: 'x', at: T2 })).toEqual({
      ok: false,
      reason: 'not-halted',
    });
    const state = makeState({ halt });
    expect(resumeFromHalt(state, { by: ' ', why: 'x', at: T2 })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(resumeFromHalt(state, { by: 'ops', why: '', at: T2 })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });
});

describe('state files with and without the latch', () => {
  it('round-trips halt and resumes, and writes neither when absent', () => {
    const halted = { ...fullState(), halt: HALT, resumes: [{ at: T1, by: 'ops', why: 'ok', halted_at: T1 }] };
    expect(parseTaskState(serializeState(halted), 'task-state.json')).toEqual({
      kind: 'valid',
      state: halted,
    });
    const text = serializeState(fullState());
    expect(text).not.toContain('"halt"');
    expect(text).not.toContain('"resumes"');
  });

  it('rejects a malformed halt record as incomplete', () => {
    const obj = { ...fullState(), halt: { at: T1, pressure: 2, threshold: 0.85, reason: 'x' } };
    expect(parseTaskState(JSON.stringify(obj), 'task-state.json').kind).toBe('incomplete');
  });
});
