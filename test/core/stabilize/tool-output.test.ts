// Stage 5 (tool output): under pressure (the history does not fit the budget, issue 27), older
// verbose JSON outputs of unprotected tools are masked to keep_fields; what is still too long is
// dropped, and a dropped result never leaves its call orphaned. The open tool loop (the trailing
// results) is never cut here, and with room to spare nothing is.
import { describe, expect, it } from 'vitest';
import type { Draft } from '../../support/artifacts.js';
import { bash, call, calls, result, t, user, words } from '../../support/artifacts.js';
import type { Policy } from '../../../src/core/policy/index.js';
import type { Transcript } from '../../../src/core/types.js';
import { check, entry, fate, ids, item, policy, pressed, run } from './helpers.js';

/** Pretty-printed, so the word tokenizer sees one token per line fragment (~40 tokens here). */
const ORDER = JSON.stringify(
  {
    result: 'found',
    status: 'shipped',
    error: null,
    items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${i}`, qty: i + 1 })),
    warehouse: 'north',
  },
  null,
  2,
);
const MASKED_ORDER = '{"result":"found","status":"shipped","error":null}';
const SMALL = { tool_output: { max_tokens: 10 }, keep_recent: 0 };
const P = policy(SMALL);

/** `P` with the budget one token below what the whole history takes (the cutting stages act then). */
const squeezed = (tr: Transcript): Policy => pressed(tr, SMALL);

/**
 * Two lookups of one tool: the first is not the latest of its family, so it is not protected. The
 * second reports a status (an outcome, outcome.ts), so it is the family's latest outcome whatever the
 * first holds.
 */
function lookups(first: string, extra: Partial<Draft> = {}, text = ''): Draft[] {
  return [
    user('u', 'where are my orders?'),
    { ...calls('a1', [call('c1', 'get_order', { id: 1 })], text), ...extra },
    result('r1', 'c1', first),
    calls('a2', [call('c2', 'get_order', { id: 2 })]),
    result('r2', 'c2', '{"status": "processing"}'),
  ];
}

describe('tool output: masking to keep_fields', () => {
  it('masks a verbose JSON output down to result, status and error', () => {
    const tr = t(...lookups(ORDER));
    const r = run(tr, squeezed(tr));
    expect(fate(r, 'r1')).toBe('masked/tool_output_fields');
    expect(item(r, 'r1').content).toBe(MASKED_ORDER);
    expect(entry(r, 'r1')).toMatchObject({
      stage: 'tool_output',
      detail: 'verbose JSON output masked to result, status, error (2 fields removed)',
      tokens_after: 1,
    });
    expect(entry(r, 'r1').tokens_before).toBeGreaterThan(10);
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'tool_output_masked',
      message: 'masked 1 JSON tool outputs to result, status, error',
    });
  });

  it('masks each object of a JSON array', () => {
    const rows = JSON.stringify(
      Array.from({ length: 4 }, (_, i) => ({ status: `s${i}`, payload: words(5) })),
      null,
      2,
    );
    const tr = t(...lookups(rows));
    const r = run(tr, squeezed(tr));
    expect(item(r, 'r1').content).toBe('[{"status":"s0"},{"status":"s1"},{"status":"s2"},{"status":"s3"}]');
  });

  it('leaves an output within max_tokens whole, extra fields and all', () => {
    const small = '{"status": "ok", "trace": "abc"}';
    const r = run(t(...lookups(small)), P);
    expect(fate(r, 'r1')).toBe('kept/in_budget');
    expect(item(r, 'r1').content).toBe(small);
  });

  it('never masks or drops the latest outcome of a command family: an older one over max_tokens stays as an excerpt', () => {
    // The user's next message closes the loop (the open loop's results are never cut here), and
    // the budget one below the history's size puts it under pressure.
    const tr = t(
      user('u', 'where is my order?'),
      calls('a1', [call('c1', 'get_order', { id: 1 })]),
      result('r1', 'c1', ORDER),
      user('u2', 'thanks, and when does it arrive?'),
    );
    const r = run(tr, pressed(tr, { tool_output: { max_tokens: 32 }, keep_recent: 0 }));
    const e = entry(r, 'r1');
    expect(e).toMatchObject({
      stage: 'tool_output',
      action: 'excerpted',
      reason: 'verbose_tool_output',
      protected_by: ['latest:get_order'],
    });
    expect(e.detail).toMatch(
      /^protected \(latest:get_order\) output over tool_output.max_tokens \(32\): cut to its head and tail, \d+ lines?, \d+ characters? left out$/,
    );
    const text = String(item(r, 'r1').content);
    expect(text.split('\n').at(0)).toBe('{');
    expect(text.split('\n').at(-1)).toBe('}');
    expect(text).toMatch(/\[\.\.\. \d+ lines?, \d+ characters? left out \.\.\.\]/);
    // It keeps a status key, so read again it is still the family's latest outcome (protected).
    expect(text).toContain('"error": null');
    expect(r.events.map((x) => x.code)).toContain('tool_output_excerpted');
    expect(r.status).toBe('ok');
  });
});

describe('tool output: verbose outputs dropped', () => {
  it('drops a JSON output that has none of the keep_fields', () => {
    const blob = JSON.stringify({ customer: { name: 'A', tier: 'gold' }, history: words(20) }, null, 2);
    const tr = t(...lookups(blob));
    const r = run(tr, squeezed(tr));
    expect(fate(r, 'r1')).toBe('dropped/verbose_tool_output');
    expect(entry(r, 'r1').detail).toBe('over tool_output.max_tokens (10)');
    expect(r.events).toContainEqual({
      level: 'major',
      code: 'verbose_tool_output',
      message: 'dropped 1 tool outputs over 10 tokens',
    });
  });

  it('drops a JSON output that is still too long after masking', () => {
    const blob = JSON.stringify({ result: words(20), debug: words(5) }, null, 2);
    const tr = t(...lookups(blob));
    const r = run(tr, squeezed(tr));
    expect(fate(r, 'r1')).toBe('dropped/verbose_tool_output');
    expect(entry(r, 'r1').detail).toBe('over tool_output.max_tokens (10) even when masked to keep_fields');
  });

  it('drops a plain-text output over max_tokens', () => {
    const tr = t(...lookups(words(40, 'log')));
    const r = run(tr, squeezed(tr));
    expect(fate(r, 'r1')).toBe('dropped/verbose_tool_output');
  });

  it('never field-masks the output of a protected tool: it is kept or dropped whole', () => {
    const tr = t(
      user('u', 'fetch it twice'),
      calls('a1', [bash('c1', 'curl -s https://api.example.test/orders/1')]),
      result('r1', 'c1', ORDER),
      calls('a2', [bash('c2', 'curl -s https://api.example.test/orders/2')]),
      result('r2', 'c2', 'not found'),
    );
    const r = run(tr, squeezed(tr));
    // Two URLs are two invocations (DESIGN §4 stage 6): r1 is not stale, it is an outcome of the
    // protected tool bash, and it is never masked down to keep_fields.
    expect(entry(r, 'r1').reason).not.toBe('superseded');
    expect(entry(r, 'r1').protected_by).toContain('tool:bash');
    expect(entry(r, 'r1').action).not.toBe('masked');
    expect(r.context.find((c) => c.id === 'r1')?.content).not.toBe(MASKED_ORDER);
  });
});

describe('tool output: pair integrity', () => {
  it('takes the call with a dropped result, and the assistant when nothing else is left', () => {
    const tr = t(...lookups(words(40)));
    const p = squeezed(tr);
    const r = run(tr, p);
    expect(fate(r, 'a1')).toBe('dropped/pair_unit');
    expect(entry(r, 'a1').detail).toBe("its only tool calls' results were removed (r1: verbose_tool_output)");
    expect(ids(r)).toEqual(['u', 'a2', 'r2']);
    expect(check(tr, r, p).pairing?.ok).toBe(true);
  });

  it('keeps the text of an assistant whose call left with its result', () => {
    const tr = t(...lookups(words(40), {}, 'Let me look that up.'));
    const r = run(tr, squeezed(tr));
    expect(fate(r, 'a1')).toBe('compressed/pair_unit');
    expect(item(r, 'a1')).toMatchObject({ content: 'Let me look that up.' });
    expect(item(r, 'a1')).not.toHaveProperty('tool_calls');
    expect(entry(r, 'a1')).toMatchObject({ tokens_before: 7, tokens_after: 5 });
  });

  it('replaces the result by a placeholder when the assistant that made the call is protected', () => {
    const tr = t(...lookups(words(40), { pin: true }));
    const p = squeezed(tr);
    const r = run(tr, p);
    expect(fate(r, 'r1')).toBe('compressed/pair_placeholder');
    expect(item(r, 'r1')).toMatchObject({
      placeholder: true,
      content: '[tool result omitted: verbose output over the tool_output.max_tokens limit]',
    });
    expect(entry(r, 'r1').detail).toBe(
      'verbose_tool_output: over tool_output.max_tokens (10); replaced by a placeholder because its call in a1 is kept',
    );
    expect(item(r, 'a1').tool_calls?.map((c) => c.id)).toEqual(['c1']);
    expect(check(tr, r, p).pairing?.ok).toBe(true);
  });

  it('removes only the dropped call of a parallel pair', () => {
    const tr = t(
      user('u', 'look up both orders'),
      calls('a1', [call('c1', 'get_order', { id: 1 }), call('c2', 'get_order', { id: 2 })]),
      result('r1', 'c1', words(40)),
      result('r2', 'c2', 'order 2: processing'),
      calls('a2', [call('c3', 'get_order', { id: 3 })]),
      result('r3', 'c3', 'order 3: delivered'),
    );
    const p = squeezed(tr);
    const r = run(tr, p);
    expect(fate(r, 'r1')).toBe('dropped/verbose_tool_output');
    expect(fate(r, 'a1')).toBe('compressed/pair_unit');
    expect(item(r, 'a1').tool_calls?.map((c) => c.id)).toEqual(['c2']);
    expect(ids(r)).toEqual(['u', 'a1', 'r2', 'a2', 'r3']);
    expect(check(tr, r, p).pairing?.ok).toBe(true);
  });

  it('keeps the call for a protected sibling: the dropped result becomes a placeholder', () => {
    // r2 is the latest get_order outcome (it reports a status), so a1 (which made both calls) is
    // protected. The user's next message closes the loop: r1 is an older output, which may be cut.
    const tr = t(
      user('u', 'look up both orders'),
      calls('a1', [call('c1', 'get_order', { id: 1 }), call('c2', 'get_order', { id: 2 })]),
      result('r1', 'c1', words(40)),
      result('r2', 'c2', '{"status": "processing"}'),
      user('u2', 'and the second one?'),
    );
    const p = squeezed(tr);
    const r = run(tr, p);
    expect(entry(r, 'a1').protected_by).toEqual(['latest:get_order', 'pair:r2']);
    expect(fate(r, 'r1')).toBe('compressed/pair_placeholder');
    expect(item(r, 'a1').tool_calls?.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(check(tr, r, p).pairing?.ok).toBe(true);
  });
});
