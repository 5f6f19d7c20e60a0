import { describe, expect, it } from 'vitest';
import { parseSummarySections, summaryConflicts } from '../../../src/core/guardian/summary-parse.js';
import { SUMMARY_SECTIONS, renderSummary } from '../../../src/core/guardian/summary.js';
import { fullState, makeState } from './helpers.js';

describe('renderSummary (summary generation)', () => {
  it('has one section per item of the summary rule, in order', () => {
    const text = renderSummary(fullState());
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([...SUMMARY_SECTIONS]);
    for (const required of [
      'Goal',
      'Current phase',
      'Completed steps',
      'Failed attempts',
      'Decisions',
      'Files touched',
      'Important tool outputs',
      'Blockers',
      'Next action',
      'Invariants',
      'Constraints',
    ]) {
      expect(headings).toContain(required);
    }
  });

  it('carries every value of the state', () => {
    const s = fullState();
    const text = renderSummary(s);
    for (const value of [
      s.goal,
      s.current_phase,
      s.next_action,
      s.last_action.summary,
      ...s.constraints,
      ...s.completed_steps,
      ...s.failed_attempts,
      ...s.decisions,
      ...s.tool_outputs,
      ...s.blockers,
      ...s.invariants,
      ...s.artifacts.map((a) => a.path),
      s.updated_at,
    ]) {
      expect(text).toContain(value);
    }
    const sections = parseSummarySections(text);
    expect(sections.get('Next action')?.[0]?.join('\n').trim()).toBe(s.next_action);
    expect(sections.get('Files touched')?.[0]?.join('\n')).toContain('`src/invoice.ts` — rounding helper');
  });

  it('marks empty sections instead of leaving them blank', () => {
    const sections = parseSummarySections(renderSummary(makeState()));
    expect(sections.get('Blockers')?.[0]?.join('').trim()).toBe('_(none)_');
  });

  it('is deterministic and ends with one newline', () => {
    expect(renderSummary(fullState())).toBe(renderSummary(fullState()));
    expect(renderSummary(fullState())).toMatch(/[^\n]\n$/);
  });

  it('escapes value lines that would read as headings, so they cannot forge a section', () => {
    const s = makeState({ goal: 'Line one\n## Next action\nDONE' });
    const text = renderSummary(s);
    expect(parseSummarySections(text).get('Next action')).toHaveLength(1);
    expect(summaryConflicts(s, text)).toEqual([]);
  });
});

describe('summaryConflicts', () => {
  it('finds none for the summary of the same state', () => {
    expect(summaryConflicts(fullState(), renderSummary(fullState()))).toEqual([]);
  });

  it('ignores whitespace-only edits and extra sections a human added', () => {
    const text =
      renderSummary(fullState()).replace(/\n\n/g, '\n\n\n').replace(/\n/g, '  \n') + '\n## Notes\n\nmine\n';
    expect(summaryConflicts(fullState(), text)).toEqual([]);
  });

  it('reports a changed value by section', () => {
    const stale = renderSummary(fullState());
    const state = { ...fullState(), next_action: 'Open the pull request' };
    expect(summaryConflicts(state, stale)).toEqual([{ section: 'Next action', problem: 'differs' }]);
  });

  it('reports a summary older than the state (State section) even when the values match', () => {
    const state = { ...fullState(), turn: 4, updated_at: '2025-03-01T10:00:00.000Z' };
    expect(summaryConflicts(state, renderSummary(fullState()))).toEqual([
      { section: 'State', problem: 'differs' },
    ]);
  });

  it('reports missing and repeated sections', () => {
    const text = renderSummary(fullState())
      .replace('## Blockers', '## Blocked')
      .replace('## Decisions', '## Decisions\n\n- x\n\n## Decisions');
    const conflicts = summaryConflicts(fullState(), text);
    expect(conflicts).toContainEqual({ section: 'Blockers', problem: 'missing' });
    expect(conflicts).toContainEqual({ section: 'Decisions', problem: 'duplicate' });
  });

  it('handles CRLF files', () => {
    expect(summaryConflicts(fullState(), renderSummary(fullState()).replace(/\n/g, '\r\n'))).toEqual([]);
  });
});
