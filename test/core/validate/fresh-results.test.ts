// `fresh_results` (issue 28): the results the model just asked for reach it whole; an excerpt is a
// warning whatever the check's severity; a dropped or placeholder result is a violation at its call.
import { describe, expect, it } from 'vitest';
import { failingChecks } from '../../../src/core/report/report.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import { openLoopResults } from '../../../src/core/validate/fresh.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import { call, calls, result, sys, t, user } from '../../support/artifacts.js';
import { policy, run, wordTokenizer as tokenizer } from '../stabilize/helpers.js';

const tr = t(
  sys('s', 'sys'),
  user('u1', 'Read the parser and fix it.'),
  calls('a1', [
    call('c1', 'read_file', { path: 'src/parser.ts' }),
    call('c2', 'read_file', { path: 'b.ts' }),
  ]),
  result('r1', 'c1', 'export const x = 1;'),
  result('r2', 'c2', 'export const y = 2;'),
);

function fresh(res: StabilizeResult, severity?: 'error' | 'warning' | 'off') {
  const p = policy(severity ? { checks: { fresh_results: severity } } : {});
  const checks = validateResult(tr, res, { policy: p, tokenizer });
  return { check: checks.find((c) => c.name === 'fresh_results'), failing: failingChecks(checks) };
}

describe('fresh_results', () => {
  it('finds the open loop: the trailing results that answer a call', () => {
    expect(openLoopResults(tr).map((a) => a.id)).toEqual(['r1', 'r2']);
    expect(openLoopResults(t(sys('s', 'x'), user('u', 'hi'))).map((a) => a.id)).toEqual([]);
  });

  it('passes, at warning by default, when every fresh result is whole', () => {
    const { check } = fresh(run(tr));
    expect(check).toEqual({ name: 'fresh_results', ok: true, severity: 'warning', violations: [] });
  });

  it('a dropped result is a violation at the line of its call, failing at error', () => {
    const res = run(tr);
    const broken = { ...res, context: res.context.filter((c) => c.id !== 'r2' && c.id !== 'a1') };
    const { check, failing } = fresh(broken, 'error');
    // r1 is still whole; r2 is gone (with its call's assistant turn, as a repair would take it).
    expect(check?.violations.map((v) => [v.id, v.line, v.severity])).toEqual([['a1', 3, undefined]]);
    expect(check?.violations[0]?.message).toMatch(
      /^the result at line 5 that this turn's call to read_file asked for is not in the context/,
    );
    expect(failing.map((c) => c.name)).toContain('fresh_results');
  });

  it('a placeholder is as good as gone', () => {
    const res = run(tr);
    const broken = {
      ...res,
      context: res.context.map((c) =>
        c.id === 'r1' ? { ...c, placeholder: true, content: '[omitted]' } : c,
      ),
    };
    const { check } = fresh(broken, 'error');
    expect(check?.violations.map((v) => [v.line, v.message.includes('placeholder')])).toEqual([[3, true]]);
  });

  it('an excerpt is a warning that never fails the run, even at error', () => {
    const res = run(tr);
    const broken = { ...res, context: res.context.map((c) => (c.id === 'r1' ? { ...c, excerpt: true } : c)) };
    const { check, failing } = fresh(broken, 'error');
    expect(check?.violations.map((v) => [v.line, v.severity])).toEqual([[3, 'warning']]);
    expect(check?.ok).toBe(false);
    expect(failing.map((c) => c.name)).not.toContain('fresh_results');
  });

  it('off does not run', () => {
    const res = run(tr);
    const { check } = fresh({ ...res, context: [] }, 'off');
    expect(check).toEqual({ name: 'fresh_results', ok: true, severity: 'off', violations: [] });
  });
});
