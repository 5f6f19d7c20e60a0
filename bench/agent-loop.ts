// `npm run bench:agent` (and a section of `npm run bench`): what the stabilizer costs inside an agent
// that calls it before every model call (issue 17). A seeded coding session in OpenAI chat format is
// replayed call by call: each call sends the history so far plus the next 1–3 messages, as an agent
// loop does. Measured in this process, in the same run:
//   - session: one ContextStabilizer, one session (per-session memo + message-by-message reader);
//   - stateless: the library's `stabilize` on each call's payload, with no state (the baseline).
// Reported per history size: the first call of a session (tokenizer already loaded: that is a
// one-time process cost, printed apart) and the median and p90 of the calls after it.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { stabilize } from '../src/api/stabilize.js';
import { emitContext } from '../src/core/emit/index.js';
import { createContextStabilizer } from '../src/runtime/stabilizer.js';
import { median } from './timing.js';
import { loadTokenizer } from '../src/tokens/load.js';
import { deriveSeed, generateCorpus } from '../test/support/generate/index.js';
import { Rng } from '../test/support/generate/rng.js';

export interface AgentLoopRow {
  messages: number;
  calls: number;
  /** First call of a new session, ms (tokenizer loaded). */
  firstMs: number;
  medianMs: number;
  p90Ms: number;
  /** The stateless library call on the same payloads. */
  statelessMedianMs: number;
  statelessCalls: number;
}

export interface AgentLoopResults {
  seed: number;
  tokenizerLoadMs: number;
  rows: AgentLoopRow[];
}

const POLICY = Object.freeze({ budget: 8000 });

/** A seeded coding session of at least `n` OpenAI chat messages. */
function session(seed: number, n: number): unknown[] {
  const [entry] = generateCorpus({
    seed,
    count: 1,
    messages: Math.ceil(n * 1.1) + 10,
    formats: ['openai'],
    archetypes: ['coding'],
  });
  const doc = JSON.parse(entry!.text) as unknown[] | { messages: unknown[] };
  const messages = Array.isArray(doc) ? doc : doc.messages;
  if (messages.length < n) throw new Error(`the generator gave ${messages.length} messages, fewer than ${n}`);
  return messages.slice(0, n);
}

/** The value at `q` of sorted values (p90: 0.9). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Call points: from `n - span` to `n`, advancing 1–3 messages a call (seeded). */
function callPoints(seed: number, n: number, calls: number): number[] {
  const rng = new Rng(deriveSeed(seed, `calls-${n}`));
  const points: number[] = [];
  let at = n;
  for (let i = 0; i < calls && at > 1; i++) {
    points.unshift(at);
    at -= rng.int(1, 3);
  }
  return points;
}

async function measure(
  seed: number,
  n: number,
  calls: number,
  statelessCalls: number,
): Promise<AgentLoopRow> {
  const history = session(deriveSeed(seed, n), n);
  const points = callPoints(seed, n, calls + 1);
  // A generated session may escalate at this budget: the cost is what is measured, so it goes on.
  const cs = createContextStabilizer({ policy: POLICY, onEscalated: 'continue', onWarning: () => {} });
  const times: number[] = [];
  let firstMs = 0;
  for (const [i, k] of points.entries()) {
    const payload = { messages: history.slice(0, k) };
    const t = performance.now();
    const out = await cs.stabilize(payload, 'openai', { session: `s${n}`, format: 'openai' });
    const ms = performance.now() - t;
    if (out.result.context.length === 0) throw new Error('an empty context: the bench measured nothing');
    if (i === 0) firstMs = ms;
    else times.push(ms);
  }
  // The stateless baseline on the last calls (each one re-reads and re-counts the whole history).
  const base: number[] = [];
  for (const k of points.slice(-statelessCalls)) {
    const payload = { messages: history.slice(0, k) };
    const t = performance.now();
    const result = await stabilize(payload, { policy: POLICY, format: 'openai' });
    emitContext(result.context, 'openai');
    base.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return {
    messages: n,
    calls: times.length,
    firstMs,
    medianMs: median(times),
    p90Ms: quantile(times, 0.9),
    statelessMedianMs: median(base),
    statelessCalls: base.length,
  };
}

export async function agentLoop(seed: number, sizes: readonly number[]): Promise<AgentLoopResults> {
  const t = performance.now();
  await loadTokenizer('o200k_base');
  const tokenizerLoadMs = performance.now() - t;
  const rows: AgentLoopRow[] = [];
  for (const n of sizes) {
    const calls = n >= 10_000 ? 10 : 40;
    rows.push(await measure(seed, n, calls, n >= 10_000 ? 3 : 10));
  }
  return { seed, tokenizerLoadMs, rows };
}

const f = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

export function agentLoopTable(r: AgentLoopResults): string {
  const lines = [
    `In-agent cost per call (seed ${r.seed}; OpenAI chat coding session; budget 8,000; tokenizer load ${f(r.tokenizerLoadMs)} ms once per process)`,
    '',
    '| history | first call of a session | per call, median | per call, p90 | stateless library call, median | speed-up | goal |',
    '|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of r.rows) {
    const goal =
      row.messages === 1000
        ? `< 5 ms a call ${row.medianMs < 5 ? 'met' : 'missed'}; first < 200 ms ${row.firstMs < 200 ? 'met' : 'missed'}`
        : '';
    lines.push(
      `| ${row.messages.toLocaleString('en-US')} msgs | ${f(row.firstMs)} ms | ${f(row.medianMs)} ms | ${f(row.p90Ms)} ms | ${f(row.statelessMedianMs)} ms | ${(row.statelessMedianMs / row.medianMs).toFixed(1)}× | ${goal} |`,
    );
  }
  return lines.join('\n');
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: { seed: { type: 'string' }, sizes: { type: 'string' }, out: { type: 'string' } },
  });
  const seed = Number(values.seed ?? '42');
  const sizes = (values.sizes ?? '100,1000,10000').split(',').map(Number);
  const results = await agentLoop(seed, sizes);
  // With --out (bench/run.ts), the results go to a file and the table is printed by the caller.
  if (values.out) await writeFile(values.out, `${JSON.stringify(results, null, 2)}\n`);
  else console.log(agentLoopTable(results));
}

if (import.meta.url === `file://${process.argv[1]}`) await cli();
