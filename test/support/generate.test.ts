import { faker } from '@faker-js/faker';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTranscript } from '../../src/core/readers/index.js';
import type { Artifact } from '../../src/core/types.js';
import {
  CORPUS_FORMATS,
  artifactText,
  generateCorpus,
  generateTranscript,
  ibanMod97,
  luhnValid,
  serialize,
  serializeWithRefs,
} from './generate/index.js';
import type { CorpusFormat, GeneratedTranscript } from './generate/index.js';

type Json = Record<string, unknown>;

const EXPECTED_READER_FORMAT: Record<CorpusFormat, string> = {
  'native-jsonl': 'native',
  'native-json': 'native',
  openai: 'openai',
  anthropic: 'anthropic',
  'claude-code': 'claude-code',
};

function jsonLines(text: string): Json[] {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
}

function blocks(message: Json): Json[] {
  const content = message['content'];
  return Array.isArray(content) ? (content as Json[]) : [];
}

/** Tool calls and results in file order, read from the raw serialized text (not through the readers). */
function toolEvents(text: string, format: CorpusFormat): { kind: 'call' | 'result'; id: string }[] {
  const events: { kind: 'call' | 'result'; id: string }[] = [];
  const fromBlocks = (message: Json) => {
    for (const b of blocks(message)) {
      if (b['type'] === 'tool_use') events.push({ kind: 'call', id: String(b['id']) });
      if (b['type'] === 'tool_result') events.push({ kind: 'result', id: String(b['tool_use_id']) });
    }
  };
  if (format === 'native-jsonl' || format === 'native-json') {
    const artifacts =
      format === 'native-jsonl' ? jsonLines(text) : ((JSON.parse(text) as Json)['artifacts'] as Json[]);
    for (const a of artifacts) {
      for (const c of (a['tool_calls'] as Json[] | undefined) ?? [])
        events.push({ kind: 'call', id: String(c['id']) });
      if (a['kind'] === 'tool') events.push({ kind: 'result', id: String(a['call_id']) });
    }
  } else if (format === 'openai') {
    for (const m of (JSON.parse(text) as Json)['messages'] as Json[]) {
      for (const c of (m['tool_calls'] as Json[] | undefined) ?? [])
        events.push({ kind: 'call', id: String(c['id']) });
      if (m['role'] === 'tool') events.push({ kind: 'result', id: String(m['tool_call_id']) });
    }
  } else if (format === 'anthropic') {
    for (const m of (JSON.parse(text) as Json)['messages'] as Json[]) fromBlocks(m);
  } else {
    for (const r of jsonLines(text)) if (r['message']) fromBlocks(r['message'] as Json);
  }
  return events;
}

/** Each result answers the nearest earlier pending call of its id; every call gets its result. */
function expectPaired(events: readonly { kind: 'call' | 'result'; id: string }[]): void {
  const pending = new Map<string, number>();
  for (const e of events) {
    const open = pending.get(e.id) ?? 0;
    if (e.kind === 'call') pending.set(e.id, open + 1);
    else {
      expect(open, `result ${e.id} answers no earlier call`).toBeGreaterThan(0);
      pending.set(e.id, open - 1);
    }
  }
  expect([...pending].filter(([, n]) => n > 0)).toEqual([]);
}

const corpus = generateCorpus({ seed: 7, count: 30, targetBytes: 3_000_000 });
const transcripts: GeneratedTranscript[] = [];
for (let seed = 1; seed <= 12; seed++) {
  transcripts.push(
    generateTranscript(seed, { archetype: seed % 2 === 0 ? 'support' : 'coding', messages: 250 }),
  );
}
const coding = transcripts.filter((t) => t.archetype === 'coding');
const support = transcripts.filter((t) => t.archetype === 'support');

describe('determinism', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives byte-identical corpora for the same seed, whatever the global faker, Math.random or clock', () => {
    faker.seed(12345);
    Math.random();
    vi.useFakeTimers({ now: new Date('2031-02-03T04:05:06Z') });
    const again = generateCorpus({ seed: 7, count: 30, targetBytes: 3_000_000 });
    expect(again.map((e) => e.text)).toEqual(corpus.map((e) => e.text));
    expect(again.map((e) => e.planted)).toEqual(corpus.map((e) => e.planted));
  });

  it('does not depend on what was generated before (shared faker instance is reseeded)', () => {
    const alone = generateTranscript(4, { archetype: 'support', messages: 250 });
    expect(alone).toEqual(transcripts[3]);
  });

  it('gives different output for different seeds', () => {
    const a = generateCorpus({ seed: 1, count: 3, targetBytes: 60_000 });
    const b = generateCorpus({ seed: 2, count: 3, targetBytes: 60_000 });
    for (let i = 0; i < 3; i++) expect(a[i]?.text).not.toBe(b[i]?.text);
    expect(serialize(transcripts[0]?.artifacts ?? [], 'native-jsonl')).not.toBe(
      serialize(transcripts[2]?.artifacts ?? [], 'native-jsonl'),
    );
  });

  it('derives Claude Code timestamps and uuids from the seed', () => {
    const artifacts = transcripts[0]?.artifacts ?? [];
    const first = serialize(artifacts, 'claude-code', { seed: 5 });
    vi.useFakeTimers({ now: new Date('1999-12-31T23:59:59Z') });
    expect(serialize(artifacts, 'claude-code', { seed: 5 })).toBe(first);
    expect(serialize(artifacts, 'claude-code', { seed: 6 })).not.toBe(first);
  });
});

describe('size targets', () => {
  it('meets the total byte target within 10% and reports exact file sizes', () => {
    const total = corpus.reduce((n, e) => n + e.bytes, 0);
    expect(Math.abs(total - 3_000_000) / 3_000_000).toBeLessThan(0.1);
    for (const e of corpus) expect(e.bytes).toBe(Buffer.byteLength(e.text, 'utf8'));
    expect(new Set(corpus.map((e) => e.format))).toEqual(new Set(CORPUS_FORMATS));
    expect(new Set(corpus.map((e) => e.archetype))).toEqual(new Set(['coding', 'support']));
  });

  it('generates 20 MB well under 10 s, within 10% of the target', () => {
    const started = performance.now();
    const big = generateCorpus({ seed: 42, count: 200, targetBytes: 20_000_000 });
    const elapsed = performance.now() - started;
    const total = big.reduce((n, e) => n + e.bytes, 0);
    expect(Math.abs(total - 20_000_000) / 20_000_000).toBeLessThan(0.1);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('lands exactly on a requested message count (1k and 10k for scaling runs)', () => {
    for (const messages of [5, 37, 1000, 10_000]) {
      const t = generateTranscript(messages, { messages });
      expect(t.artifacts).toHaveLength(messages);
    }
    const entries = generateCorpus({ seed: 3, count: 4, messages: 120, formats: ['native-jsonl'] });
    for (const e of entries) expect(jsonLines(e.text)).toHaveLength(120);
  });
});

describe('serialized formats', () => {
  const sample = transcripts.slice(0, 6);

  it.each(CORPUS_FORMATS)(
    '%s is valid JSON/JSONL with every tool result paired to an earlier call',
    (format) => {
      for (const t of sample) {
        const { text } = serializeWithRefs(t.artifacts, format, { seed: t.seed });
        const events = toolEvents(text, format);
        expect(events.filter((e) => e.kind === 'call').length).toBeGreaterThan(0);
        expectPaired(events);
      }
    },
  );

  it('Anthropic: system first, roles alternate, tool_results lead the next user message and answer its tool_uses', () => {
    for (const t of sample) {
      const doc = JSON.parse(serialize(t.artifacts, 'anthropic')) as { system: string; messages: Json[] };
      expect(typeof doc.system).toBe('string');
      doc.messages.forEach((m, i) => {
        expect(m['role']).toBe(i % 2 === 0 ? 'user' : 'assistant');
        const kinds = blocks(m).map((b) => b['type']);
        const results = kinds.filter((k) => k === 'tool_result').length;
        expect(kinds.slice(0, results).every((k) => k === 'tool_result')).toBe(true);
        const previous = doc.messages[i - 1];
        const uses = previous ? blocks(previous).filter((b) => b['type'] === 'tool_use') : [];
        expect(
          blocks(m)
            .filter((b) => b['type'] === 'tool_result')
            .map((b) => b['tool_use_id']),
        ).toEqual(uses.map((b) => b['id']).slice(0, results));
      });
    }
  });

  it('Anthropic: a tool_result is inserted before user text already in the message', () => {
    const src = { file: 'x', line: 1, column: 1 };
    const artifacts: Artifact[] = [
      { id: 'u', kind: 'user', content: 'go', source: src },
      {
        id: 'a',
        kind: 'assistant',
        content: 'two calls',
        tool_calls: [
          { id: 'call_1', name: 'read', arguments: '{"path":"a"}' },
          { id: 'call_2', name: 'read', arguments: '{"path":"b"}' },
        ],
        source: src,
      },
      { id: 'r1', kind: 'tool', call_id: 'call_1', content: 'A', source: src },
      { id: 'q', kind: 'user', content: 'and?', source: src },
      { id: 'r2', kind: 'tool', call_id: 'call_2', content: 'B', is_error: true, source: src },
    ];
    const { text, refs } = serializeWithRefs(artifacts, 'anthropic');
    const doc = JSON.parse(text) as { messages: Json[] };
    expect(blocks(doc.messages[2] ?? {})).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'B', is_error: true },
      { type: 'text', text: 'and?' },
    ]);
    expect(refs.get('r2')).toEqual({ id: 'm2.1', line: 4 });
    expect(refs.get('q')).toEqual({ id: 'm2', line: 4 });
  });

  it('Claude Code: one chained record per message with the required fields', () => {
    for (const t of sample) {
      const records = jsonLines(serialize(t.artifacts, 'claude-code', { seed: t.seed }));
      let parent: unknown = null;
      let last = '';
      const sessions = new Set<unknown>();
      for (const r of records) {
        if (r['type'] === 'summary') continue;
        expect(['user', 'assistant']).toContain(r['type']);
        expect(r['parentUuid']).toBe(parent);
        expect(r['isSidechain']).toBe(false);
        expect((r['message'] as Json)['role']).toBe(r['type']);
        expect(Array.isArray((r['message'] as Json)['content'])).toBe(true);
        const ts = String(r['timestamp']);
        expect(new Date(ts).toISOString()).toBe(ts);
        expect(ts > last).toBe(true);
        sessions.add(r['sessionId']);
        parent = r['uuid'];
        last = ts;
      }
      expect(sessions.size).toBe(1);
    }
  });

  it('every file is read back by the readers in its format, with planted ids and lines as recorded', () => {
    for (const e of corpus) {
      const r = readTranscript(e.text, { file: e.name });
      if (!r.ok) throw new Error(`${e.name} did not load: ${r.diagnostics.map((d) => d.code).join(', ')}`);
      expect(r.transcript.format).toBe(EXPECTED_READER_FORMAT[e.format]);
      expect(r.transcript.diagnostics).toEqual([]);
      expect(r.transcript.pairing.unpairedCalls).toEqual([]);
      expect(r.transcript.pairing.unpairedResults).toEqual([]);
      const byId = new Map(r.transcript.artifacts.map((a) => [a.id, a]));
      for (const p of e.planted) {
        const a = byId.get(p.id);
        expect(a, `${e.name}: ${p.id}`).toBeDefined();
        expect(a?.source.line).toBe(p.line);
        expect(artifactText(a as Artifact)).toContain(p.value);
      }
    }
  });
});

describe('planted PII', () => {
  const all = transcripts.flatMap((t) => t.planted.map((p) => ({ p, t })));

  it('records values that occur in the named artifact, for every PII type', () => {
    for (const { p, t } of all) {
      const a = t.artifacts.find((x) => x.id === p.artifact);
      expect(artifactText(a as Artifact)).toContain(p.value);
    }
    expect(new Set(support.flatMap((t) => t.planted.map((p) => p.type)))).toEqual(
      new Set(['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret']),
    );
  });

  it('records each value on the line of the serialized file where it occurs', () => {
    for (const e of corpus) {
      const lines = e.text.split('\n');
      for (const p of e.planted) expect(lines[p.line - 1]).toContain(JSON.stringify(p.value).slice(1, -1));
    }
    expect(corpus.some((e) => e.format === 'claude-code' && e.planted.length > 0)).toBe(true);
  });

  it('plants values a detector must accept (Luhn, mod-97, SSA ranges, valid phone, IPv4 octets)', () => {
    for (const { p } of all) {
      const compact = p.value.replace(/[ -]/g, '');
      if (p.type === 'credit_card') expect(luhnValid(compact) && /^\d{15,16}$/.test(compact)).toBe(true);
      if (p.type === 'iban') expect(ibanMod97(p.value)).toBe(1);
      if (p.type === 'phone') expect(isValidPhoneNumber(p.value)).toBe(true);
      if (p.type === 'ssn') {
        const [area, group, serial] = p.value.split('-').map(Number);
        expect(area !== 0 && area !== 666 && (area ?? 999) < 900 && group !== 0 && serial !== 0).toBe(true);
      }
      if (p.type === 'ip_address')
        expect(
          p.value
            .split('.')
            .map(Number)
            .every((o) => o >= 0 && o <= 255),
        ).toBe(true);
      if (p.type === 'email') expect(p.value).toMatch(/^[a-z0-9._+]+@[a-z0-9.-]+\.[a-z]+$/);
      if (p.type === 'secret') expect(p.value).toMatch(/^(sk-proj-|ghp_|AKIA)/);
    }
  });

  it('leaves no unrecorded PII-looking text (the ground truth is complete)', () => {
    const patterns = [
      /[A-Za-z0-9._+-]+@[A-Za-z0-9-]+\.[A-Za-z.]+/g,
      /\b\d{3}-\d{2}-\d{4}\b/g,
      /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g,
      /(sk-proj-|ghp_|AKIA)[A-Za-z0-9]+/g,
      /\+\d[\d -]{7,}\d/g,
    ];
    for (const t of transcripts) {
      for (const a of t.artifacts) {
        const values = t.planted.filter((p) => p.artifact === a.id).map((p) => p.value);
        for (const re of patterns) {
          for (const m of artifactText(a).matchAll(re)) {
            expect(
              values.some((v) => v.includes(m[0]) || m[0].includes(v)),
              `${a.id}: ${re}`,
            ).toBe(true);
          }
        }
      }
    }
  });
});

describe('session features', () => {
  it('coding sessions retry a failing test command with edits in between until it passes', () => {
    let runs = 0;
    for (const t of coding) {
      const tests = t.artifacts.filter((a) => a.kind === 'tool' && a.tool === 'bash');
      const callOf = new Map(t.artifacts.flatMap((a) => (a.tool_calls ?? []).map((c) => [c.id, c] as const)));
      const command = (a: Artifact) =>
        JSON.parse(callOf.get(a.call_id ?? '')?.arguments ?? '{}').command as string;
      const families = new Map<string, Artifact[]>();
      for (const a of tests)
        if (command(a).startsWith('npm test'))
          families.set(command(a), [...(families.get(command(a)) ?? []), a]);
      for (const seq of families.values()) {
        const passAt = seq.findIndex((a) => a.exit_code === 0);
        if (passAt < 1) continue;
        expect(
          seq.slice(0, passAt).every((a) => a.is_error && a.exit_code === 1 && a.tags?.includes('error')),
        ).toBe(true);
        expect(seq[passAt]?.tags).toContain('result');
        const first = t.artifacts.indexOf(seq[0] as Artifact);
        const between = t.artifacts.slice(first, t.artifacts.indexOf(seq[1] as Artifact));
        expect(between.some((a) => a.kind === 'tool' && a.tool === 'edit')).toBe(true);
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(5);
  });

  it('coding tool outputs reach the verbose range (up to 5,000 tokens at 4 chars per token)', () => {
    const tokens = coding.flatMap((t) =>
      t.artifacts.filter((a) => a.kind === 'tool').map((a) => artifactText(a).length / 4),
    );
    expect(Math.max(...tokens)).toBeGreaterThan(3000);
    expect(Math.max(...tokens)).toBeLessThan(5600);
    expect(tokens.filter((n) => n >= 200).length).toBeGreaterThan(tokens.length / 4);
  });

  it('has parallel calls (2–4), exact and near duplicates, tags, pins, phases and summaries', () => {
    const artifacts = transcripts.flatMap((t) => t.artifacts);
    const widths = artifacts.map((a) => a.tool_calls?.length ?? 0);
    expect(Math.max(...widths)).toBe(4);
    expect(widths.filter((n) => n >= 2).length).toBeGreaterThan(10);
    const texts = artifacts.filter((a) => a.kind === 'user' || a.kind === 'tool').map((a) => artifactText(a));
    expect(texts.length - new Set(texts).size).toBeGreaterThan(10);
    expect(artifacts.some((a) => typeof a.content === 'string' && a.content.includes(' (changed)\n'))).toBe(
      true,
    );
    for (const tag of ['error', 'result', 'decision'])
      expect(artifacts.some((a) => a.tags?.includes(tag))).toBe(true);
    expect(artifacts.some((a) => a.pin)).toBe(true);
    for (const p of artifacts.filter((a) => a.kind === 'phase'))
      expect(p.scope).toEqual({ task: expect.any(String), phase: expect.any(String) });
    expect(transcripts.some((t) => t.artifacts.filter((a) => a.kind === 'task').length > 1)).toBe(true);
  });

  it('records summary truth: provenance of earlier ids, created_at at its position, some expired', () => {
    const truths = transcripts.flatMap((t) =>
      t.summaries.map((s) => {
        const at = t.artifacts.findIndex((a) => a.id === s.id);
        const a = t.artifacts[at] as Artifact;
        expect(a.created_at).toBe(at);
        const earlier = new Set(t.artifacts.slice(0, at).map((x) => x.id));
        expect((a.provenance ?? []).every((id) => earlier.has(id))).toBe(!s.missingProvenance);
        expect(s.expired).toBe(t.artifacts.length - 1 - at > s.ttl);
        return s;
      }),
    );
    expect(truths.some((s) => s.expired)).toBe(true);
    expect(truths.some((s) => !s.expired)).toBe(true);
  });

  it('pressure, when present, rises from near 0 to at least 0.9 and never falls', () => {
    const forced = generateTranscript(9, { messages: 200, pressure: true });
    const values = forced.artifacts.flatMap((a) => (a.pressure === undefined ? [] : [a.pressure]));
    expect(values.length).toBeGreaterThan(20);
    expect(values[0]).toBeLessThan(0.1);
    expect(values[values.length - 1]).toBeGreaterThanOrEqual(0.9);
    values.forEach((v, i) => expect(v).toBeGreaterThanOrEqual(values[i - 1] ?? 0));
    expect(
      generateTranscript(9, { messages: 200, pressure: false }).artifacts.some(
        (a) => a.pressure !== undefined,
      ),
    ).toBe(false);
  });
});
