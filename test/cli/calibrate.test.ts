// `calibrate FILE=TOKENS…` measures the calibration of a Claude or Gemini budget, and a calibrated
// policy really changes what the budget counts (the same session gets a bigger `used`, and can
// go red where the uncalibrated count passes).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/stabilize');
const RAW_PII = ['dana.fixture@example.org', '4111 1111 1111 1111', 'omar.fixture@example.net'];

async function run(args: string[], cwd = FIXTURES) {
  const io = fakeIO(cwd);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

interface CalibrateJson {
  schema_version: number;
  tokenizer: string;
  files: { file: string; local_tokens: number; provider_tokens: number; ratio: number }[];
  fit: { samples: number; local: number; provider: number; ratio: number; suggested: number } | null;
  policy: string | null;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-calibrate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('calibrate', () => {
  it('measures provider ÷ local over the files, rounded up, and prints the policy lines', async () => {
    const local = JSON.parse((await run(['calibrate', '--json', 'session.jsonl=1000'])).out) as CalibrateJson;
    const n = local.files[0]?.local_tokens ?? 0;
    expect(n).toBeGreaterThan(0);
    // Pretend the provider counted 1.3x what we count: calibrate must find 1.3 again.
    const provider = Math.round(n * 1.3);
    const { code, out, err } = await run(['calibrate', '--json', `session.jsonl=${provider}`]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(out) as CalibrateJson;
    expect(doc.schema_version).toBe(1);
    expect(doc.tokenizer).toBe('o200k_base');
    expect(doc.fit?.suggested).toBe(Math.ceil((provider / n) * 100 - 1e-9) / 100);
    expect(doc.fit?.suggested).toBeGreaterThanOrEqual(1.3);
    expect(doc.policy).toBe(`model_family: anthropic\ncalibration: ${doc.fit?.suggested}`);
  });

  it('prints a table, the ratio, a warning when the measure is rough, and no content', async () => {
    const { code, out } = await run(['calibrate', '--family', 'gemini', 'session.jsonl=900']);
    expect(code).toBe(0);
    expect(out).toMatch(/^file\s+local\s+provider\s+ratio$/m);
    expect(out).toMatch(/1 file: 900 provider tokens \/ \d+ o200k_base tokens = \d\.\d{3}/);
    expect(out).toContain('The factor is rough');
    expect(out).toMatch(/model_family: gemini\n {2}calibration: \d/);
    for (const value of RAW_PII) expect(out).not.toContain(value);
    expect(out).not.toContain('billing service');
  });

  it('exits 2 on a pair without tokens, naming what it expects', async () => {
    const { code, err } = await run(['calibrate', 'session.jsonl']);
    expect(code).toBe(2);
    expect(err).toContain('FILE=TOKENS');
    expect((await run(['calibrate', 'session.jsonl=0'])).code).toBe(2);
    expect((await run(['calibrate', 'session.jsonl=12x'])).code).toBe(2);
    expect((await run(['calibrate', '--family', 'openai', 'session.jsonl=10'])).code).toBe(2);
  });

  it('measures the other files when one is unreadable, then exits 2', async () => {
    const { code, out, err } = await run(['calibrate', '--json', 'missing.jsonl=500', 'session.jsonl=900']);
    expect(code).toBe(2);
    expect(err).toMatch(/missing\.jsonl:1:1: error\[not-found\]/);
    expect((JSON.parse(out) as CalibrateJson).files.map((f) => f.file)).toEqual(['session.jsonl']);
  });
});

describe('a calibrated policy', () => {
  async function used(policy: string): Promise<{ code: number; used: number; status: string }> {
    const file = path.join(dir, `p${Math.abs(hash(policy))}.yml`);
    await writeFile(file, policy);
    const { code, out } = await run(['stabilize', '--json', '--policy', file, 'session.jsonl']);
    const report = JSON.parse(out) as { budget: { used: number }; status: string };
    return { code, used: report.budget.used, status: report.status };
  }

  it('counts the same context as the local count × factor, and goes red where the plain count fits', async () => {
    const plain = await used('budget: 100000\n');
    const scaled = await used('budget: 100000\nmodel_family: anthropic\ncalibration: 2\n');
    // Every artifact's text count doubles; the per-artifact framing overhead does not.
    expect(scaled.used).toBeGreaterThan(plain.used * 1.5);
    expect(scaled.used).toBeLessThanOrEqual(plain.used * 2);
    // The plain count of the whole session fits a budget of its size: it goes out as it is.
    expect(await used(`budget: ${plain.used}\n`)).toMatchObject({ used: plain.used, status: plain.status });
    // Issue 27: under pressure the session sheds its verbose and stale outputs and its older turns,
    // so only what must be kept (system, policy, task, latest request: 51 tokens by the local
    // count) cannot shrink. 60 tokens hold it by the plain count (exit 0, the dropped recent turns
    // a warning), not by a Claude count of the same context: the run escalates (exit 1).
    const tight = await used('budget: 60\nmodel_family: anthropic\ncalibration: 2\n');
    expect(tight).toMatchObject({ code: 1, status: 'escalated' });
    expect(tight.used).toBeGreaterThan(60);
    expect(await used('budget: 60\n')).toMatchObject({ code: 0, status: 'warning' });
  });

  it('refuses a Claude budget without a calibration, at the line of model_family', async () => {
    const file = path.join(dir, 'uncalibrated.yml');
    await writeFile(file, 'budget: 5000\nmodel_family: anthropic\n');
    const { code, err } = await run(['stabilize', '--policy', file, 'session.jsonl']);
    expect(code).toBe(2);
    expect(err).toMatch(
      /uncalibrated\.yml:2:15: error\[invalid-value\]: model_family: anthropic has no local tokenizer/,
    );
  });
});

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}
