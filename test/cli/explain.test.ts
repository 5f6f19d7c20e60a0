import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/stabilize');

async function explain(...args: string[]) {
  const io = fakeIO(FIXTURES);
  const code = await main(['explain', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const CONTENT = [
  'dana.fixture@example.org',
  '4111 1111 1111 1111',
  'omar.fixture@example.net',
  'rounding: expected 10.05',
  'invoice batch 1000 processed',
  'Reach me at',
];

function expectNoContent(text: string): void {
  for (const value of CONTENT) expect(text).not.toContain(value);
}

describe('explain', () => {
  // Issue 27: supersession and tool_output.max_tokens act only under pressure; under the default
  // budget session.jsonl fits whole, so these two are explained under tight-policy.yml (220).
  it('explains a superseded result: dropped, by which later result, not in the context', async () => {
    const { code, out, err } = await explain('session.jsonl', 'r1', '--policy', 'tight-policy.yml');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^r1 \(tool, session\.jsonl:7:1\)$/m);
    expect(out).toContain('was dropped');
    expect(out).toContain('a later result of the same command supersedes it');
    expect(out).toContain('(r5)');
    expect(out).toContain('Not in the stabilized context.');
    expect(out).toContain('Run status: ok; budget 211/220 tokens.');
  });

  it('explains a verbose tool output', async () => {
    const { code, out } = await explain('session.jsonl', 'r2', '--policy', 'tight-policy.yml');
    expect(code).toBe(0);
    expect(out).toContain('the tool output was over tool_output.max_tokens');
    expectNoContent(out);
  });

  it('explains a kept, masked artifact: what was masked and where it sits, without the value', async () => {
    const { code, out } = await explain('session.jsonl', 'u1');
    expect(code).toBe(0);
    expect(out).toContain('was kept, with parts masked');
    expect(out).toContain('Masked: 1 email.');
    // The whole history fits the default budget: all 17 artifacts are in the context (issue 27).
    expect(out).toMatch(/Position in the stabilized context: 4 of 17\./);
    expectNoContent(out);
  });

  it('names what protects an artifact', async () => {
    const { out } = await explain('openai-chat.json', 'm2');
    expect(out).toContain('Protected because:');
    expect(out).toContain('the latest invocation or outcome of the command family find_user');
    expectNoContent(out);
  });

  it('applies the policy: under a tight budget the same artifact is dropped for the budget', async () => {
    const { code, out } = await explain('session.jsonl', 'u1', '--policy', 'tight-policy.yml');
    expect(code).toBe(0);
    expect(out).toContain('it did not fit in the token budget');
    expect(out).toContain('Run status: ok; budget 211/220 tokens.');
  });

  it('suggests the nearest id and lists the first ids for an unknown id (exit 2)', async () => {
    const { code, out, err } = await explain('session.jsonl', 'x1');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain("session.jsonl has no artifact with id 'x1'. Did you mean 'u1'?");
    expect(err).toContain('Its ids: sys, pol, task, u1, a1, r1, a2, r2, u2, a3, r3, a4, … (17 in all)');
    expect(err).toContain("Run 'context-stability inspect session.jsonl'");
  });

  it('makes no suggestion when no id is near', async () => {
    const { code, err } = await explain('openai-chat.json', 'completely-different');
    expect(code).toBe(2);
    expect(err).not.toContain('Did you mean');
    expect(err).toContain('Its ids: m0, m1, m2, m3, m4, m5, m6, m7, m8, m9\n');
  });

  it('needs a FILE and an ARTIFACT_ID', async () => {
    const one = await explain('session.jsonl');
    expect(one.code).toBe(2);
    expect(one.err).toContain('explain needs a FILE and an ARTIFACT_ID');
    expect((await explain('session.jsonl', 'u1', 'a1')).code).toBe(2);
  });

  it('exits 2 with diagnostics for an invalid policy or a missing file', async () => {
    const policy = await explain('session.jsonl', 'u1', '--policy', 'bad-policy.yml');
    expect(policy.code).toBe(2);
    expect(policy.out).toBe('');
    expect(policy.err).toMatch(/^bad-policy\.yml:2:9: error\[invalid-value\]/m);
    const missing = await explain('missing.json', 'm0');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^missing\.json:1:1: error\[not-found\]/m);
  });

  it('still explains an artifact of a file with a broken record, with exit 2', async () => {
    const { code, out, err } = await explain('broken-line.jsonl', 'u1');
    expect(code).toBe(2);
    expect(err).toMatch(/^broken-line\.jsonl:5:\d+: error\[/m);
    expect(out).toMatch(/^u1 \(user, broken-line\.jsonl:6:1\)$/m);
  });
});
