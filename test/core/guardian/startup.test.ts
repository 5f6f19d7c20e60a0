import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../../src/core/diagnostics.js';
import { STATUS_COMPLETE, STATUS_MISSING_STATE } from '../../../src/core/guardian/signals.js';
import { ARCHIVABLE_REASONS, decideStartup } from '../../../src/core/guardian/startup.js';
import type { FileRead, StartupDecision } from '../../../src/core/guardian/startup.js';
import { serializeState } from '../../../src/core/guardian/state.js';
import type { TaskState } from '../../../src/core/guardian/state.js';
import { renderSummary } from '../../../src/core/guardian/summary.js';
import { fullState, makeState } from './helpers.js';

const FILES = { state: 'task-state.json', summary: 'summaries/latest-summary.md' };
const ABSENT: FileRead = { kind: 'absent' };
const text = (t: string): FileRead => ({ kind: 'text', text: t });
const stateOf = (s: TaskState) => text(serializeState(s));
const summaryOf = (s: TaskState) => text(renderSummary(s));

function missingReason(d: StartupDecision): string {
  if (d.kind !== 'missing_state') throw new Error(`expected missing_state, got ${d.kind}`);
  expect(d.signal).toBe(STATUS_MISSING_STATE);
  expect(d.diagnostics.length).toBeGreaterThan(0);
  return d.reason;
}

describe('decideStartup: the startup branch', () => {
  it('initializes when neither state nor summary exists', () => {
    expect(decideStartup(ABSENT, ABSENT, FILES)).toEqual({ kind: 'initialize' });
  });

  describe('emits STATUS:MISSING_STATE and stops', () => {
    it('when the summary exists but the state does not', () => {
      expect(missingReason(decideStartup(ABSENT, summaryOf(fullState()), FILES))).toBe(
        'summary-without-state',
      );
    });

    it('when the state cannot be read', () => {
      const unusable: FileRead = {
        kind: 'unusable',
        diagnostic: diagnostic(
          'error',
          'guardian-symlink',
          { file: FILES.state, line: 1, column: 1 },
          'link',
          'hint',
        ),
      };
      expect(missingReason(decideStartup(unusable, ABSENT, FILES))).toBe('unreadable');
    });

    it('when the state is not JSON', () => {
      expect(missingReason(decideStartup(text('{"goal": '), ABSENT, FILES))).toBe('malformed');
    });

    it('when the state has a legacy shape', () => {
      expect(missingReason(decideStartup(text('{"phase": "x", "next_action": "y"}'), ABSENT, FILES))).toBe(
        'legacy',
      );
    });

    it('when required fields are missing', () => {
      const obj: Record<string, unknown> = { ...fullState() };
      delete obj.constraints;
      expect(missingReason(decideStartup(text(JSON.stringify(obj)), summaryOf(fullState()), FILES))).toBe(
        'incomplete',
      );
    });

    it('when next_action is empty (and gives the readable state back)', () => {
      const s = makeState({ next_action: '  ' });
      const d = decideStartup(stateOf(s), summaryOf(s), FILES);
      expect(missingReason(d)).toBe('empty-next-action');
      expect(d.kind === 'missing_state' && d.state).toEqual(s);
    });

    it('when the state is fine but the summary is missing', () => {
      const s = fullState();
      expect(missingReason(decideStartup(stateOf(s), ABSENT, FILES))).toBe('summary-missing');
    });
  });

  it('offers archiving only for files that cannot be used as they are', () => {
    expect([...ARCHIVABLE_REASONS].sort()).toEqual([
      'incomplete',
      'legacy',
      'malformed',
      'summary-without-state',
      'unreadable',
    ]);
  });

  it('completes when next_action is DONE, COMPLETE or FINISH, before looking at the summary', () => {
    const s = makeState({ next_action: 'DONE' });
    const withSummary = decideStartup(stateOf(s), summaryOf(s), FILES);
    expect(withSummary).toMatchObject({
      kind: 'complete',
      signal: STATUS_COMPLETE,
      summary: { rewrite: false },
    });
    const withoutSummary = decideStartup(stateOf(s), ABSENT, FILES);
    expect(withoutSummary).toMatchObject({ kind: 'complete', summary: { present: false, rewrite: true } });
  });

  it('is ready when state and summary agree', () => {
    const s = fullState();
    expect(decideStartup(stateOf(s), summaryOf(s), FILES)).toEqual({
      kind: 'ready',
      state: s,
      summary: { present: true, conflicts: [], rewrite: false },
    });
  });

  it('trusts the state and asks for a rewrite when the summary conflicts', () => {
    const s = fullState();
    const stale = summaryOf({ ...s, next_action: 'something else' });
    const d = decideStartup(stateOf(s), stale, FILES);
    expect(d).toMatchObject({
      kind: 'ready',
      state: s,
      summary: { rewrite: true, conflicts: [{ section: 'Next action', problem: 'differs' }] },
    });
  });
});
