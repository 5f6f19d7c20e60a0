// The import and first-call rows: fresh `node` children (bench/adapter-cost/child.mjs) over the
// BUILT package, interleaved (each round runs every child once, starting from a different one), the
// median of each figure over the rounds. Beside them: a child that imports nothing (node start-up)
// and one that imports only the o200k table (the floor of any first call).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { median } from '../timing.js';
import { ADAPTERS } from './names.js';
import type { AdapterName } from './names.js';
import { childHistory } from './shapes.js';
import type { Histories } from './shapes.js';

/** Adapters whose framework the child can load first (the others have none). */
const WITH_FRAMEWORK: ReadonlySet<AdapterName> = new Set(['ai-sdk', 'langchain', 'openai-agents']);

export interface ChildFigures {
  /** Wall time of the whole child, spawn to exit. */
  processMs: number;
  importMs?: number;
  importCpuMs?: number;
  coreMs?: number;
  subpathMs?: number;
  frameworkMs?: number;
  firstCallMs?: number;
  firstCallCpuMs?: number;
}

export interface ImportRow {
  adapter: AdapterName;
  runs: number;
  /** Nothing loaded before: the adapter's import brings its framework when it imports one. */
  cold: ChildFigures;
  /** The framework imported first (untimed apart: `frameworkMs`), as in an app that uses it. */
  preloaded?: ChildFigures;
}

export interface ImportResults {
  runs: number;
  /** A child that imports nothing: node start-up and exit. */
  baseline: ChildFigures;
  /** A child that imports only gpt-tokenizer's o200k table. */
  tokenizer: ChildFigures;
  rows: ImportRow[];
}

interface Mode {
  key: string;
  adapter: AdapterName | 'none' | 'tokenizer';
  preload: boolean;
}

function modes(): Mode[] {
  const out: Mode[] = [
    { key: 'none', adapter: 'none', preload: false },
    { key: 'tokenizer', adapter: 'tokenizer', preload: false },
  ];
  for (const adapter of ADAPTERS) {
    out.push({ key: `${adapter}:cold`, adapter, preload: false });
    if (WITH_FRAMEWORK.has(adapter)) out.push({ key: `${adapter}:preloaded`, adapter, preload: true });
  }
  return out;
}

function runChild(root: string, mode: Mode, history: string): Record<string, number> {
  const args = ['bench/adapter-cost/child.mjs', `--adapter=${mode.adapter}`, `--history=${history}`];
  if (mode.preload) args.push('--preload');
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const processMs = performance.now() - t;
  if (r.status !== 0)
    throw new Error(`adapter-cost child ${mode.key} failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '{}';
  return { ...(JSON.parse(line) as Record<string, number>), processMs };
}

function medians(runs: readonly Record<string, number>[]): ChildFigures {
  const keys = [
    'processMs',
    'importMs',
    'importCpuMs',
    'coreMs',
    'subpathMs',
    'frameworkMs',
    'firstCallMs',
    'firstCallCpuMs',
  ] as const;
  const out: ChildFigures = { processMs: Number.NaN };
  for (const k of keys) {
    const values = runs.map((r) => r[k]).filter((v): v is number => typeof v === 'number');
    if (values.length > 0) out[k] = median(values);
  }
  return out;
}

/** Runs every child `runs` times, interleaved; the 100-message histories go to `dir`. */
export async function importRows(
  root: string,
  dir: string,
  h100: Histories,
  runs: number,
  log: (line: string) => void,
): Promise<ImportResults> {
  for (const entry of ['build/index.js', 'build/adapters/openai-agents.js'])
    if (!existsSync(path.join(root, entry)))
      throw new Error(`${entry} is missing: the import rows need the build (npm run build).`);
  await mkdir(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const adapter of ADAPTERS) {
    const file = path.join(dir, `history-100-${adapter}.json`);
    await writeFile(file, JSON.stringify(childHistory(h100, adapter, 100)));
    files.set(adapter, file);
  }
  const all = modes();
  const got = new Map<string, Record<string, number>[]>(all.map((m) => [m.key, []]));
  // One untimed round first: the page cache then holds every module file.
  for (let round = -1; round < runs; round++) {
    if (round >= 0) log(`  import and first call: round ${round + 1} of ${runs}…`);
    for (let i = 0; i < all.length; i++) {
      const mode = all[(Math.max(round, 0) + i) % all.length]!;
      const figures = runChild(root, mode, files.get(mode.adapter) ?? files.get('stabilizer')!);
      if (round >= 0) got.get(mode.key)!.push(figures);
    }
  }
  const of = (key: string): ChildFigures => medians(got.get(key) ?? []);
  return {
    runs,
    baseline: of('none'),
    tokenizer: of('tokenizer'),
    rows: ADAPTERS.map((adapter) => ({
      adapter,
      runs,
      cold: of(`${adapter}:cold`),
      ...(WITH_FRAMEWORK.has(adapter) ? { preloaded: of(`${adapter}:preloaded`) } : {}),
    })),
  };
}
