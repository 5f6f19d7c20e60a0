// Peak memory at the input caps (issue 12): what `check --ci` costs on the largest inputs the caps
// let through, and on 50 MiB of tiny records, which the record cap refuses. Each file is checked
// in its own process (the check pipeline itself: read, stabilize, validate, compare with a missing
// golden), which reports its peak RSS; a process that only loads the modules is the baseline. Then
// 40 MiB of `[` in one message, and every format at the caps (caps-formats.ts; issue 34).
//   node --import tsx bench/caps.ts [--out FILE.json]         generate the inputs, measure each
//   node --import tsx bench/caps.ts --one FILE|- [--max-records N]  measure one file ('-': baseline)
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runGoldens } from '../src/cli/check/golden-run.js';
import { loadHeadPolicy } from '../src/cli/check/policies.js';
import { CAP_FORMATS, capsFileName, capsInput, prose } from './caps-formats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, '.bench', 'caps');
const MIB = 1024 * 1024;
/** The documented bound within the caps (docs/cli.md, "Bad input is normal input"). */
export const GOAL_MB = 1000;

export interface CapsRow {
  label: string;
  bytes: number;
  records: number;
  /** The check's outcome: pass/new/violations, or error (refused). */
  outcome: string;
  seconds: number;
  peakRssMb: number;
}

interface Input {
  label: string;
  file: string;
  records: number;
  /** `--max-records` for this input; the default cap when absent. */
  maxRecords?: number;
  /** The text, written once; deterministic. */
  make: () => string;
}

function lines(n: number, record: (i: number) => string): string {
  const out = ['{"id":"sys","kind":"system","content":"You are a careful coding agent."}'];
  for (let i = 1; i < n; i++) out.push(record(i));
  return `${out.join('\n')}\n`;
}

function kind(i: number): string {
  return i % 2 ? 'user' : 'assistant';
}

const INPUTS: Input[] = [
  {
    label: '50 MiB of tiny records (over the record cap: refused)',
    file: 'tiny-50mib.jsonl',
    records: Math.floor((50 * MIB) / 33),
    make: () => lines(Math.floor((50 * MIB) / 33), (i) => `{"kind":"${kind(i)}","content":"m${i % 10}"}`),
  },
  {
    label: '50,000 tiny records (at the cap)',
    file: 'tiny-at-cap.jsonl',
    records: 50_000,
    make: () => lines(50_000, (i) => `{"kind":"${kind(i)}","content":"m${i}"}`),
  },
  {
    label: '50,000 records of 900 B (at the cap)',
    file: 'wide-at-cap.jsonl',
    records: 50_000,
    make: () => lines(50_000, (i) => JSON.stringify({ kind: kind(i), content: prose(i, 860) })),
  },
  {
    label: 'OpenAI document of 50,000 messages of 900 B (at the cap)',
    file: 'messages-at-cap.json',
    records: 50_000,
    make: () => openAi(50_000, 860),
  },
  {
    label: 'OpenAI document of 100,000 messages of 460 B (--max-records 100000)',
    file: 'messages-100k.json',
    records: 100_000,
    maxRecords: 100_000,
    make: () => openAi(100_000, 420),
  },
  {
    label: '50 MiB of tiny JSON objects (over the object cap: refused)',
    file: 'objects-50mib.json',
    records: 0,
    make: () => {
      const inner = `[${Array.from({ length: 64 }, () => '{"a":1}').join(',')}]`;
      return `[${Array.from({ length: Math.floor((50 * MIB) / (inner.length + 1)) }, () => inner).join(',')}]`;
    },
  },
  {
    // Issue 34: a frame per bracket where the stages look for JSON inside a text; 3.95 GB before.
    label: 'OpenAI document whose user message is 40 MiB of `[`',
    file: 'brackets-40mib.json',
    records: 2,
    make: () =>
      JSON.stringify([
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: '['.repeat(40 * MIB) },
      ]),
  },
  // Every format at the caps (issue 34): 50,000 records of about 1 KB, under 50 MiB.
  ...CAP_FORMATS.map((format): Input => ({
    label: `${format}: 50,000 records of ~1 KB (at the caps)`,
    file: capsFileName(format),
    records: 50_000,
    make: () => capsInput(format),
  })),
];

function openAi(n: number, chars: number): string {
  return JSON.stringify([
    { role: 'system', content: 'You are a careful coding agent.' },
    ...Array.from({ length: n - 1 }, (_, i) => ({ role: kind(i), content: prose(i, chars) })),
  ]);
}

/** Checks one file the way `check --ci` does and reports the process's peak RSS. */
async function measureOne(
  file: string,
  maxRecords: number | undefined,
): Promise<Omit<CapsRow, 'label' | 'records'>> {
  const head = await loadHeadPolicy(undefined, ROOT);
  if (!head.ok) throw new Error('the built-in policy did not load');
  const start = process.hrtime.bigint();
  let outcome = 'baseline';
  let bytes = 0;
  if (file !== '-') {
    bytes = (await readFile(file)).length;
    const { report } = await runGoldens({
      mode: 'check',
      inputs: [path.relative(ROOT, file)],
      cwd: ROOT,
      goldenDir: '.bench/caps-golden',
      ci: true,
      shard: null,
      head: head.setup,
      base: null,
      limits: maxRecords === undefined ? {} : { maxRecords },
    });
    outcome = report.transcripts[0]?.outcome ?? 'none';
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // maxRSS is in kilobytes.
  return { bytes, outcome, seconds, peakRssMb: (process.resourceUsage().maxRSS * 1024) / MIB };
}

function child(file: string, maxRecords?: number): Omit<CapsRow, 'label' | 'records'> {
  const cap = maxRecords === undefined ? [] : [`--max-records=${maxRecords}`];
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/caps.ts', '--one', file, ...cap], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`caps: measuring ${file} failed (exit ${r.status ?? r.signal}).`);
  return JSON.parse(r.stdout) as Omit<CapsRow, 'label' | 'records'>;
}

export async function capsRows(): Promise<CapsRow[]> {
  await mkdir(DIR, { recursive: true });
  const rows: CapsRow[] = [{ label: 'baseline: modules loaded, no input', records: 0, ...child('-') }];
  for (const input of INPUTS) {
    const file = path.join(DIR, input.file);
    await writeFile(file, input.make());
    rows.push({ label: input.label, records: input.records, ...child(file, input.maxRecords) });
  }
  return rows;
}

export function capsTable(rows: readonly CapsRow[]): string {
  const out = [
    `| Input (check --ci, default caps) | MB | Outcome | Seconds | Peak RSS MB | Goal < ${GOAL_MB} MB |`,
    '| --- | ---: | --- | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const verdict = r.outcome === 'baseline' ? '' : r.peakRssMb < GOAL_MB ? 'ok' : 'OVER';
    out.push(
      `| ${r.label} | ${(r.bytes / MIB).toFixed(1)} | ${r.outcome} | ${r.seconds.toFixed(2)} | ${r.peakRssMb.toFixed(0)} | ${verdict} |`,
    );
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { one: { type: 'string' }, out: { type: 'string' }, 'max-records': { type: 'string' } },
    strict: true,
  });
  if (values.one !== undefined) {
    const cap = values['max-records'] === undefined ? undefined : Number(values['max-records']);
    process.stdout.write(`${JSON.stringify(await measureOne(values.one, cap))}\n`);
    return;
  }
  const rows = await capsRows();
  if (values.out !== undefined) await writeFile(values.out, `${JSON.stringify(rows, null, 2)}\n`);
  else console.log(capsTable(rows));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`caps: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
