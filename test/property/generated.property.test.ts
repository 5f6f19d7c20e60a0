// The invariants again, with the real o200k tokenizer, over realistic sessions from the seeded
// generator (test/support/generate) in every on-disk format, with the generator's PII ground truth.
// Fewer runs than the word-tokenizer properties: each case is a whole session counted by BPE.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import { policyFromObject } from '../../src/core/policy/index.js';
import type { Policy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Transcript, TranscriptFormat } from '../../src/core/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { fcOptions } from '../support/fc.js';
import { CORPUS_FORMATS, generateTranscript, serialize } from '../support/generate/index.js';
import type { CorpusFormat } from '../support/generate/index.js';
import { lies } from './support/green.js';
import type { Api } from './support/green.js';
import { projection, recount, sectionRank } from './support/run.js';

/** The APIs a transcript's own format talks to (`target: same`, no --emit); native names none. */
const OWN_APIS: Record<TranscriptFormat, Api[]> = {
  native: ['openai', 'anthropic'],
  openai: ['openai'],
  anthropic: ['anthropic'],
  'claude-code': ['anthropic'],
  codex: ['openai'],
  responses: ['openai'],
  'vercel-ai': ['openai', 'anthropic'],
  langchain: ['openai', 'anthropic'],
  gemini: ['openai'],
  openhands: ['openai'],
  aider: ['openai'],
  'claude-web': ['anthropic'],
};

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
});

const sessionArb = fc.record({
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  messages: fc.integer({ min: 8, max: 60 }),
  format: fc.constantFrom(...CORPUS_FORMATS),
});

const policyArb = fc
  .record({
    target: fc.constantFrom('same', 'same', 'openai', 'anthropic'),
    budget: fc.integer({ min: 50, max: 6000 }),
    keep_recent: fc.integer({ min: 0, max: 4 }),
    resilience: fc.record({ truncation_mode: fc.constantFrom('default', 'aggressive') }),
    tool_output: fc.record({ max_tokens: fc.integer({ min: 16, max: 400 }) }),
    dedup: fc.record({ enabled: fc.boolean() }),
    summaries: fc.record({ ttl: fc.integer({ min: 0, max: 60 }) }),
  })
  .map((input) => {
    const parsed = policyFromObject(input, { file: 'generated-policy.yml' });
    if (!parsed.ok) throw new Error('the policy arbitrary produced an invalid policy');
    return parsed.policy;
  });

interface Session {
  transcript: Transcript;
  planted: string[];
}

function session({
  seed,
  messages,
  format,
}: {
  seed: number;
  messages: number;
  format: CorpusFormat;
}): Session {
  const g = generateTranscript(seed, { messages, file: 'generated' });
  const text = serialize(g.artifacts, format, { seed });
  const read = readTranscript(text, { file: `generated.${format}` });
  if (!read.ok) throw new Error(`a generated ${format} session could not be read`);
  return { transcript: read.transcript, planted: g.planted.map((p) => p.value) };
}

function run(transcript: Transcript, policy: Policy): StabilizeResult {
  return stabilizeTranscript(transcript, { policy, tokenizer });
}

/** Checks a run of each status may fail: a warning is reported, only an escalation may break a rule. */
const ALLOWED = {
  ok: [],
  // The open loop left out as the last resort (degraded, issue 27) is a warning run: fresh_results.
  warning: ['status', 'fresh_results'],
  escalated: ['budget', 'protected', 'status', 'nonempty', 'provider', 'fresh_results'],
} as const;

describe('generated sessions, o200k tokenizer', () => {
  const everyInvariant = fc.property(sessionArb, policyArb, (s, policy) => {
    const { transcript, planted } = session(s);
    const r = run(transcript, policy);

    // 1. budget, recounted with the tokenizer itself
    const used = recount(r.context, policy, (t) => tokenizer.count(t));
    expect(r.budget.used).toBe(used);
    if (r.status !== 'escalated') expect(used).toBeLessThanOrEqual(policy.budget);

    // 2, 3. sections in policy order, chronology inside each
    const position = new Map(transcript.artifacts.map((a, i) => [a.id, i]));
    const keys = r.context.map((c) => [sectionRank(c.kind, policy.order).rank, position.get(c.id) ?? -1]);
    expect(keys).toEqual([...keys].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)));

    // 4. a green never lies: with or without --emit, no failing error check means the context
    // works and the emitted requests pass the providers' rules, and the provider check names
    // exactly the rules the verifiers find.
    expect(lies(transcript, r, { policy, tokenizer, ownApis: OWN_APIS[transcript.format] })).toEqual([]);

    // 5. deterministic
    expect(JSON.stringify(run(transcript, policy))).toBe(JSON.stringify(r));

    // 6. stabilizing the output again changes nothing
    if (r.context.length > 0) {
      const doc = JSON.stringify(emitContext(r.context, 'native', transcript));
      const again = readTranscript(doc, { file: 'stabilized.json', format: 'native' });
      if (!again.ok) throw new Error('the native emit could not be read back');
      expect(projection(run(again.transcript, policy).context)).toEqual(projection(r.context));
    }

    // 7. no planted PII anywhere in the result
    const json = JSON.stringify(r);
    expect(planted.filter((v) => json.includes(v)).length).toBe(0);

    // 9. the validate suite agrees with the status (a warning fails only status, as a warning;
    // an escalation may fail budget, protected and status); one ledger entry per input artifact. `guardian` judges the
    // recorded session's pressure (DESIGN §8), not the stabilized context: generated sessions
    // rise to full pressure on purpose.
    const failed = validateResult(transcript, r, { policy, tokenizer })
      .filter((k) => k.name !== 'guardian')
      .filter((k) => !(ALLOWED[r.status] as readonly string[]).includes(k.name))
      // A finding that is a warning whatever its check's severity (a fresh result excerpted by
      // tool_output, issue 28) is reported, never a failure of the stabilizer.
      .map((k) => ({ name: k.name, violations: k.violations.filter((v) => v.severity !== 'warning') }))
      .filter((k) => k.violations.length > 0);
    expect(failed).toEqual([]);
    expect(r.ledger.map((e) => e.id)).toEqual(transcript.artifacts.map((a) => a.id));
  });

  it('hold every invariant', () => {
    fc.assert(everyInvariant, fcOptions(80));
  });

  it('regression, seed 334614222: a warning run that left the open loop out as the last resort fails fresh_results, as allowed', () => {
    fc.assert(everyInvariant, {
      seed: 334614222,
      path: '1:1:4:4:2:3:3:4:3:1:3:3:3:2:3:3:3:3',
      endOnFailure: true,
    });
  });

  /**
   * A regression's session stabilized under `fields` (with dedup off and summaries at ttl 0), and that
   * result stabilized again after a native emit and read back: the two contexts must be the same.
   */
  function restabilized(
    fields: Record<string, unknown>,
    generated: { seed: number; messages: number },
  ): { first: ReturnType<typeof run>; again: ReturnType<typeof run> } {
    const parsed = policyFromObject(
      { ...fields, dedup: { enabled: false }, summaries: { ttl: 0 } },
      { file: 'regression.yml' },
    );
    if (!parsed.ok) throw new Error('invalid regression policy');
    const { transcript } = session({ ...generated, format: 'native-jsonl' });
    const first = run(transcript, parsed.policy);
    const doc = JSON.stringify(emitContext(first.context, 'native', transcript));
    const read = readTranscript(doc, { file: 'stabilized.json', format: 'native' });
    if (!read.ok) throw new Error('the native emit could not be read back');
    return { first, again: run(read.transcript, parsed.policy) };
  }

  it('regression, seed 1934508220: an excerpt is not cut again when the stabilized context is read back', () => {
    const { first, again } = restabilized(
      { budget: 201, keep_recent: 0, tool_output: { max_tokens: 17 } },
      { seed: 503900448, messages: 8 },
    );
    expect(first.ledger.some((e) => e.action === 'excerpted')).toBe(true);
    expect(projection(again.context)).toEqual(projection(first.context));
  });

  it('regression, seed 376363492: a call of an earlier task kept for a result that collapse took out leaves with the reset', () => {
    const { first, again } = restabilized(
      {
        budget: 326,
        keep_recent: 3,
        resilience: { truncation_mode: 'aggressive' },
        tool_output: { max_tokens: 16 },
      },
      { seed: 102468612, messages: 50 },
    );
    expect(projection(again.context)).toEqual(projection(first.context));
  });

  it('regression, seed 942184150: an excerpt that would hide the status of an outcome is not made, so read again it keeps its protection', () => {
    const { first, again } = restabilized(
      { budget: 50, keep_recent: 0, tool_output: { max_tokens: 17 } },
      { seed: 1946124194, messages: 32 },
    );
    // a27, get_order's latest outcome by its "status" key: a 17-token cut of it by characters kept
    // neither, and read again it was contents, so its call and the calls' other results were dropped.
    expect(first.ledger.find((e) => e.id === 'a27')?.protected_by).toEqual(['latest:get_order']);
    expect(projection(again.context)).toEqual(projection(first.context));
  });
});
