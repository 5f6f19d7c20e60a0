// Builders for guardian tests: a valid task state with chosen fields.
import { initialState } from '../../../src/core/guardian/state.js';
import type { TaskState } from '../../../src/core/guardian/state.js';

export const T0 = '2025-03-01T09:00:00.000Z';
export const T1 = '2025-03-01T09:05:00.000Z';

export function makeState(overrides: Partial<TaskState> = {}): TaskState {
  return {
    ...initialState({ updated_at: T0, goal: 'Fix the invoice rounding bug', current_phase: 'diagnose' }),
    ...overrides,
  };
}

/** A state with a value in every field, as a long session accumulates. */
export function fullState(): TaskState {
  return makeState({
    next_action: 'Run the tests in test/invoice.test.ts',
    last_action: { summary: 'Edited the rounding helper', outcome: 'success' },
    constraints: ['Never force-push to main'],
    artifacts: [{ path: 'src/invoice.ts', note: 'rounding helper' }, { path: 'docs/rounding.md' }],
    completed_steps: ['Reproduced the bug'],
    failed_attempts: ['Math.round on cents: still off by one'],
    decisions: ["Use banker's rounding"],
    tool_outputs: ['npm test: 2 failed, 10 passed'],
    blockers: ['Waiting for the finance team'],
    invariants: ['Totals equal the sum of lines'],
    turn: 3,
    updated_at: T1,
  });
}
