import { describe, expect, it } from 'vitest';
import { parseTaskState } from '../../../src/core/guardian/parse-state.js';
import {
  START_ACTION,
  TASK_STATE_FIELDS,
  TASK_STATE_SCHEMA_ID,
  initialState,
  isTerminalAction,
  serializeState,
} from '../../../src/core/guardian/state.js';
import { T0, fullState } from './helpers.js';

describe('initialState', () => {
  it('starts a task at START, turn 0, with the given goal and empty history', () => {
    const s = initialState({ updated_at: T0, goal: 'Ship it', constraints: ['no deploys on Friday'] });
    expect(s.schema).toBe(TASK_STATE_SCHEMA_ID);
    expect(s.next_action).toBe(START_ACTION);
    expect(s.turn).toBe(0);
    expect(s.goal).toBe('Ship it');
    expect(s.constraints).toEqual(['no deploys on Friday']);
    expect(s.last_action).toEqual({ summary: '', outcome: 'none' });
    expect(s.completed_steps).toEqual([]);
    expect(s.updated_at).toBe(T0);
  });

  it('rejects an updated_at that is not an ISO date-time', () => {
    expect(() => initialState({ updated_at: 'yesterday' })).toThrow();
  });
});

describe('isTerminalAction', () => {
  it.each(['DONE', 'COMPLETE', 'FINISH', ' done ', 'Finish'])('%j ends the task', (v) => {
    expect(isTerminalAction(v)).toBe(true);
  });
  it.each(['', 'START', 'DONE soon', 'mark as done', 'FINISHED'])('%j does not', (v) => {
    expect(isTerminalAction(v)).toBe(false);
  });
});

describe('serializeState', () => {
  it('writes every field in schema order, 2-space JSON with a trailing newline, and reads back equal', () => {
    const state = fullState();
    const text = serializeState(state);
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(
      TASK_STATE_FIELDS.filter((f) => f !== 'halt' && f !== 'resumes'),
    );
    const back = parseTaskState(text, 'task-state.json');
    expect(back).toEqual({ kind: 'valid', state });
  });
});
