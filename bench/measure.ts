// The measuring child process, started by bench/run.ts so that the generator's memory and the
// parent's bookkeeping stay out of the figures:
//   node --import tsx bench/measure.ts --mode speed   --corpus DIR --scale DIR,DIR --out FILE [--runs 3] [--warmup 1]
//   node --import tsx bench/measure.ts --mode memory  --corpus DIR --out FILE
//   node --import tsx bench/measure.ts --mode profile --corpus DIR --out FILE.cpuprofile [--runs 3]
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_POLICY } from '../src/core/policy/index.js';
import { loadTokenizer } from '../src/tokens/load.js';
import { profileWorkload } from './cpu-profile.js';
import { loadCorpus, loadFile, manifestFiles, totalBytes } from './corpus.js';
import type { BenchFile } from './corpus.js';
import { throughput } from './results.js';
import type { MemoryResults, Scaling, SpeedResults, Throughput } from './results.js';
import { timeInterleaved } from './timing.js';
import type { TimeOptions, Timed } from './timing.js';
import { emptyTally, fullPipeline, pipelineOne, read, tokenizerOnly } from './workloads.js';
import type { BenchEnv } from './workloads.js';

const MB = 1024 * 1024;

async function env(): Promise<BenchEnv> {
  return { policy: DEFAULT_POLICY, tokenizer: await loadTokenizer(DEFAULT_POLICY.tokenizer) };
}

function log(message: string): void {
  process.stderr.write(`  ${message}\n`);
}

function report(label: string, bytes: number, timed: Timed): Throughput {
  const t = throughput(bytes, timed.timing, timed.sink as Record<string, unknown>);
  const runs = timed.timing.runsMs.map((ms) => ms.toFixed(0)).join(', ');
  log(`${label}: ${t.mbps.toFixed(2)} MB/s (runs ${runs} ms; CPU ${t.cpuMbps.toFixed(2)} MB/s)`);
  return t;
}

async function speed(corpusDir: string, scaleDirs: string[], opts: TimeOptions): Promise<SpeedResults> {
  const e = await env();
  const files = await loadCorpus(corpusDir);
  const bytes = totalBytes(files);
  const formats: Record<string, number> = {};
  for (const f of files) formats[f.format] = (formats[f.format] ?? 0) + 1;
  const overhead = e.policy.message_overhead;
  // Loaded here only: LangChain must not weigh on the memory measurement.
  const lc = await import('./langchain.js');
  const conversations = files.map((f) => read(f)).map((t) => (t ? lc.toLangChainMessages(t) : []));

  const timed = await timeInterleaved(
    {
      fullFresh: () => fullPipeline(files, e, 'fresh'),
      fullShared: () => fullPipeline(files, e, 'shared'),
      tokenizerOnly: () => tokenizerOnly(files, e),
      langchain: () => lc.langchainTrim(files, e.tokenizer, overhead),
      langchainTrimOnly: () => lc.langchainTrimOnly(conversations, e.tokenizer, overhead),
    },
    opts,
  );

  const scaleFiles: { dir: string; file: BenchFile; messages: number }[] = [];
  for (const dir of scaleDirs) {
    const [file] = await loadCorpus(dir);
    if (!file) throw new Error(`${dir}: the scaling corpus is empty.`);
    scaleFiles.push({ dir, file, messages: read(file)?.artifacts.length ?? 0 });
  }
  const scaleTimed = await timeInterleaved(
    Object.fromEntries(scaleFiles.map((s, i) => [String(i), () => fullPipeline([s.file], e, 'fresh')])),
    opts,
  );
  const scaling: Scaling[] = scaleFiles.map(({ dir, file, messages }, i) => {
    const { timing } = scaleTimed[String(i)] as Timed;
    const per = (ms: number): number => (ms * 1000) / Math.max(1, messages);
    log(`d. ${messages} messages: ${per(timing.medianMs).toFixed(1)} µs/message`);
    return {
      file: `${path.basename(dir)}/${file.name}`,
      messages,
      bytes: file.bytes,
      timing,
      usPerMessage: per(timing.medianMs),
      cpuUsPerMessage: per(timing.cpuMedianMs),
    };
  });

  const fullFresh = report('a. full pipeline, fresh cache', bytes, timed.fullFresh);
  return {
    corpus: {
      files: files.length,
      bytes,
      artifacts: Number((fullFresh.tally as { artifacts?: number }).artifacts ?? 0),
      formats,
    },
    runs: opts.runs,
    warmup: opts.warmup,
    fullFresh,
    fullShared: report('a. full pipeline, shared cache', bytes, timed.fullShared),
    tokenizerOnly: report('b. tokenizer only', bytes, timed.tokenizerOnly),
    langchain: report('c. LangChain read+convert+trim', bytes, timed.langchain),
    langchainTrimOnly: report("c'. LangChain trim only", bytes, timed.langchainTrimOnly),
    langchainOptions: { ...lc.TRIM_OPTIONS, tokenCounter: 'o200k_base + message_overhead, memoized' },
    scaling,
  };
}

/** One CI-like pass: each file read from disk, stabilized, validated and let go. */
async function memory(corpusDir: string): Promise<MemoryResults> {
  const e = await env();
  const entries = await manifestFiles(corpusDir);
  const baseline = process.memoryUsage().rss;
  let sampled = baseline;
  let heap = process.memoryUsage().heapUsed;
  let bytes = 0;
  const tally = emptyTally();
  for (const entry of entries) {
    const file: BenchFile = await loadFile(corpusDir, entry);
    bytes += file.bytes;
    pipelineOne(file, e, new Map(), tally);
    const usage = process.memoryUsage();
    sampled = Math.max(sampled, usage.rss);
    heap = Math.max(heap, usage.heapUsed);
  }
  log(`e. ${tally.transcripts} transcripts, ${tally.unreadable} unreadable`);
  return {
    files: entries.length,
    bytes,
    baselineRssMb: baseline / MB,
    // maxRSS is in kilobytes.
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    sampledPeakRssMb: sampled / MB,
    peakHeapUsedMb: heap / MB,
  };
}

/** The full pipeline (fresh cache), `runs` passes over the corpus, under the profiler. */
async function profile(corpusDir: string, runs: number): Promise<unknown> {
  const e = await env();
  const files = await loadCorpus(corpusDir);
  // One untimed pass first, so the profile shows optimized code, not the JIT warming up.
  fullPipeline(files, e, 'fresh');
  return profileWorkload(() => {
    for (let i = 0; i < runs; i++) {
      clearMergeCache();
      fullPipeline(files, e, 'fresh');
    }
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string' },
      corpus: { type: 'string' },
      scale: { type: 'string' },
      out: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
    },
    strict: true,
  });
  if (!values.corpus) throw new Error('measure: --corpus is required.');
  const runs = Number(values.runs ?? '3');
  const warmup = Number(values.warmup ?? '1');
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) {
    throw new Error('measure: --runs must be a positive integer and --warmup a non-negative one.');
  }
  // Every run starts with an empty tokenizer merge cache, as a fresh CI process would.
  const opts: TimeOptions = { runs, warmup, reset: clearMergeCache };

  let result: unknown;
  if (values.mode === 'speed') {
    result = await speed(values.corpus, values.scale ? values.scale.split(',') : [], opts);
  } else if (values.mode === 'memory') {
    result = await memory(values.corpus);
  } else if (values.mode === 'profile') {
    result = await profile(values.corpus, runs);
  } else {
    throw new Error('measure: --mode must be speed, memory or profile.');
  }
  if (!values.out) throw new Error('measure: --out is required.');
  await writeFile(values.out, `${JSON.stringify(result, null, values.mode === 'profile' ? undefined : 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
