// A green check means the context works (issue 9): whatever the budget cuts, a request `--emit`
// writes that the provider would refuse must fail the run, with the broken rules named at a line of
// the transcript; a run that passes must print a request the provider accepts (verifyOpenAI /
// verifyAnthropic, the full rule sets). The stabilizer does not always produce an accepted request
// yet (it drops the task, keeps reused tool_use ids, …): the expected outcome of each corpus file,
// budget and target is recorded in corpus-expectations.ts. Checked in-process on every supported
// corpus file and on generated sessions at many budgets, and through the CLI for every supported
// corpus file, budget and target; files awaiting a reader (issue 13) are refused cleanly. The CLI
// scenarios run in-process (runInProcess: `main` with an in-memory IO); one test runs the built bin
// (`bin/context-stability.js` → build/) as a child process for `stabilize --emit openai`, `--emit
// anthropic`, `--json` and a refused file, and expects exactly what the in-process runs print.
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolvePolicy } from '../../src/api/policy.js';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import { emitContext } from '../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import { findPii } from '../../src/core/pii/mask.js';
import { builtinDetectors } from '../../src/core/pii/registry.js';
import type { ParsedPolicy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { failingChecks, type TranscriptReport } from '../../src/core/report/report.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../src/core/types.js';
import type { CheckResult } from '../../src/core/validate/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { generateCorpus } from '../support/generate/index.js';
import {
  CORPUS,
  HAS_CORPUS,
  REPO,
  awaitingEntry,
  corpusFiles,
  unclassifiedMessage,
  warnIfNoCorpus,
} from '../support/corpus.js';
import {
  EMIT_BUDGETS as BUDGETS,
  EMIT_TARGETS as TARGETS,
  type EmitTarget,
  emitOutcome,
  expectedFor,
  outcomeText,
} from './corpus-expectations.js';
import { runBuilt, runInProcess, type Run } from './check-cli.js';

warnIfNoCorpus('e2e emit-providers');

const { supported, awaitingReader, unclassified } = corpusFiles();

let tokenizer: Tokenizer;
const policies = new Map<number, ParsedPolicy>();
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
  for (const budget of BUDGETS) policies.set(budget, resolvePolicy({ budget }));
});

function read(text: string, file: string): Transcript {
  const read = readTranscript(text, { file });
  if (!read.ok) throw new Error(`${file} did not load: ${read.diagnostics.map((d) => d.code).join(', ')}`);
  return read.transcript;
}

function run(transcript: Transcript, budget: number): StabilizeResult {
  const parsed = policies.get(budget) as ParsedPolicy;
  return stabilizeTranscript(transcript, { policy: parsed.policy, tokenizer, rules: parsed.rules });
}

function body(result: StabilizeResult, target: EmitTarget): unknown {
  return emitContext(result.context, target);
}

/** The rule names the verifier reports on an emitted body (`<rule>: <message>` each). */
function verifiedRules(target: EmitTarget, emitted: unknown): string[] {
  const found =
    target === 'openai'
      ? verifyOpenAI((emitted as { messages: OpenAIMessage[] }).messages)
      : verifyAnthropic(emitted as AnthropicRequest);
  return found.map((v) => v.slice(0, v.indexOf(':')));
}

/** `openai request rule openai-empty-array: …` → `openai-empty-array`. */
function ruleOf(message: string): string {
  return /request rule ([a-z0-9-]+):/.exec(message)?.[1] ?? `unparsed: ${message}`;
}

/** Rules only the provider check can see (it has the transcript; the verifier has the body alone). */
const CHECK_ONLY_RULES = new Set(['anthropic-thinking-unchanged']);

/**
 * The invariant: every rule the verifier finds in the emitted body fails the run through the
 * `provider` check (severity error), the check reports nothing the verifier disagrees with, and a run
 * with no failing check emitted a body the verifier accepts.
 */
function expectInvariant(verified: string[], checks: readonly CheckResult[], label: string): void {
  const provider = checks.find((c) => c.name === 'provider');
  const named = (provider?.violations ?? []).map((v) => ruleOf(v.message));
  for (const rule of verified) expect(named, `${label}: the provider check names ${rule}`).toContain(rule);
  expect(
    named.filter((r) => !verified.includes(r) && !CHECK_ONLY_RULES.has(r)),
    `${label}: provider rules the verifier does not see in the body`,
  ).toEqual([]);
  const failing = failingChecks(checks);
  if (verified.length > 0)
    expect(
      failing.map((c) => c.name),
      label,
    ).toContain('provider');
  if (failing.length === 0) expect(verified, `${label}: a green run emits an accepted request`).toEqual([]);
}

function outcomeOf(checks: readonly CheckResult[]): string {
  return outcomeText(
    failingChecks(checks).map((c) => ({ name: c.name, rules: c.violations.map((v) => ruleOf(v.message)) })),
  );
}

/** Lines of the file: a reported line:column must point inside it. */
function linesOf(text: string): string[] {
  return text.split('\n');
}

function expectPointsInto(lines: readonly string[], line: number, column: number, label: string): void {
  expect(line, label).toBeGreaterThanOrEqual(1);
  expect(line, label).toBeLessThanOrEqual(lines.length);
  expect(column, label).toBeGreaterThanOrEqual(1);
  expect(column, label).toBeLessThanOrEqual((lines[line - 1] ?? '').length + 1);
}

describe.skipIf(!HAS_CORPUS)('emitted requests over the recorded corpus, in-process', () => {
  it('classifies every recording of the corpus', () => {
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
  });

  it.each(supported)(
    '%s: a refused request fails the provider check, a green run emits an accepted one',
    (file) => {
      const text = readFileSync(path.join(CORPUS, file), 'utf8');
      const lines = linesOf(text);
      const transcript = read(text, file);
      for (const budget of BUDGETS) {
        const parsed = policies.get(budget) as ParsedPolicy;
        const result = run(transcript, budget);
        for (const target of TARGETS) {
          const label = `${target} at budget ${budget}`;
          const checks = validateResult(transcript, result, {
            policy: parsed.policy,
            tokenizer,
            rules: parsed.rules,
            emit: target,
          });
          expectInvariant(verifiedRules(target, body(result, target)), checks, label);
          for (const check of failingChecks(checks))
            for (const v of check.violations)
              expectPointsInto(lines, v.line, v.column ?? 1, `${label}: ${check.name}`);
          expect(outcomeOf(checks), label).toBe(emitOutcome(file, target, budget));
          // Issue 10's done criterion: no run is ok or warning with a failing error check, and only
          // an escalated run exceeds the budget.
          if (result.status !== 'escalated') {
            expect(
              failingChecks(checks).map((c) => c.name),
              `${label}: ${result.status}`,
            ).toEqual([]);
            expect(result.budget.used, label).toBeLessThanOrEqual(budget);
          }
          // What the stabilizer keeps stays paired, whatever the target's other rules say.
          expect(checks.find((c) => c.name === 'pairing')?.violations, label).toEqual([]);
        }
      }
    },
  );
});

/** One CLI run in this process: the scenarios below test what is printed, not the process. */
function cli(args: string[], cwd: string): Promise<Run> {
  return runInProcess(args, cwd);
}

/** String values of a JSON or JSONL text that read like prose: 24+ characters with a space. */
function textValues(file: string, text: string): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.length >= 24 && /\s/.test(v.trim())) out.push(v.trim());
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  for (const doc of file.endsWith('.jsonl') ? text.split('\n') : [text]) {
    try {
      visit(JSON.parse(doc));
    } catch {
      // malformed JSONL lines hold no values to look for
    }
  }
  return out;
}

/** `file:12:3: provider (error): anthropic request rule anthropic-…: … [id]` lines of stderr. */
const VIOLATION_LINE = /^(.+?):(\d+):(\d+): ([a-z]+) \((error|warning)\): (.*)$/;

describe.skipIf(!HAS_CORPUS)('emitted requests over the recorded corpus, through the CLI', () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(path.join(REPO, 'build/cli/commands/stabilize.js'))) {
      throw new Error('build/ has no stabilize command: run `npm run build` before the e2e tests.');
    }
    dir = await mkdtemp(path.join(tmpdir(), 'cs-emit-'));
    for (const budget of BUDGETS) {
      await writeFile(path.join(dir, `budget-${budget}.yml`), `version: 1\nbudget: ${budget}\n`);
      for (const target of TARGETS) {
        await writeFile(
          path.join(dir, `budget-${budget}-${target}.yml`),
          `version: 1\nbudget: ${budget}\ntarget: ${target}\n`,
        );
      }
    }
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cases = supported.flatMap((file) => BUDGETS.map((budget) => [file, budget] as const));

  it('the built bin, as a child process, prints and exits exactly as the in-process runs', async () => {
    // The process-level test of this file: the bin, the bundle, exit codes as the shell sees them
    // and the real stdout/stderr, for --emit openai, --emit anthropic, --json and a refused file.
    const [file] = supported;
    const [budget] = BUDGETS;
    const [first] = TARGETS;
    if (file === undefined || first === undefined) throw new Error('no supported corpus file');
    const scenarios = [
      ...TARGETS.map((target) => [
        'stabilize',
        '--emit',
        target,
        '--policy',
        path.join(dir, `budget-${budget}.yml`),
        file,
      ]),
      ['stabilize', '--json', '--policy', path.join(dir, `budget-${budget}-${first}.yml`), file],
      ...awaitingReader.slice(0, 1).map((refused) => ['stabilize', '--emit', first, refused]),
    ];
    const spawned = await Promise.all(scenarios.map((args) => runBuilt(args, CORPUS)));
    for (const [i, args] of scenarios.entries()) {
      const label = args.join(' ');
      const built = spawned[i] as Run;
      expect(built.stdout.length + built.stderr.length, label).toBeGreaterThan(0);
      expect(built, label).toEqual(await cli(args, CORPUS));
    }
  });

  it.each(cases)(
    '%s at budget %i: --emit openai|anthropic exits 1 naming every rule the request breaks, else 0',
    async (file, budget) => {
      const raw = readFileSync(path.join(CORPUS, file), 'utf8');
      const lines = linesOf(raw);
      const values = textValues(file, raw);
      const invalid = expectedFor(file, raw).invalidLines > 0;
      const result = run(read(raw, file), budget);
      const runs = await Promise.all(
        TARGETS.map((target) =>
          cli(
            ['stabilize', '--emit', target, '--policy', path.join(dir, `budget-${budget}.yml`), file],
            CORPUS,
          ),
        ),
      );
      for (const [i, target] of TARGETS.entries()) {
        const out = runs[i] as Run;
        const label = `--emit ${target} at budget ${budget}`;
        const expected = emitOutcome(file, target, budget);
        // Unreadable JSONL records win (exit 2, the rest still printed), else findings (exit 1).
        expect(out.code, `${label}: ${out.stderr}`).toBe(invalid ? 2 : expected === '-' ? 0 : 1);

        // stdout is the request body, the one the library emits for the same policy.
        const emitted = JSON.parse(out.stdout) as unknown;
        expect(emitted, label).toEqual(body(result, target));
        const verified = verifiedRules(target, emitted);

        // stderr: one line per violation, at a line:column of the file, never quoting content.
        const violations = out.stderr
          .split('\n')
          .map((l) => VIOLATION_LINE.exec(l))
          .filter((m): m is RegExpExecArray => m !== null);
        for (const m of violations) {
          expect(m[1], label).toBe(file);
          expectPointsInto(lines, Number(m[2]), Number(m[3]), `${label}: ${m[0]}`);
        }
        let providerRules = violations.filter((m) => m[4] === 'provider').map((m) => ruleOf(m[6] as string));
        if (out.stderr.includes('more provider violations')) {
          // stderr shows the first violations of a check: the --json report lists them all.
          const json = await cli(
            ['stabilize', '--json', '--policy', path.join(dir, `budget-${budget}-${target}.yml`), file],
            CORPUS,
          );
          const report = JSON.parse(json.stdout) as TranscriptReport;
          const provider = report.checks.find((c) => c.name === 'provider');
          providerRules = (provider?.violations ?? []).map((v) => ruleOf(v.message));
        }
        for (const rule of verified) expect(providerRules, `${label}: stderr names ${rule}`).toContain(rule);
        expect(outcomeText(checkNames(violations, providerRules)), label).toBe(expected);
        if (out.code === 0) {
          expect(verified, `${label}: exit 0 prints an accepted request`).toEqual([]);
          // Reader warnings (skipped or malformed records) may remain; no check fails.
          expect(
            violations.filter((m) => m[5] === 'error').map((m) => m[0]),
            label,
          ).toEqual([]);
        }

        // No raw PII in what is printed, and no content on stderr.
        expect(
          findPii(out.stdout, builtinDetectors(), []).map((m) => m.type),
          label,
        ).toEqual([]);
        expect(
          findPii(out.stderr, builtinDetectors(), []).map((m) => m.type),
          label,
        ).toEqual([]);
        for (const value of values) expect(out.stderr.includes(value), label).toBe(false);
      }
    },
  );

  it.each(awaitingReader)(
    '%s: --emit openai|anthropic refuses it with exit 2, quoting nothing',
    async (file) => {
      const entry = awaitingEntry(file);
      const { code, line, column } = entry?.diagnostic ?? {};
      for (const target of TARGETS) {
        const out = await cli(['stabilize', '--emit', target, file], CORPUS);
        expect(out.code).toBe(2);
        expect(out.stdout).toBe('');
        expect(out.stderr).toMatch(
          new RegExp(`^${escape(file)}:${line}:${column}: error\\[${code}\\]: `, 'm'),
        );
        for (const canary of entry?.canaries ?? []) expect(out.stdout + out.stderr).not.toContain(canary);
      }
    },
  );
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Failing checks as named on stderr (in order of appearance), with the provider rules found. */
function checkNames(violations: readonly RegExpExecArray[], providerRules: readonly string[]) {
  const names = [...new Set(violations.filter((m) => m[5] === 'error').map((m) => m[4] as string))];
  return names.map((name) => (name === 'provider' ? { name, rules: providerRules } : { name }));
}

describe('emitted requests over generated sessions, in-process', () => {
  const corpus = generateCorpus({ seed: 8_150_2024, count: 30 });

  it('covers every generated format, planted PII, and sessions the small budgets cut', () => {
    expect(new Set(corpus.map((e) => e.format)).size).toBe(5);
    expect(corpus.filter((e) => e.planted.length > 0).length).toBeGreaterThanOrEqual(20);
    const cut = corpus.filter((e) =>
      run(read(e.text, e.name), 2000).ledger.some((l) => l.action === 'dropped' && l.reason === 'budget'),
    );
    expect(cut.length).toBeGreaterThanOrEqual(20);
  });

  it.each(corpus.map((e) => [e.name, e] as const))(
    '%s: a refused request fails the provider check at every budget, planted PII never emitted',
    (_name, entry) => {
      const transcript = read(entry.text, entry.name);
      for (const budget of BUDGETS) {
        const parsed = policies.get(budget) as ParsedPolicy;
        const result = run(transcript, budget);
        for (const target of TARGETS) {
          const checks = validateResult(transcript, result, {
            policy: parsed.policy,
            tokenizer,
            rules: parsed.rules,
            emit: target,
          });
          const emitted = body(result, target);
          expectInvariant(verifiedRules(target, emitted), checks, `${target} at budget ${budget}`);
          const printed = JSON.stringify(emitted);
          for (const planted of entry.planted) {
            expect(
              printed.includes(JSON.stringify(planted.value).slice(1, -1)),
              `${planted.type} in ${planted.id} (${target}, budget ${budget})`,
            ).toBe(false);
          }
        }
      }
    },
  );
});
