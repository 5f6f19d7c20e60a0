// `npm run bench:adapters` (and a section of `npm run bench`): what a model call costs through each
// adapter (issue 29) — the stabilizer itself, request-body (OpenAI chat body), ai-sdk (the
// middleware's transformParams on a LanguageModelV3 prompt), langchain (stabilizeLangChainMessages on
// real message objects) and openai-agents (the callModelInputFilter called as the SDK calls it).
//   - import and first call: fresh `node` children over the built package (adapter-cost/imports.ts);
//   - warm call: in this process over src/, one session per adapter and size (adapter-cost/warm.ts).
// Goals: import ≤ 250 ms, first call ≤ 150 ms after import, warm call ≤ 10 ms at 1,000 messages.
//   tsx bench/adapter-cost.ts [--seed 42] [--sizes 100,1000,10000] [--runs 3] [--skip-import]
//       [--profile ADAPTER[,ADAPTER…]] [--profile-calls 40] [--out FILE.json]
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../src/tokens/load.js';
import { profileWorkload } from './cpu-profile.js';
import { summarizeProfile } from './profile.js';
import type { HotSpot } from './profile.js';
import { importRows } from './adapter-cost/imports.js';
import { adapterCostTable, childTable, profileTables } from './adapter-cost/report.js';
import type { AdapterCostResults, AdapterProfile } from './adapter-cost/report.js';
import { histories, session } from './adapter-cost/shapes.js';
import type { Histories } from './adapter-cost/shapes.js';
import { WARM_ROWS } from './adapter-cost/names.js';
import type { WarmName } from './adapter-cost/names.js';
import { profiledCalls, warmRow } from './adapter-cost/warm.js';
import type { WarmRow } from './adapter-cost/warm.js';

export { adapterCostTable, childTable } from './adapter-cost/report.js';
export type { AdapterCostResults } from './adapter-cost/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, '.bench');

const USAGE = `Usage: tsx bench/adapter-cost.ts [--seed N] [--sizes 100,1000,10000] [--runs N] [--skip-import]
    [--profile ADAPTER[,ADAPTER…]] [--profile-calls N] [--out FILE.json]

  --seed N          session seed (default 42, the seed of bench/agent-loop.ts)
  --sizes N,N       history sizes of the warm rows (default 100,1000,10000)
  --runs N          rounds of the import / first-call children (default 3; median)
  --skip-import     leave out the import and first-call rows (they need npm run build)
  --profile A,B     also profile the warm calls at 1,000 messages through these adapters
                    (${WARM_ROWS.join(', ')}, or all): .bench/profile/adapter-A.cpuprofile and the hot spots
  --profile-calls N warm calls profiled (default 40)
  --out FILE        write the results as JSON and print nothing (bench/run.ts prints the table)`;

const log = (line: string): void => console.error(line);

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be an integer ≥ 1.`);
  return n;
}

function adapterList(value: string | undefined): WarmName[] {
  if (value === undefined) return [];
  if (value === 'all') return [...WARM_ROWS];
  return value.split(',').map((v) => {
    const name = WARM_ROWS.find((w) => w === v.trim());
    if (!name) throw new Error(`--profile: unknown adapter ${v.trim()} (${WARM_ROWS.join(', ')})`);
    return name;
  });
}

/** The session of each size, converted once into every framework's shapes. */
function historiesOf(seed: number): (n: number) => Histories {
  const made = new Map<number, Histories>();
  return (n) => {
    let h = made.get(n);
    if (!h) {
      h = histories(session(seed, n));
      made.set(n, h);
    }
    return h;
  };
}

async function warmRows(
  seed: number,
  sizes: readonly number[],
  of: (n: number) => Histories,
): Promise<WarmRow[]> {
  // JIT warm-up: a short session through every adapter, so the first adapter timed is not the one
  // that compiles the shared code. Another seed's session: the texts timed are not in the
  // tokenizer's cache yet.
  const other = histories(session(seed + 1, 100));
  for (const adapter of WARM_ROWS) await warmRow(adapter, other, seed + 1, 100, 10);
  const rows: WarmRow[] = [];
  for (const n of sizes) {
    for (const adapter of WARM_ROWS) {
      log(`  warm calls: ${adapter} at ${n.toLocaleString('en-US')} messages…`);
      rows.push(await warmRow(adapter, of(n), seed, n));
    }
  }
  return rows;
}

/** Self time by folder (src/adapters, src/api, src/core/<x>, a package, a V8 category), largest first. */
function areasOf(files: readonly HotSpot[]): HotSpot[] {
  const areas = new Map<string, HotSpot>();
  for (const f of files) {
    const parts = f.name.split('/');
    const name =
      parts[0] === 'src'
        ? parts.slice(0, parts[1] === 'core' ? 3 : 2).join('/')
        : parts.slice(0, 2).join('/');
    const a = areas.get(name) ?? { name, where: '', pct: 0, ms: 0 };
    a.pct += f.pct;
    a.ms += f.ms;
    areas.set(name, a);
  }
  return [...areas.values()].sort((a, b) => b.ms - a.ms);
}

async function profileAdapter(
  adapter: WarmName,
  h: Histories,
  seed: number,
  calls: number,
): Promise<AdapterProfile> {
  const n = 1000;
  const { prepare, run } = profiledCalls(adapter, h, seed, n, calls);
  await prepare();
  const profile = await profileWorkload(run);
  const dir = path.join(OUT, 'profile');
  await mkdir(dir, { recursive: true });
  // Open it in Chrome DevTools (Performance → Load profile) for the call tree.
  const file = path.join(dir, `adapter-${adapter}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  const cpu = profile as Parameters<typeof summarizeProfile>[0];
  const summary = summarizeProfile(cpu, ROOT, 10);
  return {
    adapter,
    messages: n,
    calls,
    file: path.relative(ROOT, file),
    totalMs: summary.totalMs,
    self: summary.self,
    total: summary.total,
    areas: areasOf(summarizeProfile(cpu, ROOT, Number.MAX_SAFE_INTEGER).files),
  };
}

export async function adapterCost(o: {
  seed: number;
  sizes: readonly number[];
  runs: number;
  skipImport: boolean;
  profile: readonly WarmName[];
  profileCalls: number;
}): Promise<AdapterCostResults> {
  const loadavg = os.loadavg()[0] ?? 0;
  const of = historiesOf(o.seed);
  let imports: AdapterCostResults['imports'];
  if (!o.skipImport) {
    log('Adapter cost: import and first call in fresh node children (built package)…');
    try {
      imports = await importRows(ROOT, path.join(OUT, 'adapter-cost'), of(100), o.runs, log);
    } catch (e) {
      log(`  skipped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  log('Adapter cost: warm calls in this process (src/)…');
  const t = performance.now();
  await loadTokenizer('o200k_base');
  const tokenizerLoadMs = performance.now() - t;
  const warm = await warmRows(o.seed, o.sizes, of);
  const profiles: AdapterProfile[] = [];
  for (const adapter of o.profile) {
    log(`Adapter cost: profiling ${o.profileCalls} warm calls through ${adapter} at 1,000 messages…`);
    profiles.push(await profileAdapter(adapter, of(1000), o.seed, o.profileCalls));
  }
  return {
    seed: o.seed,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: os.cpus().length,
    loadavg,
    tokenizerLoadMs,
    sizes: [...o.sizes],
    ...(imports ? { imports } : {}),
    warm,
    ...(profiles.length > 0 ? { profiles } : {}),
  };
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      sizes: { type: 'string' },
      runs: { type: 'string' },
      'skip-import': { type: 'boolean' },
      profile: { type: 'string' },
      'profile-calls': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = Number(values.seed ?? '42');
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer.');
  const sizes = (values.sizes ?? '100,1000,10000').split(',').map((v) => positiveInt('sizes', v.trim(), 0));
  const results = await adapterCost({
    seed,
    sizes,
    runs: positiveInt('runs', values.runs, 3),
    skipImport: values['skip-import'] === true,
    profile: adapterList(values.profile),
    profileCalls: positiveInt('profile-calls', values['profile-calls'], 40),
  });
  // With --out (bench/run.ts), the results go to a file and the table is printed by the caller.
  if (values.out) await writeFile(values.out, `${JSON.stringify(results, null, 2)}\n`);
  else {
    console.log(adapterCostTable(results));
    if (results.imports) console.log(`\nThe children, medians (ms):\n\n${childTable(results.imports)}`);
  }
  for (const p of results.profiles ?? []) console.log(`\n${profileTables(p)}`);
  log(`bench:adapters: done in ${(performance.now() / 1000).toFixed(0)} s.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  cli().catch((err: unknown) => {
    console.error(`bench:adapters: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(1);
  });
}
