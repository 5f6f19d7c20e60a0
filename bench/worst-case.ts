// The worst case of token counting (issue 12): one message that is a single unbroken run, which
// BPE merges as one pre-token. Counting such runs in chunks (src/core/tokens/chunked.ts) keeps the
// time linear; these rows show it.
//   node --import tsx bench/worst-case.ts [--kb 512] [--cjk 65536] [--out FILE.json]
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_POLICY } from '../src/core/policy/index.js';
import { loadTokenizer } from '../src/tokens/load.js';
import { emptyTally, pipelineOne } from './workloads.js';
import type { BenchEnv } from './workloads.js';

export interface WorstCaseRow {
  label: string;
  bytes: number;
  seconds: number;
  tokens: number;
}

/** A one-message OpenAI-style transcript whose text is `text`. */
export function oneMessage(text: string): string {
  return JSON.stringify([
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: text },
  ]);
}

/** Times read + stabilize + validate (fresh cache) of one generated transcript. */
export function timeOne(label: string, text: string, env: BenchEnv): WorstCaseRow {
  const file = { name: `${label}.json`, text: oneMessage(text) };
  const tally = emptyTally();
  const start = process.hrtime.bigint();
  pipelineOne(file, env, new Map(), tally);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (tally.unreadable > 0) throw new Error(`worst case ${label}: transcript unreadable`);
  return { label, bytes: Buffer.byteLength(file.text), seconds, tokens: tally.tokens };
}

/** One unbroken run of `kb` KB of one letter, the same of random letters, and `cjk` CJK characters without spaces. */
export async function worstCase(kb = 512, cjk = 65536): Promise<WorstCaseRow[]> {
  const env: BenchEnv = { policy: DEFAULT_POLICY, tokenizer: await loadTokenizer(DEFAULT_POLICY.tokenizer) };
  const letters = 'a'.repeat(kb * 1024);
  // Distinct pieces too: identical chunks of one letter hit the encoder's merge cache.
  let seed = 42;
  let mixed = '';
  for (let i = 0; i < kb * 1024; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    mixed += String.fromCharCode(97 + ((seed >>> 24) % 26));
  }
  let han = '';
  for (let i = 0; i < cjk; i++) han += String.fromCodePoint(0x4e00 + ((i * 7919) % 20000));
  return [
    timeOne(`one run of ${kb * 1024} letters`, letters, env),
    timeOne(`one run of ${kb * 1024} random letters`, mixed, env),
    timeOne(`${cjk} CJK characters, no spaces`, han, env),
  ];
}

export function worstCaseTable(rows: readonly WorstCaseRow[]): string {
  const lines = [
    '| Worst case (one unbroken run) | Bytes | Seconds | Tokens |',
    '| --- | ---: | ---: | ---: |',
  ];
  for (const r of rows) lines.push(`| ${r.label} | ${r.bytes} | ${r.seconds.toFixed(2)} | ${r.tokens} |`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { kb: { type: 'string' }, cjk: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const rows = await worstCase(Number(values.kb ?? '512'), Number(values.cjk ?? '65536'));
  if (values.out !== undefined) await writeFile(values.out, `${JSON.stringify(rows, null, 2)}\n`);
  else console.log(worstCaseTable(rows));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`worst-case: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
