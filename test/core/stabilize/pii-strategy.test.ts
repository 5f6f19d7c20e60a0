// PII strategies through the stabilizer (issue 29): numbering by first occurrence over the whole
// transcript (tool arguments included, whatever the budget drops), the same numbers over a growing
// history with or without a session memo, hashing with and without a key, and block refusing.
import { describe, expect, it } from 'vitest';
import { PiiKeyMissingError } from '../../../src/core/pii/aliases.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import { StabilizeMemo } from '../../../src/core/stabilize/memo.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Transcript } from '../../../src/core/types.js';
import { check, policy, wordTokenizer } from './helpers.js';

type Msg = Record<string, unknown>;

function transcript(messages: Msg[]): Transcript {
  const read = readTranscript(JSON.stringify(messages), { file: 'chat.json', format: 'openai' });
  if (!read.ok) throw new Error('unreadable');
  return read.transcript;
}

/** Every text the context sends: contents and tool arguments. */
function sent(r: StabilizeResult): string {
  return JSON.stringify(r.context.map((c) => [c.content, c.tool_calls?.map((t) => t.arguments) ?? []]));
}

const CHAT: Msg[] = [
  { role: 'system', content: 'You are a support agent.' },
  { role: 'user', content: 'Ann is ann@example.org, her manager bob@example.com. Mail both.' },
  {
    role: 'assistant',
    content: 'Sending.',
    tool_calls: [
      {
        id: 'c1',
        type: 'function',
        function: { name: 'send_mail', arguments: '{"to":"carl@example.net","cc":"ann@example.org"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'queued for carl@example.net and ann@example.org' },
  { role: 'user', content: 'Now call BOB@example.com at +44 20 7946 0958, then dave@example.com.' },
];

const numbered = (extra: Record<string, unknown> = {}) => policy({ ...extra, pii: { strategy: 'numbered' } });

describe('pii.strategy numbered', () => {
  it('numbers values by first occurrence, artifact by artifact, tool arguments included', () => {
    const r = stabilizeTranscript(transcript(CHAT), { policy: numbered(), tokenizer: wordTokenizer });
    const text = sent(r);
    expect(text).toContain('Ann is [EMAIL_1], her manager [EMAIL_2]. Mail both.');
    expect(text).toContain('{\\"to\\":\\"[EMAIL_3]\\",\\"cc\\":\\"[EMAIL_1]\\"}');
    expect(text).toContain('queued for [EMAIL_3] and [EMAIL_1]');
    expect(text).toContain('Now call [EMAIL_2] at [PHONE_1], then [EMAIL_4].');
    expect(text).not.toMatch(/@example\.|7946/);
    // Counts stay per type, and the pii check passes on aliases.
    expect(r.ledger.find((e) => e.id === 'm1')?.pii).toEqual({ email: 2 });
    expect(check(transcript(CHAT), r, numbered())['pii']?.ok).toBe(true);
  });

  it('numbers over the whole transcript, also what the budget drops', () => {
    const t = transcript(CHAT);
    const tight = numbered({ budget: 12, keep_recent: 1 });
    const r = stabilizeTranscript(t, { policy: tight, tokenizer: wordTokenizer });
    // carl (EMAIL_3) was met only in the call and result the budget dropped: dave is still EMAIL_4.
    expect(r.context.map((c) => c.id)).toEqual(['m0', 'm1', 'm4']);
    expect(sent(r)).toContain('Now call [EMAIL_2] at [PHONE_1], then [EMAIL_4].');
  });

  it('a growing history keeps every number; a session memo gives the fresh result on every call', () => {
    const memo = new StabilizeMemo();
    const p = numbered();
    let previous = new Map<string, string>();
    for (let n = 2; n <= CHAT.length; n++) {
      // The model is called before each assistant turn: never with a call still waiting for its
      // result (that history says so in a note the next call no longer needs).
      if ((CHAT[n - 1] as Msg)['tool_calls'] !== undefined) continue;
      const t = transcript(CHAT.slice(0, n));
      const fresh = stabilizeTranscript(t, { policy: p, tokenizer: wordTokenizer });
      const warm = stabilizeTranscript(t, { policy: p, tokenizer: wordTokenizer, memo });
      expect(warm).toEqual(fresh);
      // A call is kept only with its result: compare the contents, which every call shows.
      const texts = new Map(fresh.context.map((c) => [c.id, JSON.stringify(c.content)]));
      for (const [id, text] of previous) if (texts.has(id)) expect(texts.get(id)).toBe(text);
      previous = texts;
    }
  });

  it('with a session memo, a value keeps its number when the host rewrites its history', () => {
    const memo = new StabilizeMemo();
    const p = numbered();
    stabilizeTranscript(transcript(CHAT), { policy: p, tokenizer: wordTokenizer, memo });
    // The host dropped the first turns: a fresh run would make bob EMAIL_1.
    const rewritten = transcript([CHAT[0] as Msg, CHAT[4] as Msg]);
    const r = stabilizeTranscript(rewritten, { policy: p, tokenizer: wordTokenizer, memo });
    expect(sent(r)).toContain('Now call [EMAIL_2] at [PHONE_1], then [EMAIL_4].');
    const fresh = stabilizeTranscript(rewritten, { policy: p, tokenizer: wordTokenizer });
    expect(sent(fresh)).toContain('Now call [EMAIL_1] at [PHONE_1], then [EMAIL_2].');
  });

  it('stabilizing the stabilized context again changes nothing (aliases are inert)', () => {
    const r = stabilizeTranscript(transcript(CHAT), { policy: numbered(), tokenizer: wordTokenizer });
    const again = transcript(
      r.context.map((c) =>
        c.tool_calls
          ? {
              role: 'assistant',
              content: c.content,
              tool_calls: c.tool_calls.map((t) => ({
                id: t.id,
                type: 'function',
                function: { name: t.name, arguments: t.arguments },
              })),
            }
          : c.kind === 'tool'
            ? { role: 'tool', tool_call_id: c.call_id, content: c.content }
            : { role: c.kind, content: c.content },
      ),
    );
    const r2 = stabilizeTranscript(again, { policy: numbered(), tokenizer: wordTokenizer });
    expect(sent(r2)).toBe(sent(r));
    expect(r2.ledger.every((e) => e.pii === undefined)).toBe(true);
    expect(r.ledger.some((e) => e.pii !== undefined)).toBe(true);
  });
});

describe('pii.strategy hash', () => {
  const hashed = () => policy({ pii: { strategy: 'hash' } });

  it('needs a key: PiiKeyMissingError names the variable and the option', () => {
    const run = () => stabilizeTranscript(transcript(CHAT), { policy: hashed(), tokenizer: wordTokenizer });
    expect(run).toThrow(PiiKeyMissingError);
    expect(run).toThrow(/CONTEXT_STABILITY_PII_KEY.*piiKey/);
  });

  it('with a key: one alias per value, stable across transcripts, another under another key', () => {
    const a = sent(
      stabilizeTranscript(transcript(CHAT), { policy: hashed(), tokenizer: wordTokenizer, piiKey: 'k1' }),
    );
    const bob = /her manager \[EMAIL_([a-z2-7]{8})\]/.exec(a)?.[1];
    expect(bob).toBeDefined();
    expect(a).toContain(`Now call [EMAIL_${bob}] at [PHONE_`);
    const alone = transcript([CHAT[0] as Msg, CHAT[4] as Msg]);
    const b = sent(stabilizeTranscript(alone, { policy: hashed(), tokenizer: wordTokenizer, piiKey: 'k1' }));
    expect(b).toContain(`[EMAIL_${bob}]`);
    const c = sent(stabilizeTranscript(alone, { policy: hashed(), tokenizer: wordTokenizer, piiKey: 'k2' }));
    expect(c).not.toContain(`[EMAIL_${bob}]`);
    expect(a + b + c).not.toMatch(/@example\./);
  });
});

describe('pii.strategy block', () => {
  const block = () => policy({ pii: { strategy: 'block' } });

  it('masks as redact, escalates, and the pii check reports each artifact holding PII at its line', () => {
    const t = transcript(CHAT);
    const r = stabilizeTranscript(t, { policy: block(), tokenizer: wordTokenizer });
    expect(sent(r)).toContain('Ann is [REDACTED_EMAIL], her manager [REDACTED_EMAIL].');
    expect(r.status).toBe('escalated');
    const event = r.events.find((e) => e.code === 'pii_blocked');
    expect(event?.message).toBe(
      '4 artifacts of the context hold PII (8 email, 1 phone) and pii.strategy is block: the call is refused',
    );
    const checks = check(t, r, block());
    expect(checks['pii']?.violations.map((v) => [v.id, v.line, v.message])).toEqual([
      ['m1', 1, 'PII in the context (2 email, masked) and pii.strategy is block: the call would be refused'],
      ['m2', 1, 'PII in the context (2 email, masked) and pii.strategy is block: the call would be refused'],
      ['m3', 1, 'PII in the context (2 email, masked) and pii.strategy is block: the call would be refused'],
      [
        'm4',
        1,
        'PII in the context (2 email, 1 phone, masked) and pii.strategy is block: the call would be refused',
      ],
    ]);
    expect(checks['status']?.violations[0]?.message).toMatch(/pii.strategy is block/);
    expect(JSON.stringify([r.events, checks])).not.toMatch(/@example\.|7946/);
  });

  it('a context without PII goes out', () => {
    const clean = transcript([CHAT[0] as Msg, { role: 'user', content: 'Summarize the release notes.' }]);
    const r = stabilizeTranscript(clean, { policy: block(), tokenizer: wordTokenizer });
    expect(r.status).toBe('ok');
    expect(check(clean, r, block())['pii']?.ok).toBe(true);
  });
});

describe('pii.strategy redact', () => {
  it('one text per type, as before strategies existed', () => {
    const r = stabilizeTranscript(transcript(CHAT), {
      policy: policy({ pii: { strategy: 'redact' } }),
      tokenizer: wordTokenizer,
    });
    expect(sent(r)).toContain('Now call [REDACTED_EMAIL] at [REDACTED_PHONE], then [REDACTED_EMAIL].');
    expect(sent(r)).not.toMatch(/_1\]/);
  });
});
