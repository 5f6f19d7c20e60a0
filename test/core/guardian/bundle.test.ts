import { describe, expect, it } from 'vitest';
import { buildWorkingBundle, pathsNamedIn, renderBundleMarkdown } from '../../../src/core/guardian/bundle.js';
import { fullState, makeState } from './helpers.js';

describe('buildWorkingBundle', () => {
  it('holds exactly goal, phase, next_action, last_successful_action, constraints, relevant_artifacts', () => {
    const b = buildWorkingBundle(fullState());
    expect(Object.keys(b)).toEqual([
      'goal',
      'phase',
      'next_action',
      'last_successful_action',
      'constraints',
      'relevant_artifacts',
    ]);
    expect(b).toEqual({
      goal: 'Fix the invoice rounding bug',
      phase: 'diagnose',
      next_action: 'Run the tests in test/invoice.test.ts',
      last_successful_action: 'Edited the rounding helper',
      constraints: ['Never force-push to main'],
      relevant_artifacts: ['src/invoice.ts', 'docs/rounding.md', 'test/invoice.test.ts'],
    });
  });

  it('does not carry the rest of the state (decisions, outputs, blockers)', () => {
    const json = JSON.stringify(buildWorkingBundle(fullState()));
    expect(json).not.toContain("banker's rounding");
    expect(json).not.toContain('finance team');
  });

  it('falls back to the latest completed step after a failure, and to null when nothing succeeded', () => {
    const failed = fullState();
    failed.last_action = { summary: 'tests failed', outcome: 'failure' };
    expect(buildWorkingBundle(failed).last_successful_action).toBe('Reproduced the bug');
    expect(buildWorkingBundle(makeState()).last_successful_action).toBeNull();
  });

  it('does not list a path twice', () => {
    const s = makeState({ next_action: 'edit src/invoice.ts', artifacts: [{ path: 'src/invoice.ts' }] });
    expect(buildWorkingBundle(s).relevant_artifacts).toEqual(['src/invoice.ts']);
  });

  it('renders markdown with every field', () => {
    const md = renderBundleMarkdown(buildWorkingBundle(fullState()));
    expect(md).toContain('**Next action:** Run the tests in test/invoice.test.ts');
    expect(md).toContain('- `docs/rounding.md`');
    expect(md).toContain('- Never force-push to main');
  });
});

describe('pathsNamedIn', () => {
  it.each([
    ['Run the tests in src/app.test.ts then edit README.md.', ['src/app.test.ts', 'README.md']],
    ['fix ./run.sh and `lib/util/` next', ['./run.sh', 'lib/util/']],
    ['upgrade to 1.2, e.g. the latest', []],
    ['START', []],
  ])('%j → %j', (text, paths) => {
    expect(pathsNamedIn(text)).toEqual(paths);
  });
});
