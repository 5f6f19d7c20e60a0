// The package entry as the README shows it: an agent stabilizes its OpenAI messages before every
// model call and sends the emitted request body.
import { describe, it, expect } from 'vitest';
import * as lib from '../../src/index.js';
import type { OpenAIMessage, StabilizeResult } from '../../src/index.js';

describe('package entry: stabilizer surface', () => {
  it('runs the README agent loop: stabilize before each call, send emitContext(…, "openai")', async () => {
    const { policy } = lib.resolvePolicy({ budget: 200, keep_recent: 2 });
    const cache = new Map<string, number>();
    const sent: { messages: OpenAIMessage[] }[] = [];

    async function callModel(messages: OpenAIMessage[]): Promise<StabilizeResult> {
      const result = await lib.stabilize(messages, { policy, cache });
      const body = lib.emitContext(result.context, 'openai') as { messages: OpenAIMessage[] };
      sent.push(body);
      return result;
    }

    const history: OpenAIMessage[] = [{ role: 'system', content: 'You are a release assistant.' }];
    for (let i = 0; i < 8; i++) {
      history.push({ role: 'user', content: `Prepare release note ${i}; the owner is rel${i}@example.com.` });
      const result = await callModel(history);
      expect(result.budget.used).toBeLessThanOrEqual(200);
      history.push({
        role: 'assistant',
        content: `Release note ${i} drafted with the changes of sprint ${i}.`,
      });
    }
    expect(sent).toHaveLength(8);
    for (const body of sent) {
      expect(lib.verifyOpenAI(body.messages)).toEqual([]);
      expect(JSON.stringify(body)).not.toMatch(/rel\d@example\.com/);
    }
    // The budget made the later requests drop the oldest turns, never the system prompt.
    const last = sent[7]?.messages ?? [];
    expect(last[0]).toEqual({ role: 'system', content: 'You are a release assistant.' });
    expect(last.length).toBeLessThan(history.length - 1);
  });

  it('exports the async wrappers, the pure functions, emitters, verifiers and report', () => {
    for (const name of [
      'stabilize',
      'validate',
      'toTranscript',
      'resolvePolicy',
      'policyFromObject',
      'stabilizeTranscript',
      'validateResult',
      'emitContext',
      'resolveEmitFormat',
      'toOpenAI',
      'toAnthropic',
      'verifyOpenAI',
      'verifyAnthropic',
      'buildReport',
      'failingChecks',
      'explainArtifact',
    ] as const) {
      expect(typeof lib[name], name).toBe('function');
    }
    expect(lib.EMIT_FORMATS).toEqual(['same', 'native', 'openai', 'anthropic', 'responses']);
    // The existing surface stays.
    expect(typeof lib.readTranscript).toBe('function');
    expect(typeof lib.loadTranscript).toBe('function');
    expect(typeof lib.parsePolicy).toBe('function');
  });

  it('builds the report of DESIGN §7 from a library run', async () => {
    const messages: OpenAIMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ];
    const transcript = lib.toTranscript(messages);
    const result = await lib.stabilize(transcript);
    const report = lib.buildReport(result, await lib.validate(transcript, result));
    expect(Object.keys(report)).toEqual([
      'transcript',
      'status',
      'budget',
      'context',
      'ledger',
      'summaries',
      'checks',
      'events',
    ]);
    expect(lib.failingChecks(report.checks)).toEqual([]);
  });
});
