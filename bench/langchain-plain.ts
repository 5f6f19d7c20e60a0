// Our stabilize against LangChain.js `trimMessages` with the token counter its documentation shows
// (no memo: every call counts every message it is given), on short and medium transcripts
// (issue 16). In-process, in its own child so LangChain's modules weigh on nothing else:
//   node --import tsx bench/langchain-plain.ts --dirs DIR,DIR --out FILE [--runs 3] [--warmup 1]
// Each DIR is a corpus of bench/generate-corpus.ts with a fixed message count. Timed,
// interleaved: stabilize alone (transcripts read beforehand, fresh token cache per transcript),
// read + stabilize + validate (row a), trimMessages with the plain counter and with the memoized
// one (messages converted beforehand). The tokenizer's merge cache is cleared before every run.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_POLICY } from '../src/core/policy/index.js';
import { stabilizeTranscript } from '../src/core/stabilize/stabilize.js';
import type { Transcript } from '../src/core/types.js';
import { loadTokenizer } from '../src/tokens/load.js';
import { loadCorpus, totalBytes } from './corpus.js';
import { langchainTrimOnly, toLangChainMessages } from './langchain.js';
import type { TrimTally } from './langchain.js';
import type { Timing } from './timing.js';
import { timeInterleaved } from './timing.js';
import { fullPipeline, read } from './workloads.js';

export interface PlainCounterSize {
  /** Messages per transcript, as generated. */
  messages: number;
  transcripts: number;
  bytes: number;
  stabilize: Timing;
  pipeline: Timing;
  plainTrim: Timing;
  memoTrim: Timing;
  /** What the last trim runs kept: the two counters must agree. */
  plainKept: TrimTally;
  memoKept: TrimTally;
}

async function measureDir(dir: string, runs: number, warmup: number): Promise<PlainCounterSize> {
  const policy = DEFAULT_POLICY;
  const tokenizer = await loadTokenizer(policy.tokenizer);
  const files = await loadCorpus(dir);
  const transcripts = files.map((f) => read(f)).filter((t): t is Transcript => t !== undefined);
  if (transcripts.length !== files.length) throw new Error(`${dir}: some transcripts did not read.`);
  const conversations = transcripts.map((t) => toLangChainMessages(t));
  const overhead = policy.message_overhead;
  const timed = await timeInterleaved(
    {
      stabilize: () => {
        let used = 0;
        for (const t of transcripts)
          used += stabilizeTranscript(t, { policy, tokenizer, cache: new Map() }).budget.used;
        return used;
      },
      pipeline: () => fullPipeline(files, { policy, tokenizer }, 'fresh'),
      plainTrim: () => langchainTrimOnly(conversations, tokenizer, overhead, 'plain'),
      memoTrim: () => langchainTrimOnly(conversations, tokenizer, overhead, 'memoized'),
    },
    { runs, warmup, reset: clearMergeCache },
  );
  const messages = Math.round(
    transcripts.reduce((n, t) => n + t.artifacts.length, 0) / Math.max(1, transcripts.length),
  );
  const ms = (t: Timing): string => t.medianMs.toFixed(1);
  process.stderr.write(
    `  ${path.basename(dir)}: stabilize ${ms(timed.stabilize.timing)} ms, plain trimMessages ` +
      `${ms(timed.plainTrim.timing)} ms, memoized ${ms(timed.memoTrim.timing)} ms\n`,
  );
  return {
    messages,
    transcripts: transcripts.length,
    bytes: totalBytes(files),
    stabilize: timed.stabilize.timing,
    pipeline: timed.pipeline.timing,
    plainTrim: timed.plainTrim.timing,
    memoTrim: timed.memoTrim.timing,
    plainKept: timed.plainTrim.sink as TrimTally,
    memoKept: timed.memoTrim.sink as TrimTally,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dirs: { type: 'string' },
      out: { type: 'string' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
    },
    strict: true,
  });
  if (!values.dirs || !values.out) throw new Error('langchain-plain: --dirs and --out are required.');
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  const sizes: PlainCounterSize[] = [];
  // The first folder's warm-up also warms the JIT for the next ones (same process, same code).
  for (const dir of values.dirs.split(','))
    sizes.push(await measureDir(dir, runs, sizes.length === 0 ? warmup : 0));
  await writeFile(values.out, `${JSON.stringify(sizes, null, 2)}\n`);
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]).endsWith(path.join('bench', 'langchain-plain.ts'))
) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
