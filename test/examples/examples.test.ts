// The bundled examples (examples/transcripts) are what the README's first command reads on a fresh
// clone, what the Action checks on itself and what the repo's goldens are made from. These tests
// keep them honest: each file loads cleanly in its format, every tool call is paired, the planted
// PII is real enough to be detected and never survives stabilization with the default policy, and
// each file still shows what examples/README.md says it shows.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import { findPii } from '../../src/core/pii/mask.js';
import { builtinDetectors } from '../../src/core/pii/registry.js';
import { DEFAULT_POLICY } from '../../src/core/policy/default.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Artifact, Content, Transcript, TranscriptFormat } from '../../src/core/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import type { CheckResult } from '../../src/core/validate/types.js';
import { loadTokenizer } from '../../src/tokens/load.js';

const DIR = fileURLToPath(new URL('../../examples/transcripts/', import.meta.url));

const EXAMPLES: Record<string, TranscriptFormat> = {
  'coding-agent.anthropic.json': 'anthropic',
  'parallel-tools.openai.json': 'openai',
  'phase-change.native.json': 'native',
  'session.claude-code.jsonl': 'claude-code',
  'summaries.native.jsonl': 'native',
  'support-session.openai.json': 'openai',
};
const NAMES = Object.keys(EXAMPLES);

/** The PII pasted into the examples, all of it fake: documentation ranges, test numbers, example domains. */
const PLANTED = [
  { type: 'email', value: 'margot.ellery@example.com' },
  { type: 'email', value: 'margot.e@example.org' },
  { type: 'phone', value: '+44 20 7946 0958' },
  { type: 'ssn', value: '123-45-6789' },
  { type: 'credit_card', value: '4111 1111 1111 1111' },
  { type: 'iban', value: 'GB82 WEST 1234 5698 7654 32' },
  { type: 'ip_address', value: '203.0.113.42' },
];
/** A bare 10-digit order id: dialable-looking digits that are not personal data. */
const ORDER_ID = '4817203956';

const MAX_BYTES = 200 * 1024;

interface Loaded {
  bytes: Buffer;
  text: string;
  transcript: Transcript;
  result: StabilizeResult;
  checks: CheckResult[];
}

let tokenizer: Tokenizer;
const loaded = new Map<string, Loaded>();

function example(name: string): Loaded {
  const hit = loaded.get(name);
  if (hit) return hit;
  const bytes = readFileSync(DIR + name);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const read = readTranscript(text, { file: `examples/transcripts/${name}` });
  if (!read.ok) throw new Error(read.diagnostics.map(formatDiagnostic).join('\n'));
  const transcript = read.transcript;
  const opts = { policy: DEFAULT_POLICY, tokenizer };
  const result = stabilizeTranscript(transcript, opts);
  const checks = validateResult(transcript, result, opts);
  const value = { bytes, text, transcript, result, checks };
  loaded.set(name, value);
  return value;
}

/**
 * The example stabilized with the default policy but the budget one token below what its whole
 * history takes: the cutting stages (tool_output, supersession, dedup) act only under pressure
 * (issue 27), and both long examples fit the default budget whole.
 */
function pressed(name: string): StabilizeResult {
  const { transcript, result } = example(name);
  const policy = { ...DEFAULT_POLICY, budget: result.budget.used - 1 };
  return stabilizeTranscript(transcript, { policy, tokenizer });
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('\n');
}

function artifact(t: Transcript, id: string): Artifact {
  const found = t.artifacts.find((a) => a.id === id);
  if (!found) throw new Error(`${t.file}: no artifact ${id}`);
  return found;
}

function contextIds(r: StabilizeResult): string[] {
  return r.context.map((c) => c.id);
}

function ledger(r: StabilizeResult, id: string) {
  const entry = r.ledger.find((e) => e.id === id);
  if (!entry) throw new Error(`no ledger entry for ${id}`);
  return entry;
}

beforeAll(async () => {
  tokenizer = await loadTokenizer(DEFAULT_POLICY.tokenizer);
});

describe('bundled examples', () => {
  it('holds exactly the documented files', () => {
    expect(readdirSync(DIR).sort()).toEqual(NAMES);
  });

  describe.each(NAMES)('%s', (name) => {
    it('is small, valid UTF-8 with LF line ends and a final newline', () => {
      const { bytes, text } = example(name);
      expect(bytes.length).toBeLessThan(MAX_BYTES);
      expect(bytes[0]).not.toBe(0xef); // no BOM
      expect(text).not.toContain('\r');
      expect(text.endsWith('\n')).toBe(true);
    });

    it(`loads as ${EXAMPLES[name]} with no diagnostics and every tool call paired`, () => {
      const { transcript } = example(name);
      expect(transcript.format).toBe(EXAMPLES[name]);
      expect(transcript.diagnostics.map(formatDiagnostic)).toEqual([]);
      expect(transcript.pairing.unpairedCalls).toEqual([]);
      expect(transcript.pairing.unpairedResults).toEqual([]);
    });

    it('passes every check with the default policy, PII included', () => {
      const { checks } = example(name);
      expect(checks.find((c) => c.name === 'pii')?.ok).toBe(true);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
    });

    it('leaves no planted PII value anywhere in the stabilizer result', () => {
      const json = JSON.stringify(example(name).result);
      for (const { value } of PLANTED) expect(json).not.toContain(value);
    });
  });

  it('plants exactly the listed PII: each value is detected and nothing else looks like PII', () => {
    const found = new Set<string>();
    for (const name of NAMES) {
      const { text } = example(name);
      for (const m of findPii(text, builtinDetectors(), []))
        found.add(`${m.type} ${text.slice(m.start, m.end)}`);
    }
    expect([...found].sort()).toEqual(PLANTED.map((p) => `${p.type} ${p.value}`).sort());
  });
});

describe('support-session.openai.json', () => {
  it('masks the pasted PII but keeps the bare order id', () => {
    const { text, result } = example('support-session.openai.json');
    for (const { value } of PLANTED) expect(text).toContain(value);
    const context = JSON.stringify(result.context);
    expect(context).toContain(ORDER_ID);
    for (const type of ['EMAIL', 'PHONE', 'SSN', 'CREDIT_CARD', 'IBAN', 'IP_ADDRESS']) {
      // The default strategy numbers each value: [EMAIL_1], [EMAIL_2], …
      expect(context).toMatch(new RegExp(`\\[${type}_\\d+\\]`));
    }
  });

  it('has a long session whose verbose lookup_order output is masked down to its kept fields, under pressure', () => {
    const { transcript, result: whole } = example('support-session.openai.json');
    // With room to spare the output goes out whole, only its PII masked (nothing is cut while the
    // history fits).
    expect(ledger(whole, 'm7')).toMatchObject({ action: 'masked', reason: 'pii' });
    const result = pressed('support-session.openai.json');
    expect(transcript.artifacts.length).toBeGreaterThanOrEqual(60);
    expect(transcript.artifacts.length).toBeLessThanOrEqual(80);
    const big = artifact(transcript, 'm7');
    expect(big.tool).toBe('lookup_order');
    expect(tokenizer.count(textOf(big.content))).toBeGreaterThan(1200);
    const kept = result.context.find((c) => c.id === 'm7');
    const fields = Object.keys(JSON.parse(textOf(kept?.content ?? '')) as object);
    expect(fields.sort()).toEqual(['result', 'status']);
  });

  it('folds the re-sent question into its latest copy, under pressure', () => {
    const { transcript } = example('support-session.openai.json');
    const result = pressed('support-session.openai.json');
    expect(textOf(artifact(transcript, 'm9').content)).not.toBe(textOf(artifact(transcript, 'm11').content));
    expect(ledger(result, 'm9')).toMatchObject({ action: 'deduplicated', duplicate_of: 'm11' });
    expect(contextIds(result)).toContain('m11');
  });
});

describe('coding-agent.anthropic.json', () => {
  const isNpmTest = (a: Artifact, t: Transcript): boolean => {
    const caller = artifact(t, t.pairing.resultToCall[a.id] ?? '');
    return caller.tool_calls?.some((c) => c.id === a.call_id && c.arguments.includes('npm test')) ?? false;
  };

  it('fails `npm test` three times, then passes, and keeps every failure in default mode', () => {
    const { transcript, result } = example('coding-agent.anthropic.json');
    const runs = transcript.artifacts.filter((a) => a.kind === 'tool' && isNpmTest(a, transcript));
    expect(runs.map((a) => a.is_error === true)).toEqual([true, true, true, false]);
    expect(tokenizer.count(textOf(runs[0]?.content ?? ''))).toBeGreaterThan(1500);
    for (const failure of runs.slice(0, 3)) expect(contextIds(result)).toContain(failure.id);
  });

  it('reads a big file with cat, and drops the stale copy once it is read again, under pressure', () => {
    const { transcript } = example('coding-agent.anthropic.json');
    const result = pressed('coding-agent.anthropic.json');
    const cats = transcript.artifacts.filter((a) =>
      a.tool_calls?.some((c) => c.arguments.includes('cat src/pricing/discount.ts')),
    );
    expect(cats).toHaveLength(2);
    const [first, second] = cats.map((c) =>
      transcript.artifacts.find((a) => a.call_id === c.tool_calls?.[0]?.id),
    );
    expect(tokenizer.count(textOf(first?.content ?? ''))).toBeGreaterThan(800);
    expect(contextIds(result)).not.toContain(first?.id);
    expect(contextIds(result)).toContain(second?.id);
  });
});

describe('parallel-tools.openai.json', () => {
  it('answers a batch of parallel calls out of order', () => {
    const { transcript } = example('parallel-tools.openai.json');
    const batch = transcript.artifacts.find((a) => (a.tool_calls?.length ?? 0) >= 3);
    const callOrder = batch?.tool_calls?.map((c) => c.id) ?? [];
    const resultOrder = transcript.artifacts
      .filter((a) => a.kind === 'tool' && transcript.pairing.resultToCall[a.id] === batch?.id)
      .map((a) => a.call_id);
    expect(callOrder.length).toBeGreaterThanOrEqual(3);
    expect([...resultOrder].sort()).toEqual([...callOrder].sort());
    expect(resultOrder).not.toEqual(callOrder);
  });

  it('reuses a call id later in the run, each result paired with the nearest earlier call', () => {
    const { transcript } = example('parallel-tools.openai.json');
    const callers = new Map<string, string[]>();
    for (const a of transcript.artifacts)
      for (const c of a.tool_calls ?? []) callers.set(c.id, [...(callers.get(c.id) ?? []), a.id]);
    const reused = [...callers].filter(([, owners]) => owners.length > 1);
    expect(reused).toHaveLength(1);
    const [id, owners] = reused[0] ?? ['', []];
    const results = transcript.artifacts.filter((a) => a.call_id === id);
    expect(results.map((r) => transcript.pairing.resultToCall[r.id])).toEqual(owners);
  });
});

describe('summaries.native.jsonl', () => {
  it('keeps the valid summary and drops the stale one and the one with a missing source', () => {
    const { result } = example('summaries.native.jsonl');
    const status = Object.fromEntries(result.summaries.map((s) => [s.id, s.status]));
    expect(status).toEqual({ 's-early': 'expired', 's-checks': 'valid', 's-review': 'invalid' });
    expect(result.summaries.find((s) => s.id === 's-review')?.reasons).toContain('missing_provenance');
    expect(contextIds(result)).toContain('s-checks');
    expect(contextIds(result)).not.toContain('s-early');
    expect(contextIds(result)).not.toContain('s-review');
  });

  it('keeps the pinned decision, the constraints and the error-tagged result', () => {
    const { transcript, result } = example('summaries.native.jsonl');
    expect(artifact(transcript, 'rule-green-ci')).toMatchObject({ kind: 'policy', role: 'constraint' });
    expect(artifact(transcript, 'd-scope')).toMatchObject({ pin: true, tags: ['decision'] });
    expect(artifact(transcript, 'r3').tags).toContain('error');
    for (const id of ['sys', 'rule-green-ci', 'rule-no-unreleased', 'task', 'd-scope', 'r3'])
      expect(contextIds(result)).toContain(id);
  });
});

describe('phase-change.native.json', () => {
  it('reports context pressure rising from 0.2 to 0.9', () => {
    const { transcript } = example('phase-change.native.json');
    const pressure = transcript.artifacts.map((a) => a.pressure);
    expect(pressure.every((p) => typeof p === 'number')).toBe(true);
    expect(pressure[0]).toBe(0.2);
    expect(pressure.at(-1)).toBe(0.9);
    for (let i = 1; i < pressure.length; i++)
      expect(pressure[i]).toBeGreaterThanOrEqual(pressure[i - 1] ?? 0);
  });

  it('resets the triage task at the switch to fix, keeping only what is protected', () => {
    const { transcript, result } = example('phase-change.native.json');
    const phases = transcript.artifacts.filter((a) => a.kind === 'phase').map((a) => a.scope?.task);
    expect(phases).toEqual(['triage', 'fix']);
    for (const id of ['task-triage', 'u1', 'a1', 'r1']) expect(contextIds(result)).not.toContain(id);
    expect(ledger(result, 'task-triage')).toMatchObject({ action: 'dropped', reason: 'scope_reset' });
    for (const id of ['sys', 'rule-review', 'finding', 'task-fix']) expect(contextIds(result)).toContain(id);
  });
});

describe('session.claude-code.jsonl', () => {
  it('has one side-chain record and one summary record, and leaves the side chain out', () => {
    const { transcript, result } = example('session.claude-code.jsonl');
    const side = transcript.artifacts.filter((a) => a.sidechain === true);
    expect(side).toHaveLength(1);
    expect(transcript.artifacts.filter((a) => a.kind === 'summary')).toHaveLength(1);
    expect(contextIds(result)).not.toContain(side[0]?.id);
  });

  it('pairs tool_use with tool_result records, including the failed typecheck', () => {
    const { transcript } = example('session.claude-code.jsonl');
    const results = transcript.artifacts.filter((a) => a.kind === 'tool');
    expect(results.length).toBeGreaterThanOrEqual(8);
    for (const r of results) expect(transcript.pairing.resultToCall[r.id]).toBeDefined();
    expect(results.filter((r) => r.is_error === true)).toHaveLength(1);
  });
});
