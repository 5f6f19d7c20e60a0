// `npm run bench [-- options]`: the speed and memory benchmark (issue 3). Generates a seeded
// corpus under .bench/, measures in child processes (bench/measure.ts) so the generator's memory
// does not count, prints a markdown table and writes .bench/results.json. Informational: it never
// fails because a goal is missed, only when a step cannot run.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hotSpotTable, readProfile, summarizeProfile } from './profile.js';
import type { ProfileSummary } from './profile.js';
import { corpusLine, markdownTable, rows, sanityLine } from './report.js';
import type { MemoryResults, SpeedResults } from './results.js';
import { capsTable } from './caps.js';
import type { CapsRow } from './caps.js';
import { worstCaseTable } from './worst-case.js';
import type { WorstCaseRow } from './worst-case.js';
import { processSection } from './check-process.js';
import type { ProcessResults } from './check-process.js';
import { processRows, processSanity } from './process-report.js';
import { agentLoopTable } from './agent-loop.js';
import type { AgentLoopResults } from './agent-loop.js';
import { cachePrefixTable } from './cache-prefix.js';
import type { CachePrefixRow } from './cache-prefix.js';
import { decisionsSection } from './decisions.js';
import type { DecisionsResults } from './decisions/report.js';
import { adapterCostTable, childTable } from './adapter-cost/report.js';
import type { ViewerPageRow } from './viewer-page.js';
import type { AdapterCostResults } from './adapter-cost/report.js';

const USAGE = `Usage: npm run bench -- [--seed N] [--count N] [--mb N] [--scale N,N] [--runs N] [--warmup N] [--profile]
    [--skip-process | --only-process] [--process-warmup N] [--rss-sizes 20,120,600] [--real-corpus DIR]
    [--skip-agent] [--agent-sizes 100,1000,10000] [--skip-decisions] [--decision-budgets 3000,6000]
    [--skip-adapters] [--adapter-sizes 100,1000,10000]

  --seed N      corpus seed (default 42; negative as --seed=-N); same seed → same corpus
  --count N     transcripts in the corpus (default 200)
  --mb N        corpus size in MB (default 20)
  --scale N,N   message counts of the two scaling transcripts (default 1000,10000)
  --runs N      timed runs per measurement, median reported (default 3)
  --warmup N    untimed runs first (default 1)
  --profile     also profile the full pipeline (V8 sampling profiler) and print its hot spots
  --skip-process    skip the process section (the built CLI's check as a whole process)
  --only-process    only the process section (rows a, c′ and d it reuses are then not run)
  --process-warmup N untimed rounds of the 20 MB process group (default 0: each run is a fresh
                    process, and the untimed update that writes the goldens reads every input first)
  --rss-sizes N,N   corpus sizes in MB for the peak RSS of check --ci (default 20,120; 600 takes
                    minutes and ~1.2 GB of disk with its goldens)
  --real-corpus DIR real recordings for the process section (default ../shared/corpus)
  --skip-agent      skip the in-agent section (per-call cost of an agent loop and the prompt-cache
                    prefix of the bundled examples; npm run bench:agent runs it alone)
  --agent-sizes N,N history sizes of the in-agent section (default 100,1000,10000)
  --skip-decisions  skip the decisions section (the stabilizer beside a naive newest-first trim,
                    replayed call by call over --real-corpus; npm run bench:decisions runs it alone)
  --decision-budgets N,N budgets of the decisions section (default 3000,6000)
  --skip-adapters   skip the adapter section (import, first call and warm call through each adapter;
                    npm run bench:adapters runs it alone, with --profile)
  --adapter-sizes N,N history sizes of the adapter section's warm calls (default 100,1000,10000)
  --viewer-sizes N,N also the HTML viewer page of N drifted transcripts, in parts and whole
                    (bench/viewer-page.ts; e.g. 2000,3000: minutes and several GB for whole)

The process section and the adapter section's import rows need the build (npm run build).
Writes .bench/corpus, .bench/scale-N, .bench/caps, .bench/process, .bench/results.json (and .bench/profile/pipeline.cpuprofile with --profile).`;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, '.bench');

class UsageError extends Error {}

function int(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}.`);
  return n;
}

/** Runs a TypeScript entry under tsx in its own node process; throws when it fails. */
function node(script: string, args: readonly string[]): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed (exit ${r.status ?? r.signal}).`);
}

/** `{ out: 'x', seed: -1 }` → `['--out=x', '--seed=-1']` (the `=` form lets a value start with `-`). */
function flags(values: Record<string, string | number>): string[] {
  return Object.entries(values).map(([k, v]) => `--${k}=${String(v)}`);
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

async function profileRun(corpus: string, runs: number): Promise<ProfileSummary> {
  const dir = path.join(OUT, 'profile');
  await mkdir(dir, { recursive: true });
  // Open it in Chrome DevTools (Performance → Load profile) for the call tree.
  const file = path.join(dir, 'pipeline.cpuprofile');
  node('bench/measure.ts', flags({ mode: 'profile', corpus, runs, out: file }));
  return summarizeProfile(await readProfile(file), ROOT, 20);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      count: { type: 'string' },
      mb: { type: 'string' },
      scale: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      profile: { type: 'boolean' },
      'skip-process': { type: 'boolean' },
      'only-process': { type: 'boolean' },
      'rss-sizes': { type: 'string' },
      'process-warmup': { type: 'string' },
      'real-corpus': { type: 'string' },
      'skip-agent': { type: 'boolean' },
      'agent-sizes': { type: 'string' },
      'skip-decisions': { type: 'boolean' },
      'decision-budgets': { type: 'string' },
      'skip-adapters': { type: 'boolean' },
      'adapter-sizes': { type: 'string' },
      'viewer-sizes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = int('seed', values.seed, 42, Number.MIN_SAFE_INTEGER);
  const count = int('count', values.count, 200, 1);
  const mb = Number(values.mb ?? '20');
  if (!Number.isFinite(mb) || mb <= 0) throw new UsageError('--mb must be a positive number.');
  const scale = (values.scale ?? '1000,10000').split(',').map((v) => int('scale', v.trim(), 0, 1));
  const runs = int('runs', values.runs, 3, 1);
  const warmup = int('warmup', values.warmup, 1, 0);
  const rssSizes = (values['rss-sizes'] ?? '20,120').split(',').map((v) => int('rss-sizes', v.trim(), 0, 1));
  const processWarmup = int('process-warmup', values['process-warmup'], 0, 0);
  const inProcess = !values['only-process'];
  const withProcess = !values['skip-process'];
  if (
    !inProcess &&
    !withProcess &&
    values['skip-agent'] &&
    values['skip-decisions'] &&
    values['skip-adapters']
  )
    throw new UsageError('--skip-process and --only-process leave nothing to run.');

  await mkdir(OUT, { recursive: true });
  const corpus = path.join(OUT, 'corpus');
  console.error(`Generating the corpus (seed ${seed}, ${count} transcripts, ${mb} MB)…`);
  node('bench/generate-corpus.ts', flags({ out: corpus, seed, count, mb }));

  const measured = inProcess
    ? await inProcessRun(corpus, { seed, scale, runs, warmup, profile: values.profile })
    : undefined;
  let processResults: ProcessResults | undefined;
  if (withProcess) {
    console.error(`Process section: the built CLI's check as whole processes (${runs} runs)…`);
    processResults = await processSection({
      runs,
      warmup,
      processWarmup,
      seed,
      rssSizes,
      realCorpus: path.resolve(values['real-corpus'] ?? path.join(ROOT, '..', 'shared', 'corpus')),
    });
  }

  let agent: AgentLoopResults | undefined;
  let cachePrefix: CachePrefixRow[] | undefined;
  if (!values['skip-agent']) {
    console.error('In-agent section: an agent loop calling the stabilizer before every model call…');
    const agentFile = path.join(OUT, 'agent-loop.json');
    const sizes = values['agent-sizes'] ?? '100,1000,10000';
    node('bench/agent-loop.ts', flags({ seed, sizes, out: agentFile }));
    agent = await readJson<AgentLoopResults>(agentFile);
    console.error('In-agent section: prompt-cache prefix of the bundled examples, replayed call by call…');
    const prefixFile = path.join(OUT, 'cache-prefix.json');
    node('bench/cache-prefix.ts', flags({ out: prefixFile }));
    cachePrefix = await readJson<CachePrefixRow[]>(prefixFile);
  }

  let adapters: AdapterCostResults | undefined;
  if (!values['skip-adapters']) {
    console.error('Adapter section: import, first call and warm call through each adapter…');
    const adaptersFile = path.join(OUT, 'adapter-cost.json');
    const sizes = values['adapter-sizes'] ?? '100,1000,10000';
    node('bench/adapter-cost.ts', flags({ seed, sizes, out: adaptersFile }));
    adapters = await readJson<AdapterCostResults>(adaptersFile);
  }

  let decisions: DecisionsResults | undefined;
  if (!values['skip-decisions']) {
    console.error('Decisions section: the stabilizer beside a naive newest-first trim, call by call…');
    const decisionsFile = path.join(OUT, 'decisions.json');
    const corpusDir = path.resolve(values['real-corpus'] ?? path.join(ROOT, '..', 'shared', 'corpus'));
    const budgets = values['decision-budgets'] ?? '3000,6000';
    node('bench/decisions.ts', [
      ...flags({ corpus: corpusDir, budgets, seed, json: decisionsFile }),
      '--quiet',
    ]);
    decisions = await readJson<DecisionsResults>(decisionsFile);
  }

  let viewerPage: ViewerPageRow[] | undefined;
  if (values['viewer-sizes'] !== undefined) {
    const viewerFile = path.join(OUT, 'viewer-page.json');
    node('bench/viewer-page.ts', flags({ sizes: values['viewer-sizes'], out: viewerFile }));
    viewerPage = await readJson<ViewerPageRow[]>(viewerFile);
  }

  const table = measured ? rows(measured.speed, measured.memory) : undefined;
  if (measured && table) {
    const { speed, worstCase, caps, profile } = measured;
    console.log(`\n${corpusLine(speed, seed)}\n`);
    console.log(markdownTable(table));
    console.log(`\n${sanityLine(speed)}`);
    console.log(`\n${worstCaseTable(worstCase)}`);
    console.log(`\n${capsTable(caps)}`);
    if (profile) {
      console.log(
        `\nHot spots of the full pipeline (fresh cache, ${runs} passes; ${profile.totalMs.toFixed(0)} ms sampled):\n`,
      );
      console.log(`${hotSpotTable('Self time by function', profile.self)}\n`);
      console.log(`${hotSpotTable('Total time by function', profile.total)}\n`);
      console.log(hotSpotTable('Self time by file', profile.files));
    }
  }
  const processTable = processResults ? processRows(processResults, measured?.speed) : undefined;
  if (processResults && processTable) {
    console.log('\n## What a user runs: the built CLI as a whole process (issue 16)\n');
    console.log(markdownTable(processTable));
    console.log(`\n${processSanity(processResults)}`);
  }

  if (agent) {
    console.log('\n## Inside the agent: the stabilizer before every model call (issue 17)\n');
    console.log(agentLoopTable(agent));
  }
  if (cachePrefix) console.log(`\n${cachePrefixTable(cachePrefix)}`);
  if (adapters) {
    console.log('\n## Through each adapter: import, first call, warm call (issue 29)\n');
    console.log(adapterCostTable(adapters));
    if (adapters.imports) console.log(`\n${childTable(adapters.imports)}`);
  }
  if (decisions) {
    console.log('\n## Decisions: the stabilizer beside a naive newest-first trim (issue 27)\n');
    console.log(decisionsSection(decisions));
  }

  const results = {
    seed,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: os.cpus().length,
    ...(table ? { table } : {}),
    ...(measured ?? {}),
    ...(processTable ? { processTable, process: processResults } : {}),
    ...(agent ? { agent } : {}),
    ...(cachePrefix ? { cachePrefix } : {}),
    ...(adapters ? { adapters } : {}),
    ...(decisions ? { decisions } : {}),
    ...(viewerPage ? { viewerPage } : {}),
  };
  await writeFile(path.join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(ROOT, path.join(OUT, 'results.json'))}.`);
  console.error(`bench: done in ${(performance.now() / 60_000).toFixed(1)} minutes.`);
}

interface InProcess {
  speed: SpeedResults;
  memory: MemoryResults;
  worstCase: WorstCaseRow[];
  caps: CapsRow[];
  profile?: ProfileSummary;
}

/** Rows a–e, the worst case, the caps and the optional profile: the in-process measurements. */
async function inProcessRun(
  corpus: string,
  o: { seed: number; scale: number[]; runs: number; warmup: number; profile: boolean | undefined },
): Promise<InProcess> {
  const { seed, runs, warmup } = o;
  const scaleDirs: string[] = [];
  for (const messages of o.scale) {
    const dir = path.join(OUT, `scale-${messages}`);
    // Same seed, one format and one archetype: the two transcripts differ only in length.
    node(
      'bench/generate-corpus.ts',
      flags({ out: dir, seed, count: 1, messages, formats: 'native-jsonl', archetypes: 'coding' }),
    );
    scaleDirs.push(dir);
  }

  console.error(`Measuring speed (${warmup} warm-up, ${runs} timed runs each)…`);
  const speedFile = path.join(OUT, 'speed.json');
  const scaleFlag = scaleDirs.join(',');
  node('bench/measure.ts', flags({ mode: 'speed', corpus, scale: scaleFlag, runs, warmup, out: speedFile }));
  const speed = await readJson<SpeedResults>(speedFile);

  console.error('Measuring peak memory (separate process)…');
  const memFile = path.join(OUT, 'memory.json');
  node('bench/measure.ts', flags({ mode: 'memory', corpus, out: memFile }));
  const memory = await readJson<MemoryResults>(memFile);

  console.error('Timing the worst case (one 512 KB unbroken run, 64k CJK characters)…');
  const worstFile = path.join(OUT, 'worst-case.json');
  node('bench/worst-case.ts', flags({ kb: 512, cjk: 65536, out: worstFile }));
  const worstCase = await readJson<WorstCaseRow[]>(worstFile);

  console.error('Measuring peak memory at the input caps (one process per input)…');
  const capsFile = path.join(OUT, 'caps.json');
  node('bench/caps.ts', flags({ out: capsFile }));
  const caps = await readJson<CapsRow[]>(capsFile);

  let profile: ProfileSummary | undefined;
  if (o.profile) {
    console.error('Profiling the full pipeline…');
    profile = await profileRun(corpus, runs);
  }
  return { speed, memory, worstCase, caps, ...(profile ? { profile } : {}) };
}

main().catch((err: unknown) => {
  if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
    console.error(`bench: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
