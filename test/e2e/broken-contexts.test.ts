// Each way a context was broken while the checker said "ok" (issue 9), run through the CLI's
// `check` as a user runs it: exit 1, the right check named at the transcript line that caused it,
// in the JSON report and in the text and GitHub outputs; and the gate's severities (drift at
// warning or off, an escalated run, an order that breaks the invariant). The scenarios run
// in-process (runInProcess: `main` with an in-memory IO); one run per command and output format
// goes through the built CLI (`bin/context-stability.js` → build/) as a child process (runBuilt):
// check's json, text and github outputs in 'retention: an id the agent uses again…', stabilize
// --json in 'a tool loop…', --emit openai in 'a side-chain-only…', --emit anthropic in 'reused
// call ids…', stabilize's summary in 'an escalated run…', update in 'PII in a thinking block…' and
// policy validate in 'an order that puts the system prompt last…'.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import { verifyAnthropic } from '../../src/core/emit/verify.js';
import type { CheckReport, ReportViolation } from '../../src/core/golden/check-report.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';
import type { Run } from './check-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/broken-contexts/', import.meta.url));
const PII = ['rosa.quintero@example.net', '415 555 2671'];
const dirs: string[] = [];

/** A temp repository holding one fixture transcript under transcripts/ and every fixture policy. */
function repo(transcript: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-broken-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, transcript), path.join(dir, 'transcripts', transcript));
  for (const p of [
    'small',
    'must-keep',
    'tool-loop',
    'target-anthropic',
    'target-openai',
    'escalate',
    'order-system-last',
    'cache-prefix',
    'retention',
    'fresh-results',
    'fresh-cut',
  ])
    cpSync(path.join(FIXTURES, `policy-${p}.yml`), path.join(dir, `policy-${p}.yml`));
  return dir;
}

async function check(
  dir: string,
  args: string[],
  runner: typeof runBuilt = runInProcess,
): Promise<{ run: Run; report: CheckReport }> {
  const run = await runner(['check', '--format', 'json', ...args, 'transcripts'], dir);
  for (const pii of PII) expect(run.stdout + run.stderr).not.toContain(pii);
  return { run, report: JSON.parse(run.stdout) as CheckReport };
}

function found(report: CheckReport): [string, string, number, number | undefined][] {
  return (report.transcripts[0]?.violations ?? []).map((v: ReportViolation) => [
    v.check,
    v.severity,
    v.line,
    v.column,
  ]);
}

beforeAll(assertBuilt);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('check goes red where the context is broken', () => {
  // The stabilizer now keeps the task statement and the latest request (issue 10); where they do not
  // fit with the rest of what must be kept, the run is red on budget at the largest of it, never
  // green without them. (Each check's own detection is tested on hand-broken results in
  // test/core/validate/context-checks.test.ts.)
  it('a long task statement over a small budget: kept, and budget fails at it', async () => {
    const { run, report } = await check(repo('task-dropped.jsonl'), ['--policy', 'policy-small.yml']);
    expect(run.code).toBe(1);
    expect(found(report)).toContainEqual(['budget', 'error', 2, 1]);
    expect(found(report).map(([c]) => c)).not.toContain('task');
    const text = await runInProcess(['check', '--policy', 'policy-small.yml', 'transcripts'], dirs.at(-1)!);
    // Issue 27: the recent turns are should-keep, not must-keep: what must be kept is system, task and
    // latest request (86 tokens). An escalated run drops nothing protected for nothing, so the context
    // keeps the recent turns too (103).
    expect(text.stdout).toMatch(
      /^ {2}transcripts\/task-dropped\.jsonl:2:1: error\[budget\] u1: the context needs 103 tokens, over the budget of 60: what must be kept \(system, task, latest request, protected\) alone needs 86,/m,
    );
  });

  it('a tool loop after the latest request: the request stays, older runs leave, and it fits', async () => {
    const dir = repo('latest-request-dropped.json');
    const { run, report } = await check(dir, ['--policy', 'policy-tool-loop.yml']);
    // Issue 27: the request, the task and the open tool loop (the latest outcome) are must-keep
    // (100 of 120 tokens). With the stable prefix the conversation is kept from the earliest grid
    // point from which it fits; every earlier step of the loop is older than that point, its
    // should-keep evidence (the bash results, the recent m4) leaves with it: degraded, a status
    // warning at the first of it (m2), and no error.
    expect(run.code).toBe(0);
    expect(found(report)).toEqual([['status', 'warning', 12, 5]]);
    expect(report.transcripts[0]?.status).toBe('warning');
    const stabilized = await runBuilt(
      ['stabilize', '--json', '--policy', 'policy-tool-loop.yml', 'transcripts/latest-request-dropped.json'],
      dir,
    );
    const context = (JSON.parse(stabilized.stdout) as { context: { id: string }[] }).context;
    expect(context.map((c) => c.id)).toEqual(['m0', 'm1', 'm5', 'm12', 'm13']);
  });

  it('budget annotated where it went, not at line 1', async () => {
    // Issue 27: at 60 tokens (policy-small) the open loop is left out as the last resort and the
    // run is a warning; 30 tokens are below system, task and latest request (40): escalated, red on
    // budget at the largest of what must be kept, the latest request m5.
    const { run, report } = await check(repo('latest-request-dropped.json'), [
      '--policy',
      'policy-must-keep.yml',
    ]);
    expect(run.code).toBe(1);
    expect(found(report)).toContainEqual(['budget', 'error', 35, 5]);
    const github = await runInProcess(
      ['check', '--format', 'github', '--policy', 'policy-must-keep.yml', 'transcripts'],
      dirs.at(-1)!,
    );
    expect(github.stdout).toMatch(
      /^::error file=transcripts\/latest-request-dropped\.json,line=35,col=5,title=context-stability budget%3A m5::/m,
    );
  });

  it('the open tool loop left out as the last resort: a warning, not an escalation', async () => {
    // Issue 27: at 60 tokens system, task and latest request (40) fit, the open loop (60) does not
    // even as excerpts: it is left out whole (degraded), and the run is a warning, exit 0.
    const dir = repo('latest-request-dropped.json');
    const { run, report } = await check(dir, ['--policy', 'policy-small.yml']);
    expect(run.code).toBe(0);
    expect(report.transcripts[0]?.status).toBe('warning');
    // Issue 28: the results the model just asked for are gone: fresh_results (a warning by default)
    // at the assistant turn that made the call (m12, line 96).
    expect(found(report)).toEqual([
      ['fresh_results', 'warning', 96, 5],
      ['status', 'warning', 12, 5],
    ]);
    const stabilized = await runInProcess(
      ['stabilize', '--json', '--policy', 'policy-small.yml', 'transcripts/latest-request-dropped.json'],
      dir,
    );
    const parsed = JSON.parse(stabilized.stdout) as {
      context: { id: string }[];
      ledger: { id: string; reason: string }[];
    };
    expect(parsed.context.map((c) => c.id)).toEqual(['m0', 'm1', 'm5']);
    expect(parsed.ledger.find((e) => e.id === 'm13')?.reason).toBe('degraded');
  });

  it('retention: an id the agent uses again was dropped before the call that needs it', async () => {
    // Issue 28: at 150 tokens the user's message with the reservation id (line 16) and the lookup
    // that repeated it (line 20) are gone when the agent calls cancel_reservation (line 55).
    const dir = repo('retention-id-dropped.json');
    // Process-level: check's json, text and github outputs through the built bin.
    const { run, report } = await check(dir, ['--policy', 'policy-retention.yml'], runBuilt);
    expect(run.code).toBe(1);
    expect(found(report)).toContainEqual(['retention', 'error', 55, 5]);
    const v = report.transcripts[0]?.violations.find((x) => x.check === 'retention');
    expect(v?.message).toBe(
      'the cancel_reservation call at line 55 used `8JX2WO`, first seen at line 16 (user); the context at that call had lost it: dropped (pair_unit) at line 20',
    );
    const text = await runBuilt(['check', '--policy', 'policy-retention.yml', 'transcripts'], dir);
    expect(text.stdout).toContain('transcripts/retention-id-dropped.json:55:5: error[retention] m10:');
    const github = await runBuilt(
      ['check', '--format', 'github', '--policy', 'policy-retention.yml', 'transcripts'],
      dir,
    );
    expect(github.stdout).toMatch(
      /^::error file=transcripts\/retention-id-dropped\.json,line=55,col=5,title=context-stability retention%3A m10::/m,
    );
    // The default policy keeps it (and reports the check as passed at warning).
    const wide = await check(dir, []);
    expect(found(wide.report).filter(([c]) => c === 'retention')).toEqual([]);
  });

  it('retention: a recorded summary that replaced the voucher message without the voucher', async () => {
    // Issue 28: s1 stands for u2 (line 4, "Apply the voucher VCH-55120 …") and a2; the budget leaves
    // the summary and drops its sources, and nothing in the context still holds the voucher.
    const { run, report } = await check(repo('summary-dropped-voucher.jsonl'), [
      '--policy',
      'policy-retention.yml',
    ]);
    expect(run.code).toBe(1);
    const v = report.transcripts[0]?.violations.filter((x) => x.check === 'retention');
    expect(v?.map((x) => [x.line, x.column, x.id, x.message])).toEqual([
      [
        4,
        1,
        'u2',
        'the summary s1 replaced this user message (line 4) but keeps no `VCH-55120` (an instruction)',
      ],
    ]);
  });

  it('fresh_results: the open loop left out is red at the call when the policy says error', async () => {
    const { run, report } = await check(repo('latest-request-dropped.json'), [
      '--policy',
      'policy-fresh-results.yml',
    ]);
    expect(run.code).toBe(1);
    expect(found(report)).toContainEqual(['fresh_results', 'error', 96, 5]);
  });

  it('fresh_results: a fresh result cut to an excerpt is a warning even at error', async () => {
    const { run, report } = await check(repo('fresh-result-cut.json'), ['--policy', 'policy-fresh-cut.yml']);
    expect(run.code).toBe(0);
    expect(found(report)).toContainEqual(['fresh_results', 'warning', 12, 5]);
  });

  it('a side-chain-only Claude Code log: nonempty, and both APIs refuse the empty request', async () => {
    const dir = repo('sidechain-only.jsonl');
    const { run, report } = await check(dir, []);
    expect(run.code).toBe(1);
    expect(found(report)).toContainEqual(['nonempty', 'error', 1, 1]);
    const emitted = await runBuilt(
      ['stabilize', '--emit', 'openai', 'transcripts/sidechain-only.jsonl'],
      dir,
    );
    expect(emitted.code).toBe(1);
    expect(emitted.stderr).toContain('openai-messages-nonempty');
  });

  it('reused call ids written for Anthropic: renamed in the request, which the API accepts', async () => {
    const dir = repo('reused-call-ids.json');
    const { run, report } = await check(dir, ['--policy', 'policy-target-anthropic.yml']);
    expect(run.code).toBe(0);
    expect(found(report)).toEqual([]);
    const emitted = await runBuilt(
      ['stabilize', '--emit', 'anthropic', 'transcripts/reused-call-ids.json'],
      dir,
    );
    expect(emitted.code).toBe(0);
    expect(emitted.stdout).toContain('"id": "call_1_2"');
  });

  it('an Anthropic request opening with an assistant turn: repaired with a placeholder user turn, which the API accepts', async () => {
    // Issue 27: repair before escalating (policy repair.leading_user_text).
    const dir = repo('assistant-first.json');
    const { run, report } = await check(dir, []);
    expect(run.code).toBe(0);
    expect(found(report)).toEqual([]);
    expect(report.transcripts[0]?.status).toBe('ok');
    const emitted = await runInProcess(
      ['stabilize', '--emit', 'anthropic', 'transcripts/assistant-first.json'],
      dir,
    );
    expect(emitted.code).toBe(0);
    const body = JSON.parse(emitted.stdout) as AnthropicRequest;
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[The conversation continues from earlier turns.]' }],
    });
    expect(verifyAnthropic(body)).toEqual([]);
  });

  it('thinking written for OpenAI: left out of the request, which the API accepts', async () => {
    const dir = repo('thinking-for-openai.json');
    const { run, report } = await check(dir, ['--policy', 'policy-target-openai.yml']);
    expect(run.code).toBe(0);
    expect(found(report)).toEqual([]);
    const emitted = await runInProcess(
      ['stabilize', '--emit', 'openai', 'transcripts/thinking-for-openai.json'],
      dir,
    );
    expect(emitted.stdout).not.toContain('thinking');
  });

  it('PII in a thinking block and a document: the document is masked, pii at the thinking, no golden written, nothing quoted', async () => {
    const dir = repo('pii-thinking-document.json');
    const { run, report } = await check(dir, []);
    expect(run.code).toBe(1);
    const pii = found(report).filter(([c]) => c === 'pii');
    expect(pii).toEqual([['pii', 'error', 22, 5]]);
    const update = await runBuilt(['update', 'transcripts'], dir);
    expect(update.code).toBe(1);
    expect(update.stdout + update.stderr).toContain('golden-pii');
    for (const pii of PII) expect(update.stdout + update.stderr).not.toContain(pii);
  });

  it('a budget that drops the oldest kept answer at the last call: cache_prefix at that turn, every other check green', async () => {
    const dir = repo('cache-prefix-window.jsonl');
    const { run, report } = await check(dir, ['--policy', 'policy-cache-prefix.yml']);
    expect(run.code).toBe(1);
    expect(found(report)).toEqual([['cache_prefix', 'error', 8, 1]]);
    const outcome = report.transcripts[0];
    expect(outcome?.status).toBe('ok');
    expect(outcome?.violations[0]?.id).toBe('u4');
    expect(outcome?.cache_prefix?.min_share).toBeLessThan(0.5);
    const text = await runInProcess(['check', '--policy', 'policy-cache-prefix.yml', 'transcripts'], dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^ {2}transcripts\/cache-prefix-window\.jsonl:8:1: error\[cache_prefix\] u4: the model call after u4 \(line 8\) starts with only \d+\.\d% of the previous request .*cache_prefix\.min_share is 50\.0%/m,
    );
    const github = await runInProcess(
      ['check', '--format', 'github', '--policy', 'policy-cache-prefix.yml', 'transcripts'],
      dir,
    );
    expect(github.stdout).toMatch(
      /^::error file=transcripts\/cache-prefix-window\.jsonl,line=8,col=1,title=context-stability cache_prefix%3A u4::/m,
    );
  });

  it('the same budget without checks.cache_prefix passes: the check is opt-in', async () => {
    const dir = repo('cache-prefix-window.jsonl');
    writeFileSync(path.join(dir, 'p.yml'), 'budget: 200\n');
    const { run, report } = await check(dir, ['--policy', 'p.yml']);
    expect(run.code).toBe(0);
    expect(found(report)).toEqual([]);
  });
});

describe('the gate', () => {
  it('an escalated run fails check exactly as it fails stabilize', async () => {
    const dir = repo('assistant-first.json');
    const { run, report } = await check(dir, ['--policy', 'policy-escalate.yml']);
    expect(run.code).toBe(1);
    expect(found(report).map(([c, s]) => [c, s])).toContainEqual(['status', 'error']);
    const stabilize = await runBuilt(
      ['stabilize', '--policy', 'policy-escalate.yml', 'transcripts/assistant-first.json'],
      dir,
    );
    expect(stabilize.code).toBe(1);
  });

  it('drift at severity warning is reported and does not fail; off is not compared', async () => {
    const dir = repo('task-dropped.jsonl');
    expect((await runInProcess(['update', 'transcripts'], dir)).code).toBe(0);
    // A larger per-message overhead changes every count and drops nothing: what the model sees is
    // the same, so it is no drift, just a note.
    writeFileSync(path.join(dir, 'p.yml'), 'message_overhead: 5\n');
    const counts = await runInProcess(['check', '--policy', 'p.yml', 'transcripts'], dir);
    expect(counts.code).toBe(0);
    expect(counts.stdout).toMatch(/^PASS /m);
    expect(counts.stdout).toMatch(/^ {2}note: .*this context is unchanged/m);

    // A budget that drops one short assistant turn, every check still holding: drift only.
    writeFileSync(path.join(dir, 'p.yml'), 'budget: 105\n');
    const hard = await runInProcess(['check', '--policy', 'p.yml', 'transcripts'], dir);
    expect(hard.code).toBe(1);
    expect(hard.stdout).toMatch(/^DRIFT /m);

    writeFileSync(path.join(dir, 'p.yml'), 'budget: 105\nchecks:\n  drift: warning\n');
    const soft = await runInProcess(['check', '--format', 'github', '--policy', 'p.yml', 'transcripts'], dir);
    expect(soft.code).toBe(0);
    expect(soft.stdout).toMatch(
      /^::warning file=transcripts\/task-dropped\.jsonl,line=3,title=Golden drift%3A a1::First change: a1 \(line 3\)/m,
    );
    expect(soft.stdout).not.toMatch(/^::error/m);

    writeFileSync(path.join(dir, 'p.yml'), 'budget: 105\nchecks:\n  drift: off\n');
    const off = await runInProcess(['check', '--policy', 'p.yml', 'transcripts'], dir);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toMatch(/DRIFT/);
    // The context did change: no note may say it is unchanged.
    expect(off.stdout).not.toContain('this context is unchanged');
  });

  it('an order that puts the system prompt last is refused (exit 2) at its line:column', async () => {
    const dir = repo('task-dropped.jsonl');
    const run = await runInProcess(['check', '--policy', 'policy-order-system-last.yml', 'transcripts'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'policy-order-system-last.yml:1:9: error[invalid-value]: order[0]: task comes before system',
    );
    const validate = await runBuilt(['policy', 'validate', 'policy-order-system-last.yml'], dir);
    expect(validate.code).toBe(2);
  });
});
