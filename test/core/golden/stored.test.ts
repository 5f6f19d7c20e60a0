// compareStored (issue 34 item 4): a stored golden is shown only masked, the finding names the
// types and the golden's line, and the verdict is decided on the golden as stored: masking its
// side neither hides a difference nor invents one.
import { describe, expect, it } from 'vitest';
import { buildGoldenText } from '../../../src/core/golden/golden.js';
import type { Golden } from '../../../src/core/golden/golden.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { STORED_PII_CODE, compareStored } from '../../../src/core/golden/stored.js';
import { piiSearchOf } from '../../../src/core/stabilize/stabilize.js';
import { TOKENIZER, handReport, item, ledger, policy } from './support.js';

const EMAIL = 'kim.stored@example.org';
const FILE = 'golden/t.jsonl.golden.json';

function headOf(p = policy(), overrides: Parameters<typeof handReport>[0] = {}): { golden: Golden; text: string } {
  return buildGoldenText(handReport(overrides), { transcript: 't.jsonl', policy: p, tokenizer: TOKENIZER });
}

/** The head golden with `edit` applied, written as a hand edit would (two-space JSON). */
function storedFrom(head: Golden, edit: (g: Golden) => void): string {
  const g = JSON.parse(JSON.stringify(head)) as Golden;
  edit(g);
  return `${JSON.stringify(g, null, 2)}\n`;
}

function compare(text: string, head: { golden: Golden; text: string }, p = policy()) {
  const r = compareStored(text, FILE, head, piiSearchOf(p));
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r;
}

describe('compareStored', () => {
  it('masks a raw value in the label form, at the golden line, and reports drift from the stored value', () => {
    const head = headOf(policy(), { context: [item('m1', 1, 'mail [EMAIL_1] now', 10)] });
    const text = storedFrom(head.golden, (g) => {
      (g.context[0] as { content: string }).content = `mail ${EMAIL} now`;
    });
    const r = compare(text, head);
    const shown = stableStringify(r.shown) + r.unified() + JSON.stringify(r.diff);
    expect(shown).not.toContain(EMAIL);
    expect((r.shown.context[0] as { content: string }).content).toBe('mail [REDACTED_EMAIL] now');
    // A raw value where this run has its alias: what the model reads changed, so it is drift.
    expect(r.diff.equal).toBe(false);
    expect(r.diff.contentChanged).toEqual([{ id: 'm1', line: 1 }]);
    // The unified diff shows that line as changed, not as equal.
    expect(r.unified()).toContain('-      "content": "mail [REDACTED_EMAIL] now"');
    expect(r.leak).toMatchObject({ code: STORED_PII_CODE, severity: 'error', file: FILE });
    expect(r.leak?.message).toContain('(email)');
    expect(text.split('\n')[(r.leak?.line ?? 0) - 1]).toContain(EMAIL);
    expect(r.leak?.message).not.toContain(EMAIL);
  });

  it('masks ids and the names the semantic diff shows', () => {
    const head = headOf();
    const text = storedFrom(head.golden, (g) => {
      (g.ledger[1] as { id: string }).id = `m2:${EMAIL}`;
      (g.ledger[1] as { reason: string }).reason = `asked by ${EMAIL}`;
    });
    const r = compare(text, head);
    expect(JSON.stringify(r.diff)).not.toContain(EMAIL);
    expect(r.diff.fates.map((f) => f.id)).toContain('m2:[REDACTED_EMAIL]');
    expect(r.diff.equal).toBe(false);
  });

  it('does not touch the strings this run also writes: no difference is invented', () => {
    // digit_run finds this id's digit run: both sides hold it, so it is neither masked nor a
    // finding; only the token count differs (metadata, not drift).
    const p = policy({ pii: { digit_run: 5 } });
    const head = headOf(p, { context: [item('build-1234567', 1, 'hello there', 10)] });
    const text = storedFrom(head.golden, (g) => {
      (g.context[0] as { tokens: number }).tokens = 123456;
    });
    const r = compare(text, head, p);
    expect(r.leak).toBeNull();
    expect(r.shown.context[0]?.id).toBe('build-1234567');
    expect(r.shown.context[0]?.tokens).toBe(123456);
    expect(r.diff.equal).toBe(true);
    expect(r.diff.metadata).toContain('token counts');
  });

  it('keeps allowed values and the stored text of a clean golden as they are', () => {
    const p = policy({ pii: { allow: [EMAIL] } });
    const head = headOf(p, { context: [item('m1', 1, `mail ${EMAIL}`, 10)] });
    const text = storedFrom(head.golden, (g) => {
      (g.context[0] as { tokens: number }).tokens = 11;
    });
    const r = compare(text, head, p);
    expect(r.leak).toBeNull();
    expect(r.diff.equal).toBe(true);
    expect(r.shown.context[0]).toMatchObject({ content: `mail ${EMAIL}`, tokens: 11 });
  });

  it('masks values in fields the schema does not know, numbers there included', () => {
    const head = headOf();
    const text = storedFrom(head.golden, (g) => {
      Object.assign(g, { note: { [EMAIL]: 'x', card: 4111111111111111 } });
      g.ledger.push(ledger('m9', 9, 'dropped', 'budget', 1));
    });
    const r = compare(text, head);
    const shown = stableStringify(r.shown) + r.unified();
    expect(shown).not.toContain(EMAIL);
    expect(shown).not.toContain('4111111111111111');
    expect(r.leak?.message).toMatch(/\(credit_card, email\)/);
  });

  it('searches a plain-text document but not an encoding', () => {
    const head = headOf();
    const text = storedFrom(head.golden, (g) => {
      const parts = [
        { type: 'document', source: { type: 'text', data: `call ${EMAIL}` } },
        { type: 'image', source: { type: 'base64', data: 'QUJD4155552671' } },
      ];
      (g.context[0] as { content: unknown }).content = parts;
    });
    const r = compare(text, head);
    const shown = JSON.stringify(r.shown.context[0]?.content);
    expect(shown).not.toContain(EMAIL);
    expect(shown).toContain('QUJD4155552671');
    expect(r.leak?.message).toContain('(email)');
  });

  it('reports an unreadable golden as parseGolden does', () => {
    const r = compareStored('{"schema": 1', FILE, headOf(), piiSearchOf(policy()));
    expect(r.ok).toBe(false);
  });
});
