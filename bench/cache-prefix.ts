// Prompt-cache prefix of the bundled examples (issue 17, docs/cache-prefix.md): each transcript
// replayed model call by model call under the default policy, with the share of each request that
// repeats the previous one as a byte-identical prefix, and the cost of the replay on a long
// generated agent session (the replay is capped at MAX_REPLAY_POINTS measured calls).
//   node --import tsx bench/cache-prefix.ts [--dir examples/transcripts] [--messages 10000] [--out FILE.json]
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { replayCachePrefix } from '../src/core/cache/prefix.js';
import { DEFAULT_POLICY } from '../src/core/policy/index.js';
import type { Policy } from '../src/core/policy/index.js';
import { sanitizeForPolicy } from '../src/core/stabilize/stabilize.js';
import type { Tokenizer } from '../src/core/tokens/tokenizer.js';
import type { Transcript } from '../src/core/types.js';
import { loadTranscripts } from '../src/io/load-transcript.js';
import { readTranscript } from '../src/core/readers/index.js';
import { loadPolicyTokenizer } from '../src/tokens/load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CachePrefixRow {
  transcript: string;
  /** Model calls in the transcript, and those measured (all but the first, capped). */
  calls: number;
  turns: number;
  replayed: number;
  mean_share: number | null;
  min_share: number | null;
  reused_tokens: number;
  sent_tokens: number;
  seconds: number;
}

function rowOf(name: string, transcript: Transcript, policy: Policy, tokenizer: Tokenizer): CachePrefixRow {
  const shown = sanitizeForPolicy(transcript, policy);
  const start = process.hrtime.bigint();
  const { summary } = replayCachePrefix(shown, { policy, tokenizer });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return {
    transcript: name,
    calls: summary.calls,
    turns: summary.turns,
    replayed: summary.replayed,
    mean_share: summary.mean_share,
    min_share: summary.min_share,
    reused_tokens: summary.reused_tokens,
    sent_tokens: summary.sent_tokens,
    seconds,
  };
}

/** One row per transcript of `dir` (default: the bundled examples), under the default policy. */
export async function cachePrefixRows(
  dir = path.join(ROOT, 'examples/transcripts'),
): Promise<CachePrefixRow[]> {
  const policy = DEFAULT_POLICY;
  const tokenizer = await loadPolicyTokenizer(policy);
  const rows: CachePrefixRow[] = [];
  for (const file of (await readdir(dir)).filter((f) => /\.(json|jsonl)$/.test(f)).sort()) {
    for (const { name, result } of await loadTranscripts(path.join(dir, file))) {
      if (!result.ok) throw new Error(`cache-prefix: ${file} is unreadable`);
      rows.push(rowOf(path.basename(name), result.transcript, policy, tokenizer));
    }
  }
  return rows;
}

/**
 * A generated agent session of `messages` OpenAI messages (a request, then command/output pairs,
 * a new request every 10 steps), replayed under the default policy: the cost of a long transcript.
 */
export async function cachePrefixScaleRow(messages = 10_000): Promise<CachePrefixRow> {
  const out: unknown[] = [
    { role: 'system', content: 'You are a coding agent. Follow the repository rules.' },
    { role: 'user', content: 'Fix the failing tests in src/app.ts and explain what was wrong.' },
  ];
  for (let i = 1; out.length < messages; i++) {
    out.push({
      role: 'assistant',
      content: `Step ${i}: running the tests of part ${i % 17}.`,
      tool_calls: [
        {
          id: `c${i}`,
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify({ cmd: `npm test -- part${i % 17}.ts` }) },
        },
      ],
    });
    out.push({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: `FAIL part${i % 17}.ts line ${i}\nexpected ${i} got ${i + 1}\n`,
    });
    if (i % 10 === 0) out.push({ role: 'user', content: `Any progress on part ${i % 17}?` });
  }
  const read = readTranscript(JSON.stringify(out.slice(0, messages)), {
    file: `agent-${messages}.json`,
    format: 'auto',
  });
  if (!read.ok) throw new Error('cache-prefix: the generated session is unreadable');
  const tokenizer = await loadPolicyTokenizer(DEFAULT_POLICY);
  return rowOf(`generated agent session, ${messages} messages`, read.transcript, DEFAULT_POLICY, tokenizer);
}

function share(x: number | null): string {
  return x === null ? '—' : `${(x * 100).toFixed(1)}%`;
}

export function cachePrefixTable(rows: readonly CachePrefixRow[]): string {
  const lines = [
    '| Prompt-cache prefix (default policy) | Calls | Replayed | Turns | Mean share | Min share | Tokens reusable / sent | Seconds |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.transcript} | ${r.calls} | ${r.replayed} | ${r.turns} | ${share(r.mean_share)} | ${share(r.min_share)} | ${r.reused_tokens} / ${r.sent_tokens} | ${r.seconds.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { dir: { type: 'string' }, messages: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const rows = await cachePrefixRows(values.dir !== undefined ? path.resolve(values.dir) : undefined);
  const messages = Number(values.messages ?? '10000');
  if (messages > 0) rows.push(await cachePrefixScaleRow(messages));
  if (values.out !== undefined) await writeFile(values.out, `${JSON.stringify(rows, null, 2)}\n`);
  else console.log(cachePrefixTable(rows));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`cache-prefix: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
