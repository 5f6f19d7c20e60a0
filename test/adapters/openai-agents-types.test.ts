// The documented `contextStabilityInputFilter<{ chatId: string }>` with the SDK's own types (issue
// 29): `npm test` type-checks this file against @openai/agents-core, so a filter the SDK's run
// options refuse (TS2322: its run context is `unknown`) fails the run; and the session option gets
// the run context the SDK passes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallModelInputFilter } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { contextStabilityInputFilter } from '../../src/adapters/openai-agents.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('contextStabilityInputFilter with the SDK types', () => {
  it('a filter typed for the run context goes into the SDK run options, and reads that context', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cs-agents-types-'));
    const stabilizer = createContextStabilizer({ policy: { budget: 500 }, record: dir, onWarning: () => {} });
    const filter = contextStabilityInputFilter<{ chatId: string }>(stabilizer, {
      session: ({ context }) => context?.chatId ?? 'default',
    });
    // What `run(agent, input, { callModelInputFilter })` and `new Runner({ … })` declare.
    const untyped: CallModelInputFilter = filter;
    const typed: CallModelInputFilter<{ chatId: string }> = filter;
    expect(typed).toBe(untyped);
    const out = await filter({
      modelData: {
        input: [{ role: 'user', content: 'Summarize the open tickets.' }],
        instructions: 'You help.',
      },
      agent: { name: 'support' },
      context: { chatId: 'chat-42' },
    });
    expect(out.instructions).toBe('You help.');
    expect(out.input).toEqual([{ role: 'user', content: 'Summarize the open tickets.' }]);
    expect(readdirSync(dir)).toEqual(['chat-42.jsonl']);
  });
});
