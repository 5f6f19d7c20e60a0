// PII strategies in the CLI (issue 29): numbered aliases in `stabilize` and in goldens, the hash key
// from CONTEXT_STABILITY_PII_KEY (a policy that hashes without it is exit 2, saying what to set), and
// block failing the `pii` check at the line of each artifact that holds PII.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

const ANN = 'ann.lee@example.org';
const BOB = 'bob.kane@example.com';
const RAW = /ann\.lee@|bob\.kane@/;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-cli-pii-'));
  const chat = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: `Ann (${ANN}) asks: forward it to ${BOB}.` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send', arguments: `{"to":"${BOB}"}` } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: `sent to ${BOB}` },
    { role: 'user', content: 'Thanks, and tell Ann.' },
  ];
  await writeFile(path.join(dir, 'chat.json'), JSON.stringify(chat, null, 2));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], policy: string, env: Record<string, string> = {}) {
  await writeFile(path.join(dir, 'policy.yml'), policy);
  const io = fakeIO(dir, env);
  const code = await main([...args, '--policy', 'policy.yml'], io);
  return { code, out: io.out(), err: io.err() };
}

describe('CLI: pii.strategy', () => {
  it('numbered: stabilize --json shows one alias per value, the same in the call and its result', async () => {
    const r = await cli(['stabilize', 'chat.json', '--json'], 'pii:\n  strategy: numbered\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Ann ([EMAIL_1]) asks: forward it to [EMAIL_2].');
    expect(r.out).toContain('{\\"to\\":\\"[EMAIL_2]\\"}');
    expect(r.out).toContain('sent to [EMAIL_2]');
    expect(r.out + r.err).not.toMatch(RAW);
  });

  it('numbered: the golden holds the aliases and the counts per type', async () => {
    const r = await cli(['update', 'chat.json'], 'pii:\n  strategy: numbered\n');
    expect(r.code).toBe(0);
    const golden = await readFile(path.join(dir, 'golden', 'chat.json.golden.json'), 'utf8');
    expect(golden).toContain('[EMAIL_1]');
    expect(golden).toContain('"email": 2');
    expect(golden).not.toMatch(RAW);
    expect((await cli(['check', 'chat.json', '--ci'], 'pii:\n  strategy: numbered\n')).code).toBe(0);
  });

  it('hash without CONTEXT_STABILITY_PII_KEY: exit 2 with what to set, for stabilize and check', async () => {
    for (const args of [
      ['stabilize', 'chat.json'],
      ['check', 'chat.json'],
    ]) {
      const r = await cli(args, 'pii:\n  strategy: hash\n');
      expect(r.code, args[0]).toBe(2);
      expect(r.err).toContain(
        'policy.yml:1:1: error[pii-key]: pii.strategy is hash, which needs a key: the environment variable CONTEXT_STABILITY_PII_KEY is not set.',
      );
      expect(r.out + r.err).not.toMatch(RAW);
    }
  });

  it('hash with the key: keyed aliases, the same under the same key, others under another', async () => {
    const policy = 'pii:\n  strategy: hash\n';
    const a = await cli(['stabilize', 'chat.json', '--json'], policy, { CONTEXT_STABILITY_PII_KEY: 'k1' });
    expect(a.code).toBe(0);
    const alias = /forward it to (\[EMAIL_[a-z2-7]{8}\])/.exec(a.out)?.[1];
    expect(alias).toBeDefined();
    expect(a.out).toContain(`sent to ${alias}`);
    const b = await cli(['stabilize', 'chat.json', '--json'], policy, { CONTEXT_STABILITY_PII_KEY: 'k2' });
    expect(b.out).not.toContain(alias);
    expect(a.out + b.out + a.err + b.err).not.toMatch(RAW);
    expect(a.out + a.err).not.toContain('k1');
  });

  it('block: the pii check fails at each artifact holding PII, with counts only', async () => {
    const r = await cli(['stabilize', 'chat.json'], 'pii:\n  strategy: block\n');
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('pii.strategy is block');
    expect(r.out + r.err).not.toMatch(RAW);
  });
});
