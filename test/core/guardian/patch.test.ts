import { describe, expect, it } from 'vitest';
import { applyPatch, mergePatches, parseStatePatch } from '../../../src/core/guardian/patch.js';
import type { TaskStatePatch } from '../../../src/core/guardian/patch.js';
import type { TaskState } from '../../../src/core/guardian/state.js';
import { T1, fullState, makeState } from './helpers.js';

function applied(state: TaskState, patch: TaskStatePatch) {
  const r = applyPatch(state, patch, T1);
  if (!r.ok) throw new Error(r.problems.join('; '));
  return r;
}

describe('applyPatch (a checkpoint)', () => {
  it('advances the turn and stamps updated_at, even for an empty patch', () => {
    const r = applied(makeState(), {});
    expect(r.state.turn).toBe(1);
    expect(r.state.updated_at).toBe(T1);
    expect(r.phase_or_goal_changed).toBe(false);
  });

  it('replaces scalar fields and appends to lists in order', () => {
    const r = applied(makeState(), {
      next_action: 'edit src/invoice.ts',
      last_action: { summary: 'reproduced the bug', outcome: 'success' },
      append: {
        completed_steps: ['reproduce', 'locate'],
        decisions: ['keep the API'],
        artifacts: ['src/invoice.ts'],
      },
    });
    expect(r.state.next_action).toBe('edit src/invoice.ts');
    expect(r.state.last_action).toEqual({ summary: 'reproduced the bug', outcome: 'success' });
    expect(r.state.completed_steps).toEqual(['reproduce', 'locate']);
    expect(r.state.decisions).toEqual(['keep the API']);
    expect(r.state.artifacts).toEqual([{ path: 'src/invoice.ts' }]);
  });

  it('reports a phase or goal change', () => {
    expect(applied(makeState(), { current_phase: 'implement' }).phase_or_goal_changed).toBe(true);
    expect(applied(makeState(), { goal: 'Another goal' }).phase_or_goal_changed).toBe(true);
    expect(applied(makeState(), { current_phase: 'diagnose' }).phase_or_goal_changed).toBe(false);
  });

  it('records a failed last action as a failed attempt when none is given', () => {
    const r = applied(makeState(), { last_action: { summary: 'npm test: 2 failed', outcome: 'failure' } });
    expect(r.state.failed_attempts).toEqual(['npm test: 2 failed']);
  });

  it('does not record the failure twice when a failed attempt is given explicitly', () => {
    const r = applied(makeState(), {
      last_action: { summary: 'npm test: 2 failed', outcome: 'failure' },
      append: { failed_attempts: ['rounding with Math.round'] },
    });
    expect(r.state.failed_attempts).toEqual(['rounding with Math.round']);
  });

  it('treats constraints, blockers and invariants as sets and artifacts by path (a new note wins)', () => {
    const r = applied(fullState(), {
      append: {
        constraints: ['Never force-push to main'],
        blockers: ['Waiting for the finance team'],
        completed_steps: ['Reproduced the bug'],
        artifacts: [{ path: 'src/invoice.ts', note: 'fixed' }, 'src/invoice.ts'],
      },
    });
    expect(r.state.constraints).toEqual(['Never force-push to main']);
    expect(r.state.blockers).toEqual(['Waiting for the finance team']);
    expect(r.state.completed_steps).toEqual(['Reproduced the bug', 'Reproduced the bug']);
    expect(r.state.artifacts[0]).toEqual({ path: 'src/invoice.ts', note: 'fixed' });
    expect(r.state.artifacts).toHaveLength(2);
  });

  it('removes exact values and artifacts by path', () => {
    const r = applied(fullState(), {
      remove: { blockers: ['Waiting for the finance team'], artifacts: ['docs/rounding.md'] },
    });
    expect(r.state.blockers).toEqual([]);
    expect(r.state.artifacts.map((a) => a.path)).toEqual(['src/invoice.ts']);
  });

  it('refuses to remove a value that is not there, without quoting it', () => {
    const r = applyPatch(fullState(), { remove: { blockers: ['secret blocker text'] } }, T1);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toEqual(['remove.blockers[0] matches no entry of blockers.']);
      expect(r.problems.join()).not.toContain('secret blocker text');
    }
  });

  it('never changes the state it was given', () => {
    const before = fullState();
    const copy = structuredClone(before);
    applied(before, {
      append: { completed_steps: ['x'] },
      remove: { blockers: ['Waiting for the finance team'] },
    });
    expect(before).toEqual(copy);
  });
});

describe('parseStatePatch', () => {
  it('reads a JSON patch', () => {
    const r = parseStatePatch(
      '{"next_action": "run tests", "append": {"artifacts": [{"path": "a.ts", "note": "n"}]}}',
      'p.json',
    );
    expect(r).toEqual({
      ok: true,
      patch: { next_action: 'run tests', append: { artifacts: [{ path: 'a.ts', note: 'n' }] } },
    });
  });

  it('rejects unknown fields and bad outcomes at their line, without quoting values', () => {
    const r = parseStatePatch(
      '{\n  "last_action": {"summary": "s", "outcome": "maybe-secret"},\n  "nxt": 1\n}',
      'p.json',
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const messages = r.diagnostics.map((d) => d.message);
      expect(messages).toContain('$.last_action.outcome must be "success" or "failure".');
      expect(messages).toContain('$ has unknown field nxt.');
      expect(r.diagnostics.find((d) => d.message.startsWith('$.last_action'))?.line).toBe(2);
      expect(JSON.stringify(r.diagnostics)).not.toContain('maybe-secret');
    }
  });

  it('rejects a patch that is not an object, and invalid JSON with a position', () => {
    const notObject = parseStatePatch('[]', 'p.json');
    expect(notObject.ok).toBe(false);
    const broken = parseStatePatch('{"goal": }', 'p.json');
    expect(broken.ok || broken.diagnostics[0]?.column).toBe(10);
  });
});

describe('mergePatches', () => {
  it('lets the later patch win scalars and accumulates list edits', () => {
    const merged = mergePatches(
      { next_action: 'a', append: { decisions: ['d1'] }, remove: { blockers: ['b1'] } },
      { next_action: 'b', append: { decisions: ['d2'], completed_steps: ['s'] } },
    );
    expect(merged).toEqual({
      next_action: 'b',
      append: { decisions: ['d1', 'd2'], completed_steps: ['s'] },
      remove: { blockers: ['b1'] },
    });
  });
});
