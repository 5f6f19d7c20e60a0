// A host that summarizes with a model: the summarizer's text replaces the deterministic compaction
// summary, becomes a summary artifact of the history, is recorded, and CI replays it without a model.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stabilizeOpenAIRequest } from '../../src/adapters/request-body.js';
import type { RuntimeWarning } from '../../src/runtime/errors.js';
import { createContextStabilizer } from '../../src/runtime/stabilizer.js';
import type { SummarizerInput } from '../../src/runtime/stabilizer.js';
import { updateThenCheck } from '../support/check-recording.js';

const EMAIL = 'sam.poe@example.com';
const POLICY = { budget: 700, keep_recent: 2, compaction: { enabled: true, max_tokens: 200 } };
const POLICY_YAML = 'budget: 700\nkeep_recent: 2\ncompaction:\n  enabled: true\n  max_tokens: 200\n';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-summarizer-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Msg = Record<string, unknown>;

function history(turns: number): Msg[] {
  const out: Msg[] = [{ role: 'system', content: 'You are a migration assistant.' }];
  for (let t = 1; t <= turns; t++) {
    out.push({
      role: 'user',
      content: `Step ${t}: migrate table t${t} and report the row count. Questions to ${EMAIL}.`,
    });
    out.push({
      role: 'assistant',
      content: `Migrated table t${t}: ${'copied rows in batches, verified checksums, rebuilt indexes; '.repeat(4)}done.`,
    });
  }
  return out;
}

/** Runs the loop call by call; returns what was sent at each call. */
async function loop(
  opts: Parameters<typeof createContextStabilizer>[0],
  turns: number,
): Promise<{ messages: { content: unknown }[] }[]> {
  const cs = createContextStabilizer(opts);
  const h = history(turns);
  const sent = [];
  for (let n = 3; n <= h.length; n += 2) {
    sent.push(await stabilizeOpenAIRequest(cs, { messages: h.slice(0, n) }, { session: 'mig' }));
  }
  return sent;
}

describe('summarizer', () => {
  it('replaces the deterministic summary, gets masked input, and is recorded for CI to replay without a model', async () => {
    const calls: SummarizerInput[] = [];
    const rec = path.join(dir, 'rec');
    const sent = await loop(
      {
        policy: POLICY,
        record: rec,
        onWarning: () => {},
        summarizer: async (input) => {
          calls.push(input);
          return `MODEL SUMMARY ${calls.length}: tables migrated so far, ${input.covers.length} artifacts.`;
        },
      },
      12,
    );
    expect(calls.length).toBeGreaterThan(0);
    const first = calls[0]!;
    expect(first.session).toBe('mig');
    expect(first.covers.length).toBeGreaterThan(0);
    expect(first.deterministic).toContain('Summary of earlier turns');
    expect(first.maxTokens).toBe(200);
    expect(JSON.stringify(first.artifacts)).not.toContain(EMAIL);
    expect(JSON.stringify(first.artifacts)).toContain('[EMAIL_1]');
    // A later compaction refreshes the model's summary, which the summarizer gets back.
    expect(calls.length).toBeGreaterThan(1);
    expect(calls[1]!.previous).toMatch(/^MODEL SUMMARY 1/);

    const last = JSON.stringify(sent[sent.length - 1]!.messages);
    expect(last).toContain(`MODEL SUMMARY ${calls.length}`);
    expect(last).not.toContain('Summary of earlier turns');

    const recorded = readFileSync(path.join(rec, 'mig.jsonl'), 'utf8');
    const summaries = recorded
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r['kind'] === 'summary');
    expect(summaries).toHaveLength(calls.length);
    expect(summaries[0]).toMatchObject({
      tags: ['compaction'],
      content: expect.stringMatching(/^MODEL SUMMARY 1/),
    });
    expect((summaries[0]!['provenance'] as string[]).length).toBe(first.covers.length);

    // CI: the recording checks green, and its golden holds the model's summary: no model needed.
    writeFileSync(path.join(dir, 'policy.yml'), POLICY_YAML);
    const { update, check } = await updateThenCheck(dir, 'rec/mig.jsonl', 'policy.yml');
    expect(update.code).toBe(0);
    expect(check.code).toBe(0);
    const golden = readFileSync(path.join(dir, 'golden/rec/mig.jsonl.golden.json'), 'utf8');
    expect(golden).toContain(`MODEL SUMMARY ${calls.length}`);
  });

  it('falls back to the deterministic summary with a warning when the summarizer fails', async () => {
    for (const [summarizer, why] of [
      [async () => Promise.reject(new TypeError('network down')), 'threw TypeError'],
      [async () => '   ', 'returned no text'],
      [async () => 'word '.repeat(400), 'over compaction.max_tokens'],
    ] as const) {
      const warnings: RuntimeWarning[] = [];
      const sent = await loop({ policy: POLICY, summarizer, onWarning: (w) => warnings.push(w) }, 12);
      const failures = warnings.filter((w) => w.code === 'summarizer');
      expect(failures.length, why).toBeGreaterThan(0);
      expect(failures[0]!.message).toContain(why);
      expect(failures[0]!.message).not.toContain('network down');
      expect(JSON.stringify(sent[sent.length - 1]!.messages)).toContain('Summary of earlier turns');
    }
  });

  it('is not called when nothing is compacted', async () => {
    let called = 0;
    await loop(
      {
        policy: { ...POLICY, budget: 50_000 },
        summarizer: async () => {
          called++;
          return 'x';
        },
        onWarning: () => {},
      },
      6,
    );
    expect(called).toBe(0);
  });
});
