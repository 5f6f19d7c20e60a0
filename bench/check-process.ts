// The process section of `npm run bench` (issue 16): the built CLI's `check --ci` measured as a
// whole process, as a user runs it, against a tokenizer-only process over the same files
// (bench/tokenizer-pass.mjs), plus cold start, sharding, --jobs, peak RSS at several corpus sizes
// and trimMessages with LangChain's plain token counter. Everything runs with .bench as the
// working directory (transcript paths are cwd-relative, and check refuses inputs that lead
// outside it, symbolic links included); what the section writes is under .bench/process.
// Goldens are written first by an untimed `update`, so every timed check compares unchanged
// goldens, the common CI case. Needs `npm run build` (the CLI runs from build/).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlainCounterSize } from './langchain-plain.js';
import {
  coldTranscript,
  copyRecordings,
  generate,
  sizeOf,
  tokenizerPassEntry,
  tsx,
} from './process-inputs.js';
import { cleanupProbe, detectProbe, timeProcesses } from './process-run.js';
import type { Command, Probe, ProcessTiming } from './process-run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(ROOT, '.bench');
const CLI = path.join(ROOT, 'bin', 'context-stability.js');
/** The largest budget a policy accepts (src/core/policy/schema.ts): nothing is dropped for room. */
export const KEEP_ALL_BUDGET = 10_000_000;
/** Issue 32's budget for the check ÷ tokenizer pass row. */
export const SMALL_BUDGET = 2000;
/**
 * Budget 2,000 without three features that read every text (issue 32): the stable cut's grid
 * (positions of every artifact in masked tokens), numbered PII aliases (every text masked in order
 * first) and the retention replay (up to 24 stabilizations of the history). Fill by fit and dedup
 * still look at every older unit when room is left.
 */
const LEAN_POLICY = [
  'version: 1',
  `budget: ${SMALL_BUDGET}`,
  'stable_prefix:',
  '  enabled: false',
  'pii:',
  "  replacement: '[REDACTED_{TYPE}]'",
  'checks:',
  '  retention: off',
  '',
].join('\n');
/** The corpus sizes the peak-RSS rows name; 20 MB is the main corpus. */
export const RSS_SIZES = [20, 120, 600] as const;
export const PLAIN_COUNTER_MESSAGES = [94, 300] as const;

export interface ProcessOptions {
  runs: number;
  /** Warm-up rounds of the small groups (real recordings, cold start): at least 1. */
  warmup: number;
  /**
   * Warm-up rounds of the 20 MB group. Each run is a fresh process (no JIT state carries over)
   * and the untimed `update` before it has read every input, so 0 by default.
   */
  processWarmup: number;
  seed: number;
  /** Corpus sizes (MB) whose peak RSS is measured; other than 20, each is generated. */
  rssSizes: number[];
  /** Folder of real recordings (../shared/corpus); its rows are skipped when it is absent. */
  realCorpus: string;
}

export interface CorpusInfo {
  files: number;
  bytes: number;
  /** The tokenizer pass's tally of the last run. */
  tally: string;
}

export interface RssRow {
  mb: number;
  /** Why it was not measured. */
  skipped?: string;
  bytes?: number;
  files?: number;
  /** check --ci with the default --jobs; with --jobs 1 (20 MB only). */
  peakRssMb?: number;
  jobs1PeakRssMb?: number;
  seconds?: number;
  summary?: string;
}

export interface ProcessResults {
  /** Why the whole section did not run (no build). */
  skipped?: string;
  probe?: Probe;
  jobsSupported?: boolean;
  /** The tokenizer pass ran bundled, as the CLI does (process-inputs.ts). */
  tokenizerPassBundled?: boolean;
  cores?: number;
  keepAllBudget?: number;
  main?: CorpusInfo & { timings: Record<string, ProcessTiming> };
  real?: (CorpusInfo & { timings: Record<string, ProcessTiming> }) | { skipped: string };
  cold?: { bytes: number; timings: Record<string, ProcessTiming> };
  rss?: RssRow[];
  plain?: PlainCounterSize[];
}

const STARTED = performance.now();

function log(message: string): void {
  const elapsed = ((performance.now() - STARTED) / 1000).toFixed(0);
  process.stderr.write(`  [${elapsed} s] ${message}\n`);
}

/** The summary line of a check that compared every transcript with an unchanged golden. */
const UNCHANGED = /\b0 drifted, 0 new, 0 errors\b/;

function cli(args: readonly string[]): Command {
  return { argv: [CLI, ...args], cwd: BENCH };
}

/** Writes the goldens the timed checks compare with (untimed; a fresh folder each time). */
async function update(
  inputs: readonly string[],
  goldenDir: string,
  extra: readonly string[] = [],
): Promise<void> {
  await rm(path.join(BENCH, goldenDir), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [CLI, 'update', ...inputs, '--golden-dir', goldenDir, ...extra], {
    cwd: BENCH,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  // 1: some transcripts have violations; their goldens are written all the same.
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(
      `update ${inputs.join(' ')} failed (exit ${r.status ?? r.signal}):\n${r.stderr.slice(-2000)}`,
    );
  }
}

function summary(t: ProcessTiming | undefined): string {
  return t ? `${t.lastLine} (exit ${t.exitCodes.join('/')})` : '';
}

export async function processSection(opts: ProcessOptions): Promise<ProcessResults> {
  // The tokenizer pass imports tsc's output; the CLI runs its bundle or tsc's output.
  const help = spawnSync(process.execPath, [CLI, 'check', '--help'], { encoding: 'utf8' });
  if (!existsSync(path.join(ROOT, 'build', 'io', 'load-transcript.js')) || help.status !== 0) {
    return { skipped: 'no working build/: run `npm run build` first' };
  }
  const jobsSupported = help.stdout.includes('--jobs');
  const jobs1 = jobsSupported ? ['--jobs', '1'] : [];
  const probe = detectProbe();
  const timing = { runs: opts.runs, warmup: opts.warmup, probe, log };
  const work = path.join(BENCH, 'process');
  await mkdir(path.join(work, 'cold'), { recursive: true });
  const pass = await tokenizerPassEntry();
  const TOKENIZER_PASS = pass.script;
  const out: ProcessResults = {
    probe,
    jobsSupported,
    tokenizerPassBundled: pass.bundled,
    cores: os.availableParallelism(),
    keepAllBudget: KEEP_ALL_BUDGET,
  };
  log(
    `probe: ${probe}; check --jobs ${jobsSupported ? 'supported' : 'not supported (rows n/a)'}; ` +
      `tokenizer pass ${pass.bundled ? 'bundled like the CLI' : 'over build/'}`,
  );

  try {
    // Main corpus (written by run.ts), budget 8000 (built-in policy) and keep-all.
    const corpus = ['corpus', '!corpus/manifest.json'];
    await writeFile(path.join(work, 'keep-all.yml'), `version: 1\nbudget: ${KEEP_ALL_BUDGET}\n`);
    log('writing goldens of the 20 MB corpus (untimed)…');
    await update(corpus, 'process/golden/corpus');
    await update(corpus, 'process/golden/keep-all', ['--policy', 'process/keep-all.yml']);
    // Issue 32's row: budget 2,000. And the same without the three features that make check read
    // every text whatever the budget (docs in bench/README.md, P1b): what they cost.
    await writeFile(path.join(work, 'budget-2000.yml'), `version: 1\nbudget: ${SMALL_BUDGET}\n`);
    await writeFile(path.join(work, 'lean-2000.yml'), LEAN_POLICY);
    await update(corpus, 'process/golden/budget-2000', ['--policy', 'process/budget-2000.yml']);
    await update(corpus, 'process/golden/lean-2000', ['--policy', 'process/lean-2000.yml']);
    const withPolicy = (name: string): Command =>
      cli([
        'check',
        '--ci',
        ...corpus,
        '--golden-dir',
        `process/golden/${name}`,
        '--policy',
        `process/${name}.yml`,
        ...jobs1,
      ]);
    const check = (extra: readonly string[]): Command =>
      cli(['check', '--ci', ...corpus, '--golden-dir', 'process/golden/corpus', ...extra]);
    const main: Record<string, Command[]> = {
      tokenizer: [{ argv: [TOKENIZER_PASS, ...corpus], cwd: BENCH }],
      check: [check(jobs1)],
      ...(jobsSupported ? { checkDefault: [check([])] } : {}),
      keepAll: [
        cli([
          'check',
          '--ci',
          ...corpus,
          '--golden-dir',
          'process/golden/keep-all',
          '--policy',
          'process/keep-all.yml',
          ...jobs1,
        ]),
      ],
      small: [withPolicy('budget-2000')],
      lean: [withPolicy('lean-2000')],
      shards: [check(['--shard', '1/2', ...jobs1]), check(['--shard', '2/2', ...jobs1])],
    };
    log(`timing the 20 MB corpus as processes (${opts.processWarmup} warm-up, ${opts.runs} runs)…`);
    const mainTimings = await timeProcesses(main, { ...timing, warmup: opts.processWarmup });
    const mainSize = await sizeOf(path.join(BENCH, 'corpus'), (n) => n === 'manifest.json');
    out.main = { ...mainSize, tally: mainTimings['tokenizer']?.lastLine ?? '', timings: mainTimings };

    // The real recordings.
    if (existsSync(opts.realCorpus)) {
      await copyRecordings(opts.realCorpus, path.join(work, 'real-corpus'));
      await update(['process/real-corpus'], 'process/golden/real');
      // The same check without the retention replay (issue 28): what the default bound costs.
      await writeFile(path.join(work, 'no-retention.yml'), 'version: 1\nchecks:\n  retention: off\n');
      const noRetention = ['--policy', 'process/no-retention.yml'];
      await update(['process/real-corpus'], 'process/golden/real-no-retention', noRetention);
      log(`timing the real recordings (${path.relative(ROOT, opts.realCorpus)})…`);
      const realCheck = (golden: string, extra: readonly string[]): Command =>
        cli(['check', '--ci', 'process/real-corpus', '--golden-dir', golden, ...extra, ...jobs1]);
      const real = await timeProcesses(
        {
          tokenizer: [{ argv: [TOKENIZER_PASS, 'process/real-corpus'], cwd: BENCH }],
          check: [realCheck('process/golden/real', [])],
          checkNoRetention: [realCheck('process/golden/real-no-retention', noRetention)],
        },
        { ...timing, runs: Math.max(opts.runs, 5), warmup: Math.max(opts.warmup, 1) },
      );
      const size = await sizeOf(path.join(work, 'real-corpus'));
      out.real = { ...size, tally: real['tokenizer']?.lastLine ?? '', timings: real };
    } else {
      log(`${opts.realCorpus} is absent: the real-corpus row is skipped.`);
      out.real = { skipped: `${path.relative(ROOT, opts.realCorpus)} absent` };
    }

    // Cold start: one small transcript, against a process that only loads the o200k table.
    const text = coldTranscript();
    await writeFile(path.join(work, 'cold', 'session.jsonl'), text);
    await update(['process/cold/session.jsonl'], 'process/golden/cold');
    const cold = (extra: readonly string[]): Command =>
      cli(['check', '--ci', 'process/cold/session.jsonl', '--golden-dir', 'process/golden/cold', ...extra]);
    log('timing cold start…');
    const coldCommands: Record<string, Command[]> = {
      floor: [
        {
          argv: ['--input-type=module', '-e', "await import('gpt-tokenizer/encoding/o200k_base')"],
          cwd: BENCH,
        },
      ],
      check: [cold(jobs1)],
      ...(jobsSupported ? { checkDefault: [cold([])] } : {}),
    };
    const coldTimings = await timeProcesses(coldCommands, {
      ...timing,
      runs: Math.max(opts.runs, 5),
      warmup: Math.max(opts.warmup, 1),
    });
    out.cold = { bytes: Buffer.byteLength(text), timings: coldTimings };

    out.rss = await rssRows(opts, mainTimings, probe);
    out.plain = await plainCounter(opts);
  } finally {
    cleanupProbe();
    await rm(path.join(BENCH, '.eval.mjs'), { force: true });
  }
  return out;
}

async function rssRows(
  opts: ProcessOptions,
  main: Record<string, ProcessTiming>,
  probe: Probe,
): Promise<RssRow[]> {
  const rows: RssRow[] = [];
  const sizes = [...new Set([...RSS_SIZES, ...opts.rssSizes])].sort((a, b) => a - b);
  for (const mb of sizes) {
    if (mb === 20) {
      const def = main['checkDefault'] ?? main['check'];
      rows.push({
        mb,
        peakRssMb: def?.peakRssMb ?? 0,
        jobs1PeakRssMb: main['check']?.peakRssMb ?? 0,
        summary: summary(def),
      });
      continue;
    }
    if (!opts.rssSizes.includes(mb)) {
      rows.push({
        mb,
        skipped: `not run (add --rss-sizes ${[...opts.rssSizes, mb].sort((a, b) => a - b).join(',')})`,
      });
      continue;
    }
    const rel = `process/rss-${mb}`;
    log(`peak RSS over ${mb} MB: corpus, goldens (untimed), then one check --ci…`);
    const reused = await generate(rel, { seed: opts.seed, count: mb * 5, mb });
    const inputs = [rel, `!${rel}/manifest.json`];
    const goldenDir = `process/golden/rss-${mb}`;
    // One run, default --jobs (what a user runs; each worker thread holds its own tables).
    const once = (): Promise<Record<'check', ProcessTiming>> =>
      timeProcesses(
        { check: [cli(['check', '--ci', ...inputs, '--golden-dir', goldenDir])] },
        { runs: 1, warmup: 0, probe, log },
      );
    let t: Record<'check', ProcessTiming> | undefined;
    // The goldens of the last run, when the corpus is the same, save an update of minutes; they
    // count only if the check found every one of them unchanged.
    if (reused && existsSync(path.join(BENCH, goldenDir))) {
      t = await once();
      if (!UNCHANGED.test(t.check.lastLine)) {
        log(`the goldens of the last run are stale (${t.check.lastLine}): rewriting them`);
        t = undefined;
      }
    }
    if (!t) {
      await update(inputs, goldenDir);
      t = await once();
    }
    const size = await sizeOf(path.join(BENCH, rel), (n) => n === 'manifest.json');
    const c = t['check'];
    rows.push({
      mb,
      ...size,
      peakRssMb: c?.peakRssMb ?? 0,
      seconds: (c?.medianMs ?? 0) / 1000,
      summary: summary(c),
    });
  }
  return rows;
}

async function plainCounter(opts: ProcessOptions): Promise<PlainCounterSize[]> {
  const dirs: string[] = [];
  for (const messages of PLAIN_COUNTER_MESSAGES) {
    const rel = `process/lc-${messages}`;
    // A few transcripts of each length; the plain counter costs seconds per 300-message transcript.
    await generate(rel, { seed: opts.seed, count: messages > 100 ? 2 : 3, messages });
    dirs.push(path.join(BENCH, rel));
  }
  log('timing trimMessages with the plain counter (in-process)…');
  const file = path.join(BENCH, 'process', 'plain-counter.json');
  tsx('bench/langchain-plain.ts', [
    `--dirs=${dirs.join(',')}`,
    `--out=${file}`,
    `--runs=${opts.runs}`,
    `--warmup=${opts.warmup}`,
  ]);
  return JSON.parse(await readFile(file, 'utf8')) as PlainCounterSize[];
}
