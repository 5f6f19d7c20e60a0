import { describe, it, expect } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

// Run with cwd = the fixture folder so that paths (and `.github/` policy discovery) are local.
const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/cli');

interface InspectJson {
  files: {
    file: string;
    format: string | null;
    tokenizer: { name: string; version: string };
    artifact_count: number;
    total_tokens: number;
    artifacts: Record<string, unknown>[];
    pairing: { paired_results: number; unpaired_calls: unknown[]; unpaired_results: unknown[] } | null;
    diagnostics: { severity: string; code: string; file: string; line: number; column: number }[];
  }[];
}

async function inspect(...args: string[]) {
  const io = fakeIO(FIXTURES);
  const code = await main(['inspect', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

async function inspectJson(...args: string[]) {
  const result = await inspect('--json', ...args);
  return { ...result, json: JSON.parse(result.out) as InspectJson };
}

const CANARIES = [
  'CANARY-SYSTEM-7788',
  'jane.canary@example.com',
  '+44 20 7946 0958',
  'CANARY-NOTES-4455',
  'SECRET-CANARY-123',
  'shipped',
  'hello world',
];

describe('inspect --json', () => {
  it('describes every artifact with ids, kinds, roles, positions, tool calls and pairing', async () => {
    const { code, json, err } = await inspectJson('support-chat.json');
    expect(code).toBe(0);
    expect(err).toMatch(/^support-chat\.json:\d+:\d+: warning\[unpaired-call\]/m);
    const [file] = json.files;
    expect(file?.file).toBe('support-chat.json');
    expect(file?.format).toBe('openai');
    expect(file?.tokenizer.name).toBe('o200k_base');
    expect(file?.artifact_count).toBe(8);
    expect(file?.artifacts.map((a) => [a.id, a.kind, a.role, a.line])).toEqual([
      ['m0', 'system', undefined, 3],
      ['m1', 'system', 'developer', 4],
      ['m2', 'user', undefined, 5],
      ['m3', 'assistant', undefined, 6],
      ['m4', 'tool', undefined, 14],
      ['m5', 'tool', undefined, 15],
      ['m6', 'assistant', undefined, 16],
      ['m7', 'user', undefined, 23],
    ]);
    expect(file?.artifacts[3]?.tool_calls).toEqual([
      { id: 'call_a', name: 'lookup_order' },
      { id: 'call_b', name: 'lookup_user' },
    ]);
    expect(file?.artifacts[4]).toMatchObject({ call_id: 'call_a', answers: 'm3', tool: 'lookup_order' });
    expect(file?.artifacts[5]).toMatchObject({ call_id: 'call_b', answers: 'm3', tool: 'lookup_user' });
    expect(file?.pairing).toEqual({
      paired_results: 2,
      unpaired_calls: [{ artifact: 'm6', call_id: 'call_c', line: 16 }],
      unpaired_results: [],
    });
  });

  it('counts tokens with the default policy: o200k_base and 3 tokens of overhead', async () => {
    const { json } = await inspectJson('support-chat.json');
    const tokens = json.files[0]?.artifacts.map((a) => a.tokens);
    // m2 "hello world" = 2 tokens; m7 = 7 tokens (see test/tokens/load.test.ts)
    expect(tokens?.[2]).toBe(3 + 2);
    expect(tokens?.[7]).toBe(3 + 7);
    expect(json.files[0]?.total_tokens).toBe(tokens?.reduce((a, b) => (a as number) + (b as number), 0));
  });

  it("counts tokens with the given policy's tokenizer and overhead", async () => {
    const { json, code } = await inspectJson('--policy', 'r50k-policy.yml', 'support-chat.json');
    expect(code).toBe(0);
    expect(json.files[0]?.tokenizer.name).toBe('r50k_base');
    expect(json.files[0]?.artifacts[2]?.tokens).toBe(10 + 2);
    expect(json.files[0]?.artifacts[7]?.tokens).toBe(10 + 13);
  });

  it('a cut id cell is masked: a cut can make an address (fuzz seed 518002519)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cs-inspect-'));
    try {
      // Not an address as a whole (its TLD would be `org5e-bd59-…`), one once cut after `org`.
      const id = 'e74d8d88-824f-44canary.fuzz@example.org5e-bd59-db1acfcf72fb';
      await writeFile(path.join(dir, 't.jsonl'), `${JSON.stringify({ id, kind: 'user', content: 'hi' })}\n`);
      const io = fakeIO(dir);
      expect(await main(['inspect', 't.jsonl'], io)).toBe(0);
      expect(io.out()).not.toContain('@example.org');
      expect(io.out()).toContain('[REDACTED_EMAIL]');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('never prints content', async () => {
    const { out, err } = await inspectJson('support-chat.json', 'notes.jsonl', 'truncated.json');
    for (const canary of CANARIES) {
      expect(out).not.toContain(canary);
      expect(err).not.toContain(canary);
    }
  });

  it('reports an unreadable file, still inspects the others, and exits 2', async () => {
    const { code, json, err } = await inspectJson('truncated.json', 'notes.jsonl');
    expect(code).toBe(2);
    expect(json.files.map((f) => [f.file, f.format, f.artifact_count])).toEqual([
      ['notes.jsonl', 'native', 3],
      ['truncated.json', null, 0],
    ]);
    const bad = json.files[1];
    expect(bad?.pairing).toBeNull();
    expect(bad?.diagnostics[0]).toMatchObject({ severity: 'error', file: 'truncated.json', line: 1 });
    expect(err).toMatch(/^truncated\.json:1:\d+: error\[[a-z-]+\]: /m);
  });

  it('reports a missing file at 1:1 and exits 2', async () => {
    const { code, err, json } = await inspectJson('nope.json');
    expect(code).toBe(2);
    expect(json.files[0]).toMatchObject({ file: 'nope.json', format: null });
    expect(err).toMatch(/^nope\.json:1:1: error\[not-found\]/m);
  });

  it('honours --input-format', async () => {
    const { code, json } = await inspectJson('--input-format', 'native', 'support-chat.json');
    expect(code).toBe(2);
    expect(json.files[0]?.format).not.toBe('openai');
  });
});

describe('inspect (text)', () => {
  it('prints a header, one row per artifact with pairing, and a footer', async () => {
    const { code, out } = await inspect('support-chat.json');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('support-chat.json');
    expect(lines[1]).toMatch(
      /^ {2}format: openai · artifacts: 8 · tokens: \d+ \(o200k_base, gpt-tokenizer \d+\.\d+\.\d+\)$/,
    );
    expect(out).toMatch(/^ {2}ID +KIND +ROLE +TOKENS +LINE +TOOL +PAIRING$/m);
    expect(out).toMatch(/^ {2}m1 +system +developer +\d+ +4$/m);
    expect(out).toMatch(/^ {2}m2 +user +5 +5$/m);
    expect(out).toMatch(/^ {2}m3 +assistant +\d+ +6 +lookup_order,lookup_user +calls: 2 \(2 answered\)$/m);
    expect(out).toMatch(/^ {2}m4 +tool +\d+ +14 +lookup_order +→ call in m3$/m);
    expect(out).toMatch(/^ {2}m6 +assistant +\d+ +16 +refund +calls: 1 \(0 answered\) 1 UNPAIRED$/m);
    expect(out).toContain('  pairing: 2 paired results · 1 unpaired call · 0 unpaired results');
    expect(out).toContain('  diagnostics: 0 errors, 1 warning (on stderr)');
  });

  it('shows an output that names no call as "no call", not as unpaired', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cs-inspect-'));
    try {
      const file = path.join(dir, 'log.jsonl');
      await writeFile(
        file,
        '{"id":"u","kind":"user","content":"go"}\n{"id":"t","kind":"tool","tool":"ci","content":"build log"}\n',
      );
      const { out } = await inspect(file);
      expect(out).toMatch(/^ {2}t +tool +\d+ +2 +ci +no call$/m);
      expect(out).not.toContain('UNPAIRED');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('marks an unreadable file and keeps going', async () => {
    const { code, out } = await inspect('truncated.json', 'notes.jsonl');
    expect(code).toBe(2);
    expect(out).toContain('truncated.json\n  not loaded: diagnostics: 1 error, 0 warnings (on stderr)\n');
    expect(out).toContain('notes.jsonl\n  format: native · artifacts: 3');
  });
});

describe('inspect usage', () => {
  it('needs a file', async () => {
    const { code, err } = await inspect();
    expect(code).toBe(2);
    expect(err).toContain('inspect needs at least one FILE.');
  });

  it('rejects an unknown format and a bad size', async () => {
    expect((await inspect('--input-format', 'xml', 'notes.jsonl')).err).toContain(
      'Option --input-format accepts auto, native, openai, anthropic, claude-code, codex, responses, vercel-ai, langchain, gemini, openhands, aider, claude-web.',
    );
    expect((await inspect('--max-file-size', 'big', 'notes.jsonl')).code).toBe(2);
  });

  it('refuses files over --max-file-size', async () => {
    const { code, err } = await inspect('--max-file-size', '16', 'notes.jsonl');
    expect(code).toBe(2);
    expect(err).toMatch(/^notes\.jsonl:1:1: error\[file-too-large\]/m);
  });

  it('stops with exit 2 on an invalid policy', async () => {
    const { code, err, out } = await inspect('--policy', 'bad-policy.yml', 'notes.jsonl');
    expect(code).toBe(2);
    expect(err).toMatch(/^bad-policy\.yml:2:\d+: error\[/m);
    expect(out).toBe('');
  });
});
