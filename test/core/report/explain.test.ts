// explainArtifact (`explain FILE ID`): what happened to one artifact and why, in plain words that
// never quote its content.
import { describe, expect, it } from 'vitest';
import { explainArtifact } from '../../../src/core/report/explain.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Transcript } from '../../../src/core/types.js';
import type { Draft } from '../../support/artifacts.js';
import { asst, bash, calls, result, summary, sys, t, task, user, words } from '../../support/artifacts.js';
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
  // The ranked cut (stable_prefix off): dedup, not the stable cut point, decides u1's fate.
  return { tr, r: run(tr, policy({ budget: 40, keep_recent: 1, stable_prefix: { enabled: false } })) };
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

// Compaction (docs/compaction.md): the turns the budget must drop become one summary; a recorded
// compaction summary is refreshed with the next turns and the old one is superseded.
describe('explainArtifact: compaction', () => {
  const COMPACT = policy({ budget: 150, compaction: { enabled: true, max_tokens: 80, request_chars: 40 } });
  /** Turns `from`..`to`, each message 20 words, no two alike. */
  function turns(from: number, to: number): Draft[] {
    const out: Draft[] = [];
    for (let n = from; n <= to; n++) {
      out.push(user(`u${n}`, `Request ${n}: ${words(18, `q${n}x`)}`));
      out.push(asst(`a${n}`, `Answer ${n}: ${words(18, `r${n}x`)}`));
    }
    return out;
  }
  const HEAD = [sys('sys', 'You are a helpful agent.'), task('tk', 'Fix the build.')];

  function compacted(): { tr: Transcript; r: StabilizeResult } {
    const tr = t(...HEAD, ...turns(1, 6));
    return { tr, r: run(tr, COMPACT) };
  }

  /** Call 2: the first call's compaction summary recorded into the history, four more turns. */
  function refreshed(): { tr: Transcript; r: StabilizeResult; first: string } {
    const { r: r1 } = compacted();
    const log = r1.compaction?.[0];
    const c = r1.context.find((x) => x.id === log?.id);
    if (!log || !c) throw new Error('no compaction summary');
    const recorded = summary(log.id, c.content as string, log.covers, {
      tags: ['compaction'],
      created_at: 6,
    });
    const tr = t(...HEAD, ...turns(1, 6), recorded, ...turns(7, 10));
    return { tr, r: run(tr, COMPACT), first: log.id };
  }

  function explainIn({ tr, r }: { tr: Transcript; r: StabilizeResult }, id: string): string {
    const a = tr.artifacts.find((x) => x.id === id);
    if (!a) throw new Error(id);
    return explainArtifact(a, entry(r, id), r);
  }

  it('explains an artifact compacted into a summary, naming the summary, never its content', () => {
    const text = explainIn(compacted(), 'u1');
    expect(text).toBe(
      [
        'u1 (user, session.jsonl:3:1)',
        '  was collapsed at stage "budget": a compaction summary of the earlier turns stands for it in the context (the detail names that summary).',
        '  Detail: compacted into compaction-u1-a4.',
        '  Tokens: 20 before, 0 in the context.',
        '  Not in the stabilized context.',
        '  Run status: ok; budget 143/150 tokens.',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('Request 1');
    expect(text).not.toContain('q1x0');
  });

  it('explains a compaction summary superseded by its refresh', () => {
    const s = refreshed();
    expect(s.first).toBe('compaction-u1-a4');
    const text = explainIn(s, s.first);
    expect(text).toContain(
      '  was removed as an expired or invalid summary at stage "summaries": a later or refreshed compaction summary replaces it (the detail names that summary).\n' +
        '  Detail: superseded by compaction summary compaction-u1-a8.\n',
    );
    expect(text).toContain('  Summary: expired, age 4 of ttl 50 turns; superseded.\n');
    expect(text).toContain('  Not in the stabilized context.\n');
    // Its text (and what it summarized) is never quoted.
    expect(text).not.toContain('Summary of earlier turns');
    expect(text).not.toContain('Request 1');
  });
});
