import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import type { TranscriptReport } from '../../src/core/report/report.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/stabilize');
const BROKEN = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/broken-contexts');

// Planted in the fixtures; no output of any mode may carry them.
const RAW_PII = [
  'dana.fixture@example.org',
  '4111 1111 1111 1111',
  '4111111111111111',
  'omar.fixture@example.net',
  '5555 5555 5555 4444',
];
// Message text of session.jsonl: the summary and explain outputs hold no content at all.
const SESSION_TEXT = [
  'You are a build assistant for the billing service',
  'Fix the failing invoice rounding tests',
  'rounding: expected 10.05 to equal 10.04',
  'processed in 37 ms with status ok',
  'rounds half to even',
];

async function stabilize(args: string[], cwd = FIXTURES) {
  const io = fakeIO(cwd);
  const code = await main(['stabilize', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

function expectNoPii(text: string): void {
  for (const value of RAW_PII) expect(text).not.toContain(value);
}

describe('stabilize: text summary', () => {
  it('summarizes status, budget and every decision by action and reason, exit 0', async () => {
    const { code, out, err } = await stabilize(['session.jsonl']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^session\.jsonl: ok$/m);
    // Issue 27: the whole history fits the default budget, so nothing is cut: no superseded or
    // verbose output leaves (the tight-policy test below counts those drops).
    expect(out).toMatch(/budget 1507 of 8000 tokens \(19%\); 17 of 17 artifacts in the context/);
    expect(out).toMatch(/^ {2}kept +15 {2}\(in_budget 8, protected 7\)$/m);
    expect(out).toMatch(/^ {2}masked +2 {2}\(pii 2\)$/m);
    expect(out).not.toMatch(/^ {2}dropped /m);
    expect(out).toContain('checks: 15 of 15 passed');
    expect(out).not.toMatch(/\[major\] superseded: /);
  });

  it('never prints message content or PII', async () => {
    for (const policy of [[], ['--policy', 'tight-policy.yml'], ['--policy', 'tiny-budget-policy.yml']]) {
      const { out, err } = await stabilize(['session.jsonl', ...policy]);
      expectNoPii(out + err);
      for (const text of SESSION_TEXT) expect(out + err).not.toContain(text);
    }
  });

  it('counts budget drops under a tight policy and still passes', async () => {
    const { code, out } = await stabilize(['session.jsonl', '--policy', 'tight-policy.yml']);
    expect(code).toBe(0);
    expect(out).toMatch(/budget 211 of 220 tokens/);
    expect(out).toMatch(/^ {2}dropped +5 {2}\(budget 3, superseded 1, verbose_tool_output 1\)$/m);
  });

  it('exits 1 and lists the failing checks at file:line when what must be kept cannot fit (escalated)', async () => {
    const { code, out } = await stabilize(['session.jsonl', '--policy', 'tiny-budget-policy.yml']);
    expect(code).toBe(1);
    expect(out).toMatch(/^session\.jsonl: escalated$/m);
    // Annotated where the budget went: an escalated run keeps its evidence whole (127 tokens), and
    // what must be kept (the must-keep tier: system, task, latest request; the recent turns are
    // should-keep) overflows on its own, at its largest artifact (sys).
    expect(out).toMatch(
      /^ {2}session\.jsonl:2:1: budget \(error\): the context needs 127 tokens, over the budget of 40: what must be kept .* alone needs 51, the largest of it is this system artifact of 16 tokens \[sys\]$/m,
    );
    expect(out).toMatch(
      /^ {2}session\.jsonl:2:1: status \(error\): status escalated: what must be kept does not fit the budget even with protected evidence cut to excerpts \(protected_over_budget\) \[sys\]$/m,
    );
    expect(out).toMatch(/\[safety\] protected_over_budget: /);
    // An escalated run fails budget and status (docs/protection.md). Red since issue 27: the
    // escalated run drops the recent turns with reason budget, and `protected` fails at them too
    // (reported as a src bug; not accepted here).
    expect(out).toContain('failing: budget (error), status (error)');
  });

  it('exits 0 with a warning when protected evidence is dropped to fit the budget', async () => {
    // Issue 27, the stable prefix: with tool_output.max_tokens out of reach the npm test step
    // (a1, r1) is older than the cut point and leaves with it (degraded), a warning at a1.
    const { code, out } = await stabilize(['long-output.jsonl', '--policy', 'excerpt-policy.yml']);
    expect(code).toBe(0);
    expect(out).toMatch(/^long-output\.jsonl: warning$/m);
    expect(out).toMatch(/budget \d+ of 600 tokens/);
    expect(out).toMatch(/^ {2}dropped +2 {2}\(degraded 2\)$/m);
    expect(out).toContain('failing: status (warning)');
    expect(out).toMatch(
      /^ {2}long-output\.jsonl:3:1: status \(warning\): status warning: protected evidence was cut to excerpts or dropped \(oldest first\) to fit the budget \(protected_dropped\) \[a1\]$/m,
    );
    expect(out).toMatch(/\[safety\] protected_dropped: /);
  });

  it('cuts an older protected output to an excerpt of tool_output.max_tokens under pressure', async () => {
    // Issue 27: the limit cuts older outputs only when the history is over the budget; the excerpt
    // keeps the evidence, everything fits, and the run is ok.
    const { code, out } = await stabilize(['long-output.jsonl', '--policy', 'excerpt-limit-policy.yml']);
    expect(code).toBe(0);
    expect(out).toMatch(/^long-output\.jsonl: ok$/m);
    expect(out).toMatch(/budget \d+ of 600 tokens/);
    expect(out).toMatch(/^ {2}excerpted +1 {2}\(verbose_tool_output 1\)$/m);
    expect(out).toMatch(/\[major\] tool_output_excerpted: /);
    // What the model receives: the failing test and the summary, with what was left out counted.
    const emitted = await stabilize([
      'long-output.jsonl',
      '--policy',
      'excerpt-limit-policy.yml',
      '--emit',
      'openai',
    ]);
    expect(emitted.code).toBe(0);
    const { messages } = JSON.parse(emitted.out) as { messages: OpenAIMessage[] };
    const result = String(messages.find((m) => m.role === 'tool')?.content);
    expect(result).toContain('AssertionError: expected 10.05 to equal 10.04');
    expect(result).toContain('Process exited with code 1');
    expect(result).toMatch(/\[\.\.\. \d+ lines?, \d+ characters? left out \.\.\.\]/);
  });

  it('lists what broke first: errors before warnings, pii before budget', async () => {
    const file = path.join(BROKEN, 'pii-thinking-document.json');
    const { code, out } = await stabilize([file, '--policy', path.join(BROKEN, 'policy-small.yml')]);
    expect(code).toBe(1);
    expect(out).toContain('failing: pii (error), budget (error), status (error)');
    const checks = [...out.matchAll(/^ {2}\S+:\d+:\d+: (\w+) \(/gm)].map((m) => m[1]);
    expect(checks).toEqual(['pii', 'budget', 'status']);
  });

  it('exits 1 when the status is escalated, through the status check, even if the budget is a warning', async () => {
    const { code, out } = await stabilize(['session.jsonl', '--policy', 'escalate-policy.yml']);
    expect(code).toBe(1);
    expect(out).toMatch(/^session\.jsonl: escalated$/m);
    expect(out).toMatch(
      /^ {2}session\.jsonl:\d+:1: status \(error\): status escalated: .*\(authority_over_budget\)/m,
    );
    // Red since issue 27: `protected (error)` fails too in the escalated run (reported as a bug).
    expect(out).toContain('failing: status (error), budget (warning)');
  });
});

describe('stabilize --json', () => {
  it('prints the report of DESIGN §7 with its keys in order, 2-space indented', async () => {
    const { code, out, err } = await stabilize(['--json', 'session.jsonl']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^\{\n {2}"schema_version": 1,\n {2}"transcript": "session\.jsonl",\n/);
    expect(out.endsWith('}\n')).toBe(true);
    const report = JSON.parse(out) as TranscriptReport;
    expect(Object.keys(report)).toEqual([
      'schema_version',
      'transcript',
      'status',
      'budget',
      'context',
      'ledger',
      'summaries',
      'checks',
      'events',
      'retention',
    ]);
    // Issue 27: the whole history fits, nothing is cut.
    expect(report.budget).toEqual({ limit: 8000, used: 1507 });
    expect(report.context.reduce((s, c) => s + c.tokens, 0)).toBe(1507);
    expect(report.ledger.map((e) => e.id)).toEqual([
      ...['sys', 'pol', 'task', 'u1', 'a1', 'r1', 'a2', 'r2', 'u2'],
      ...['a3', 'r3', 'a4', 'r4', 'a5', 'r5', 'u3', 'a6'],
    ]);
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['budget', true],
      ['order', true],
      ['pii', true],
      ['protected', true],
      ['pairing', true],
      ['summaries', true],
      ['ledger', true],
      ['guardian', true],
      ['task', true],
      ['recency', true],
      ['nonempty', true],
      ['provider', true],
      ['fresh_results', true],
      ['status', true],
      ['retention', true],
    ]);
    const byId = new Map(report.ledger.map((e) => [e.id, e]));
    expect(byId.get('r1')).toMatchObject({ action: 'kept', reason: 'in_budget', tokens_after: 34 });
    expect(byId.get('r2')).toMatchObject({ action: 'kept', reason: 'in_budget', tokens_after: 1202 });
    expect(byId.get('u1')).toMatchObject({ action: 'masked', pii: { email: 1 } });
    const u1 = report.context.find((c) => c.id === 'u1');
    expect(u1?.content).toContain('[EMAIL_1]');
    expect(u1?.line).toBe(5);
    expectNoPii(out);
  });

  it('is byte-identical from run to run', async () => {
    const first = await stabilize(['--json', 'session.jsonl', '--policy', 'tight-policy.yml']);
    const second = await stabilize(['--json', 'session.jsonl', '--policy', 'tight-policy.yml']);
    expect(second.out).toBe(first.out);
  });

  it('prints the report and the failing check with exit 1', async () => {
    const { code, out } = await stabilize(['--json', 'session.jsonl', '--policy', 'tiny-budget-policy.yml']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as TranscriptReport;
    expect(report.status).toBe('escalated');
    expect(report.checks.find((c) => c.name === 'budget')).toMatchObject({
      ok: false,
      severity: 'error',
      // At the largest of what must be kept (the system prompt; the recent turns are should-keep).
      violations: [{ id: 'sys', line: 2, column: 1 }],
    });
  });
});

describe('stabilize --emit', () => {
  it('writes an OpenAI request body that the API accepts, PII masked', async () => {
    const { code, out, err } = await stabilize(['--emit', 'openai', 'session.jsonl']);
    expect(code).toBe(0);
    expect(err).toBe('');
    const body = JSON.parse(out) as { messages: OpenAIMessage[] };
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are a build assistant for the billing service. Answer briefly.',
    });
    expect(verifyOpenAI(body.messages)).toEqual([]);
    expect(out).toContain('[CREDIT_CARD_1]');
    expectNoPii(out);
  });

  it('writes an Anthropic request body with the system prompt on top', async () => {
    const { code, out } = await stabilize(['--emit', 'anthropic', 'openai-chat.json']);
    expect(code).toBe(0);
    const body = JSON.parse(out) as AnthropicRequest;
    expect(body.system).toBe('You are a travel support agent. Follow the booking policy strictly.');
    expect(verifyAnthropic(body)).toEqual([]);
    const uses = body.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
    expect(uses.map((b) => b['id'])).toEqual(['call_1', 'call_2', 'call_3']);
    expectNoPii(out);
  });

  it('`same` writes the format the transcript came in; native writes {meta, artifacts}', async () => {
    const same = JSON.parse((await stabilize(['--emit', 'same', 'openai-chat.json'])).out) as {
      messages: OpenAIMessage[];
    };
    expect(same.messages.map((m) => m.role)).toEqual([
      ...['system', 'user', 'assistant', 'tool', 'tool'],
      ...['assistant', 'user', 'assistant', 'tool', 'assistant'],
    ]);
    // Under pressure (tight-policy.yml) the superseded r1 leaves (with room to spare it stays); the
    // latest request u3 is kept.
    const nativeRun = await stabilize(['--emit', 'native', 'session.jsonl', '--policy', 'tight-policy.yml']);
    const native = JSON.parse(nativeRun.out) as { artifacts: { id: string }[] };
    expect(native.artifacts.map((a) => a.id)).not.toContain('r1');
    expect(native.artifacts.map((a) => a.id)).toContain('u3');
  });

  it('native output keeps the transcript meta and masks PII in messages', async () => {
    const { code, out } = await stabilize(['--emit', 'native', 'meta-pii.jsonl']);
    expect(code).toBe(0);
    const doc = JSON.parse(out) as { meta: Record<string, unknown>; artifacts: { id: string }[] };
    expect(doc.meta['agent']).toBe('fixture-bot');
    expect(doc.artifacts.map((a) => a.id)).toEqual(['sys', 'u1']);
    expect(out).not.toContain('user.inline@example.com');
  });

  // Core bug (src/core/emit/native.ts): toNative copies `transcript.meta` verbatim, so PII in a
  // native transcript's meta record reaches `--emit native` output unmasked, while every message
  // is masked. Fix in the emitter (mask meta string values with the policy's masker, as the
  // context is); then drop `.fails`.
  it('masks PII in the native meta record too', async () => {
    const { out } = await stabilize(['--emit', 'native', 'meta-pii.jsonl']);
    expect(out).not.toContain('meta.owner@example.com');
  });

  it('reports failing checks on stderr, keeping stdout a clean request body', async () => {
    const { code, out, err } = await stabilize([
      '--emit',
      'openai',
      'session.jsonl',
      '--policy',
      'tiny-budget-policy.yml',
    ]);
    expect(code).toBe(1);
    expect(() => JSON.parse(out) as unknown).not.toThrow();
    expect(err).toMatch(/^session\.jsonl:2:1: budget \(error\): the context needs 127 tokens/m);
  });
});

// The optional cache_prefix check (docs/cache-prefix.md): every gate applies the same checks, so
// `stabilize` runs it exactly when `check` does, from the policy's `checks.cache_prefix`.
describe('stabilize: the cache_prefix check', () => {
  let dir: string;
  let withoutKey: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cs-stabilize-cache-'));
    // The same policy without the `checks.cache_prefix` key: the check is off, min_share is unused.
    const text = await readFile(path.join(FIXTURES, 'cache-prefix-policy.yml'), 'utf8');
    const stripped = text.replace('checks:\n  cache_prefix: error\n', '');
    expect(stripped).not.toBe(text);
    withoutKey = path.join(dir, 'no-check.yml');
    await writeFile(withoutKey, stripped);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('goes red at the user message of each turn whose request misses the prompt cache, exit 1', async () => {
    const { code, out, err } = await stabilize(['session.jsonl', '--policy', 'cache-prefix-policy.yml']);
    expect(code).toBe(1);
    expect(err).toBe('');
    // Every other check holds: the run fails on cache_prefix alone.
    expect(out).toMatch(/^session\.jsonl: ok$/m);
    expect(out).toContain('checks: 14 of 16 passed, failing: cache_prefix (error), retention (warning)');
    const found = [...out.matchAll(/^ {2}session\.jsonl:(\d+):(\d+): (\w+) \(error\): .* \[(\w+)\]$/gm)].map(
      (m) => [m[3], m[4], Number(m[1]), Number(m[2])],
    );
    expect(found).toEqual([
      ['cache_prefix', 'u2', 10, 1],
      ['cache_prefix', 'u3', 17, 1],
    ]);
    expect(out).toMatch(
      /^ {2}session\.jsonl:10:1: cache_prefix \(error\): the model call after r4 \(line 14\) starts with only \d+\.\d% of the previous request .*cache_prefix\.min_share is 99\.0%/m,
    );
    expectNoPii(out);
    for (const text of SESSION_TEXT) expect(out).not.toContain(text);
  });

  it('--json holds the check and the prompt-cache figure; --emit names the check on stderr', async () => {
    const { code, out } = await stabilize(['--json', 'session.jsonl', '--policy', 'cache-prefix-policy.yml']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as TranscriptReport;
    expect(report.status).toBe('ok');
    // Issue 28: at this budget the retention replay also finds a value the agent used again after
    // the budget dropped it (a warning: it does not fail the run).
    expect(report.checks.filter((c) => !c.ok).map((c) => [c.name, c.severity])).toEqual([
      ['cache_prefix', 'error'],
      ['retention', 'warning'],
    ]);
    expect(report.checks.find((c) => c.name === 'cache_prefix')).toMatchObject({
      ok: false,
      severity: 'error',
      violations: [
        { id: 'u2', line: 10, column: 1 },
        { id: 'u3', line: 17, column: 1 },
      ],
    });
    expect(report.cache_prefix?.min_share).toBeLessThan(0.99);
    expect(report.cache_prefix?.replayed).toBeGreaterThan(0);
    expectNoPii(out);

    const emitted = await stabilize([
      '--emit',
      'openai',
      'session.jsonl',
      '--policy',
      'cache-prefix-policy.yml',
    ]);
    expect(emitted.code).toBe(1);
    expect(() => JSON.parse(emitted.out) as unknown).not.toThrow();
    expect(emitted.err).toMatch(/^session\.jsonl:10:1: cache_prefix \(error\): /m);
  });

  it('at warning severity it is reported and the run passes', async () => {
    const warn = path.join(dir, 'warn.yml');
    const text = await readFile(path.join(FIXTURES, 'cache-prefix-policy.yml'), 'utf8');
    await writeFile(warn, text.replace('cache_prefix: error', 'cache_prefix: warning'));
    const { code, out } = await stabilize(['session.jsonl', '--policy', warn]);
    expect(code).toBe(0);
    expect(out).toContain('checks: 14 of 16 passed, failing: retention (warning), cache_prefix (warning)');
    expect(out).toMatch(/^ {2}session\.jsonl:10:1: cache_prefix \(warning\): /m);
  });

  it('without checks.cache_prefix nothing changes: no replay, no check, exit 0', async () => {
    const text = await stabilize(['session.jsonl', '--policy', withoutKey]);
    expect(text.code).toBe(0);
    expect(text.out).not.toContain('cache_prefix');
    // The same output as the policy that never named cache_prefix at all.
    expect(text.out).toBe((await stabilize(['session.jsonl', '--policy', 'tight-policy.yml'])).out);
    const json = await stabilize(['--json', 'session.jsonl', '--policy', withoutKey]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as TranscriptReport;
    expect(report.checks.map((c) => c.name)).not.toContain('cache_prefix');
    expect(report.cache_prefix).toBeUndefined();
    expect(json.out).toBe((await stabilize(['--json', 'session.jsonl', '--policy', 'tight-policy.yml'])).out);
  });
});

describe('stabilize: usage and input errors (exit 2)', () => {
  it('refuses --emit with --json', async () => {
    const { code, out, err } = await stabilize(['--json', '--emit', 'openai', 'session.jsonl']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('--emit and --json cannot be combined');
  });

  it('names the accepted --emit and --input-format values', async () => {
    const emit = await stabilize(['--emit', 'gemini', 'session.jsonl']);
    expect(emit.code).toBe(2);
    expect(emit.err).toContain('--emit accepts same, native, openai, anthropic');
    const format = await stabilize(['--input-format', 'xml', 'session.jsonl']);
    expect(format.code).toBe(2);
    expect(format.err).toContain('--input-format accepts auto, native, openai, anthropic, claude-code');
  });

  it('needs exactly one FILE', async () => {
    expect((await stabilize([])).code).toBe(2);
    const two = await stabilize(['session.jsonl', 'openai-chat.json']);
    expect(two.code).toBe(2);
    expect(two.err).toContain('stabilize needs exactly one FILE');
  });

  it('prints policy diagnostics at file:line:column and nothing on stdout for an invalid policy', async () => {
    const { code, out, err } = await stabilize(['session.jsonl', '--policy', 'bad-policy.yml']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^bad-policy\.yml:2:9: error\[invalid-value\]: budget/m);
  });

  it('reports a missing or oversized transcript as a diagnostic', async () => {
    const missing = await stabilize(['nope.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^nope\.jsonl:1:1: error\[not-found\]/m);
    const big = await stabilize(['session.jsonl', '--max-file-size', '100']);
    expect(big.code).toBe(2);
    expect(big.err).toMatch(/^session\.jsonl:1:1: error\[file-too-large\]/m);
  });

  it('stabilizes what it could read of a file with a broken record, then exits 2', async () => {
    const { code, out, err } = await stabilize(['broken-line.jsonl']);
    expect(code).toBe(2);
    expect(err).toMatch(/^broken-line\.jsonl:5:\d+: error\[/m);
    expect(out).toMatch(/^broken-line\.jsonl: ok$/m);
    expectNoPii(out + err);
  });
});

describe('stabilize: policy discovery', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cs-stabilize-'));
    await mkdir(path.join(dir, '.github'));
    await writeFile(path.join(dir, '.github/context-policy.yml'), 'version: 1\nbudget: 220\n');
    await copyFile(path.join(FIXTURES, 'session.jsonl'), path.join(dir, 'session.jsonl'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('applies .github/context-policy.yml of the working directory', async () => {
    const { code, out } = await stabilize(['--json', 'session.jsonl'], dir);
    expect(code).toBe(0);
    expect((JSON.parse(out) as TranscriptReport).budget.limit).toBe(220);
  });

  it('lets --policy override the discovered file', async () => {
    const policy = path.join(FIXTURES, 'tiny-budget-policy.yml');
    const { code, out } = await stabilize(['--json', 'session.jsonl', '--policy', policy], dir);
    expect(code).toBe(1);
    expect((JSON.parse(out) as TranscriptReport).budget.limit).toBe(40);
  });
});
