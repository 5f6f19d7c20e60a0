// explainArtifact (`explain FILE ID`): what happened to one artifact and why, in plain words that
// never quote its content.
import { describe, expect, it } from 'vitest';
import { explainArtifact } from '../../../src/core/report/explain.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Transcript } from '../../../src/core/types.js';
import { asst, bash, calls, result, summary, t, task, user, words } from '../../support/artifacts.js';
import { entry, policy, run } from '../stabilize/helpers.js';

const REPORT =
  'The deployment failed because the database migration timed out after thirty seconds while holding a lock';
const EMAIL = 'ops@example.com';

function session(): { tr: Transcript; r: StabilizeResult } {
  const tr = t(
    task('tk', 'Fix it.'),
    user('u0', words(30)),
    user('u1', `${REPORT}, mail ${EMAIL}`),
    calls('a1', [bash('c1', 'npm test')]),
    result('r1', 'c1', 'ok'),
    summary('sum', 'Old.', ['u1'], { created_at: 0, ttl: 0 }),
    user('u2', `${REPORT}, mail ${EMAIL}`),
    asst('a2', 'fine'),
  );
  return { tr, r: run(tr, policy({ budget: 40, keep_recent: 1 })) };
}

function explain(id: string): string {
  const { tr, r } = session();
  const a = tr.artifacts.find((x) => x.id === id);
  if (!a) throw new Error(id);
  return explainArtifact(a, entry(r, id), r);
}

describe('explainArtifact', () => {
  it('explains a duplicate: the copy that stays, and that its size was not counted', () => {
    expect(explain('u1')).toBe(
      [
        'u1 (user, session.jsonl:3:1)',
        '  was removed as a duplicate at stage "dedup": a later artifact has the same text.',
        '  Detail: same text as u2.',
        '  Duplicate of: u2 (the later copy stays).',
        '  Tokens: not counted (certainly dropped) before, 0 in the context.',
        '  Not in the stabilized context.',
        '  Run status: ok; budget 25/40 tokens.',
        '',
      ].join('\n'),
    );
  });

  it('explains a protected artifact: why it could not go, and where it is', () => {
    expect(explain('r1')).toContain(
      '  Protected because: the latest invocation or outcome of the command family bash:npm test.\n' +
        '  Position in the stabilized context: 3 of 5.\n',
    );
  });

  it('explains an expired summary with its age and ttl', () => {
    expect(explain('sum')).toContain('  Summary: expired, age 3 of ttl 0 turns; expired.\n');
  });

  it('explains masking by type and count, never by value', () => {
    const text = explain('u2');
    expect(text).toContain(
      '  was kept, with parts masked at stage "pii": personal data or secrets were masked.\n',
    );
    expect(text).toContain('  Masked: 1 email.\n');
    expect(text).toContain(
      '  Protected because: the user message or the latest answer of one of the keep_recent newest turns; the latest user request.\n',
    );
    expect(text).not.toContain(EMAIL);
  });

  it('explains a budget drop', () => {
    expect(explain('u0')).toContain('  was dropped at stage "budget": it did not fit in the token budget.\n');
  });
});
