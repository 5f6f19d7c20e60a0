// The per-session shortcuts of the in-agent stabilizer change the cost of a call, never its result:
// a shared memo (token counts, masked texts, dedup features, PII findings) gives the result a fresh
// run gives, and the message-by-message reader gives the artifacts, pairing and meta of a whole read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IncrementalReader } from '../../src/api/incremental-read.js';
import { toTranscript } from '../../src/api/input.js';
import { toAnthropic } from '../../src/core/emit/anthropic.js';
import { toOpenAI } from '../../src/core/emit/openai.js';
import { toResponses } from '../../src/core/emit/responses.js';
import { StabilizeMemo } from '../../src/core/stabilize/memo.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { Transcript } from '../../src/core/types.js';
import { fcOptions } from '../support/fc.js';
import { policyArb } from '../property/support/policy-arb.js';
import { contextOf } from '../property/support/run.js';
import { wordTokenizer } from '../property/support/tokenizer.js';
import { caseArb, readCase } from '../property/support/transcript-arb.js';

type OpenAIish = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

/** OpenAI chat messages as LangChain stored messages; undefined when a call's arguments are not JSON. */
function toLangChain(
  messages: readonly OpenAIish[],
): { type: string; data: Record<string, unknown> }[] | undefined {
  const out: { type: string; data: Record<string, unknown> }[] = [];
  let ai = 0;
  for (const m of messages) {
    const content = m.content ?? '';
    if (m.role === 'assistant') {
      const calls = [];
      for (const c of m.tool_calls ?? []) {
        let args: unknown;
        try {
          args = JSON.parse(c.function.arguments);
        } catch {
          return undefined;
        }
        if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
        calls.push({ id: c.id, name: c.function.name, args, type: 'tool_call' });
      }
      const data: Record<string, unknown> = { content, tool_calls: calls };
      if (ai++ % 3 === 1) data['response_metadata'] = { model_name: `model-${ai}` };
      out.push({ type: 'ai', data });
    } else if (m.role === 'tool') out.push({ type: 'tool', data: { content, tool_call_id: m.tool_call_id } });
    else out.push({ type: m.role === 'user' ? 'human' : 'system', data: { content } });
  }
  return out;
}

/** What a whole read and a message-by-message read must agree on (source lines differ by design). */
function comparable(t: Transcript) {
  return {
    format: t.format,
    meta: t.meta,
    artifacts: t.artifacts.map(({ source: _source, ...rest }) => rest),
    resultToCall: t.pairing.resultToCall,
    unpairedCalls: t.pairing.unpairedCalls.map((u) => [u.artifact, u.call_id]),
    unpairedResults: t.pairing.unpairedResults.map((u) => [u.artifact, u.call_id]),
    diagnostics: t.diagnostics.map((d) => `${d.severity}:${d.code}`).sort(),
  };
}

describe('per-session memo', () => {
  it('a session that grows call by call gets, at every call, the result of a fresh run', () => {
    fc.assert(
      fc.property(caseArb, policyArb, fc.integer({ min: 1, max: 6 }), (c, policy, step) => {
        const doc = JSON.parse(c.text) as { meta: object; artifacts: object[] };
        const memo = new StabilizeMemo();
        for (let n = Math.min(step, doc.artifacts.length); ; n = Math.min(n + step, doc.artifacts.length)) {
          const prefix = readCase(doc.artifacts.slice(0, n) as never, c.pii).transcript;
          const fresh = stabilizeTranscript(prefix, { policy, tokenizer: wordTokenizer });
          const shared = stabilizeTranscript(prefix, { policy, tokenizer: wordTokenizer, memo });
          expect(JSON.stringify(shared)).toBe(JSON.stringify(fresh));
          if (n === doc.artifacts.length) break;
        }
      }),
      fcOptions(150),
    );
  }, 180_000);

  it('a memo used under another policy starts over (masking depends on the policy)', () => {
    const c = fc.sample(caseArb, { seed: 7, numRuns: 1 })[0]!;
    const memo = new StabilizeMemo();
    const [a, b] = fc.sample(policyArb, { seed: 11, numRuns: 2 });
    stabilizeTranscript(c.transcript, { policy: a!, tokenizer: wordTokenizer, memo });
    const second = stabilizeTranscript(c.transcript, { policy: b!, tokenizer: wordTokenizer, memo });
    expect(second).toEqual(stabilizeTranscript(c.transcript, { policy: b!, tokenizer: wordTokenizer }));
  });
});

describe('message-by-message reading', () => {
  for (const format of ['openai', 'anthropic'] as const) {
    it(`${format}: every growing prefix reads as the whole payload does`, () => {
      fc.assert(
        fc.property(caseArb, fc.integer({ min: 1, max: 5 }), (c, step) => {
          const context = contextOf(c.transcript);
          const payload: { system?: unknown; messages: unknown[] } =
            format === 'openai' ? { messages: toOpenAI(context) } : { ...toAnthropic(context) };
          const reader = new IncrementalReader();
          const total = payload.messages.length;
          for (let n = Math.min(step, total); n <= total && total > 0; n += step) {
            const prefix = { ...payload, messages: payload.messages.slice(0, n) };
            let whole: Transcript;
            try {
              whole = toTranscript(JSON.parse(JSON.stringify(prefix)) as Record<string, unknown>, {
                file: 'p',
                format,
              });
            } catch {
              // Not a readable payload whole: the incremental reader must not make one of it.
              expect(reader.read(prefix, format, 'p')).toBeUndefined();
              continue;
            }
            const inc = reader.read(prefix, format, 'p');
            if (inc === undefined) continue;
            expect(comparable(inc)).toEqual(comparable(whole));
          }
        }),
        fcOptions(300),
      );
    }, 120_000);
  }

  // LangChain stored messages (messages_to_dict) of the same conversation; every third AI message
  // names its model, which the whole read takes from the first one that does.
  it('langchain: every growing prefix reads as the whole payload does', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 5 }), (c, step) => {
        const messages = toLangChain(toOpenAI(contextOf(c.transcript)));
        if (messages === undefined) return;
        const reader = new IncrementalReader();
        for (let n = Math.min(step, messages.length); n <= messages.length; n += step) {
          const prefix = messages.slice(0, n);
          let whole: Transcript;
          try {
            whole = toTranscript(JSON.parse(JSON.stringify(prefix)) as unknown[], {
              file: 'p',
              format: 'langchain',
            });
          } catch {
            expect(reader.read(prefix, 'langchain', 'p')).toBeUndefined();
            continue;
          }
          const inc = reader.read(prefix, 'langchain', 'p');
          expect(inc).toBeDefined();
          expect(comparable(inc!)).toEqual(comparable(whole));
        }
      }),
      fcOptions(300),
    );
  }, 120_000);

  // A Responses body of the same conversation (or its bare item array), with `instructions` in some
  // cases; a step of 1–5 items often cuts a model run (message, calls) that the next prefix grows.
  it('responses: every growing prefix reads as the whole payload does', () => {
    // Prefixes read whole by both, and read incrementally: most of them must be.
    let readable = 0;
    let incremental = 0;
    fc.assert(
      fc.property(
        caseArb,
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        (c, step, instructions, bare, copy) => {
          const items = toResponses(contextOf(c.transcript)).input;
          const reader = new IncrementalReader();
          for (let n = Math.min(step, items.length); n <= items.length; n += step) {
            // The same item objects call after call, or new ones (known then by their JSON).
            const input = copy ? structuredClone(items.slice(0, n)) : items.slice(0, n);
            const prefix = bare ? input : instructions === undefined ? { input } : { instructions, input };
            let whole: Transcript;
            try {
              whole = toTranscript(JSON.parse(JSON.stringify(prefix)) as Record<string, unknown>, {
                file: 'p',
                format: 'responses',
              });
            } catch {
              expect(reader.read(prefix, 'responses', 'p')).toBeUndefined();
              continue;
            }
            const inc = reader.read(prefix, 'responses', 'p');
            readable++;
            if (inc === undefined) continue;
            incremental++;
            expect(comparable(inc)).toEqual(comparable(whole));
          }
        },
      ),
      fcOptions(300),
    );
    expect(incremental).toBeGreaterThan(readable * 0.8);
  }, 120_000);

  it('reads LangChain legacy function messages whole (their pairing depends on the message before)', () => {
    const messages = [
      { type: 'human', data: { content: 'hi' } },
      {
        type: 'ai',
        data: { content: '', additional_kwargs: { function_call: { name: 'f', arguments: '{}' } } },
      },
      { type: 'function', data: { name: 'f', content: 'ok' } },
    ];
    expect(new IncrementalReader().read(messages, 'langchain', 'p')).toBeUndefined();
  });

  it('reads legacy OpenAI function calls whole (their call ids depend on the message index)', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
      { role: 'function', name: 'f', content: 'ok' },
    ];
    expect(new IncrementalReader().read({ messages }, 'openai', 'p')).toBeUndefined();
  });

  it('reuses a message read in an earlier call, and places it at its index', () => {
    const reader = new IncrementalReader();
    const m0 = { role: 'system', content: 'rules' };
    const m1 = { role: 'user', content: 'task' };
    const first = reader.read([m0, m1], 'openai', 'p')!;
    const second = reader.read([m0, m1, { role: 'assistant', content: 'done' }], 'openai', 'p')!;
    expect(second.artifacts.slice(0, 2)).toEqual(first.artifacts);
    expect(second.artifacts.map((a) => [a.id, a.source.line])).toEqual([
      ['m0', 1],
      ['m1', 2],
      ['m2', 3],
    ]);
  });
});
