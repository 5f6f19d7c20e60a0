// `npm run bench:decisions` (and a section of `npm run bench`): the stabilizer's decisions beside a
// naive newest-first trim (issue 27), replayed model call by model call. Sources: every recording
// of a corpus folder (default ../shared/corpus), a seeded generated coding-agent session and two
// scenarios; per source, budget and target, five figures for each strategy (bench/README.md).
//   node --import tsx bench/decisions.ts [--corpus DIR] [--budgets 3000,6000] [--seed N]
//     [--messages N] [--max-calls N] [--json FILE] [--quiet]
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../src/tokens/load.js';
import { decisionsTable, notesText, addReplay, totalRows } from './decisions/report.js';
import type { DecisionsResults, DecisionsRow } from './decisions/report.js';
import { MAX_CALLS, TARGETS, replayDecisions } from './decisions/replay.js';
import type { Note } from './decisions/replay.js';
import {
  corpusSources,
  generatedSource,
  isDirectory,
  kubectlScenario,
  readScenario,
} from './decisions/sources.js';
import type { Source } from './decisions/sources.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `Usage: npm run bench:decisions -- [--corpus DIR] [--budgets 3000,6000] [--seed N] [--messages N]
    [--max-calls N] [--json FILE] [--quiet]

  --corpus DIR    recordings to replay (default ../shared/corpus; skipped with a message when absent)
  --budgets N,N   token budgets (default 3000,6000); the "read" scenario always runs at 30000
  --seed N        seed of the generated coding-agent session (default 42)
  --messages N    messages of the generated session (default 1000; 0 leaves it out)
  --max-calls N   model calls replayed per transcript, the newest (default ${MAX_CALLS})
  --json FILE     also write the full results (rows, totals, notes) as JSON
  --quiet         print nothing but progress (with --json: for npm run bench)`;

class UsageError extends Error {}

function int(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}.`);
  return n;
}

/** Replays every source at its budgets for both targets; corpus recordings also count in the totals. */
export async function runDecisions(o: {
  corpus: string;
  budgets: number[];
  seed: number;
  messages: number;
  maxCalls: number;
}): Promise<DecisionsResults> {
  const start = performance.now();
  const tokenizer = await loadTokenizer('o200k_base');
  const sources: Source[] = [];
  let corpus: string | null = null;
  if (await isDirectory(o.corpus)) {
    corpus = o.corpus;
    const found = await corpusSources(o.corpus);
    console.error(
      `decisions: ${o.corpus}: ${found.sources.length} transcripts` +
        (found.refused.length > 0 ? `, ${found.refused.length} refused (${found.refused.join(', ')})` : ''),
    );
    sources.push(...found.sources);
  } else {
    console.error(`decisions: no corpus at ${o.corpus}: its rows are skipped.`);
  }
  const fromCorpus = sources.length;
  if (o.messages > 0) {
    console.error(`decisions: generated coding-agent session, seed ${o.seed}, ${o.messages} messages.`);
    sources.push(generatedSource(o.seed, o.messages));
  }
  sources.push(readScenario(), kubectlScenario());

  const rows: DecisionsRow[] = [];
  const corpusRows: DecisionsRow[] = [];
  const notes: Note[] = [];
  const capped: DecisionsResults['capped'] = [];
  for (const [i, s] of sources.entries()) {
    const t0 = performance.now();
    for (const budget of s.budgets ?? o.budgets) {
      for (const target of TARGETS) {
        const r = replayDecisions(s.transcript, { budget, target, tokenizer, maxCalls: o.maxCalls });
        addReplay(rows, { source: s.source, budget, target }, r);
        if (i < fromCorpus) addReplay(corpusRows, { source: s.source, budget, target }, r);
        notes.push(...r.notes);
        if (r.replayed < r.total_calls && !capped.some((c) => c.file === s.transcript.file)) {
          capped.push({ file: s.transcript.file, calls: r.total_calls, replayed: r.replayed });
          console.error(
            `decisions: ${s.transcript.file}: ${r.total_calls} model calls, replaying the newest ${r.replayed}.`,
          );
        }
      }
    }
    const secs = (performance.now() - t0) / 1000;
    if (secs > 5) console.error(`decisions: ${s.transcript.file} took ${secs.toFixed(1)} s.`);
  }
  rows.sort(
    (a, b) => a.budget - b.budget || a.source.localeCompare(b.source) || a.target.localeCompare(b.target),
  );
  return {
    seed: o.seed,
    budgets: o.budgets,
    corpus,
    seconds: (performance.now() - start) / 1000,
    rows,
    totals: totalRows(corpusRows, 'corpus total'),
    notes,
    capped,
  };
}

/** The section as `npm run bench` and `npm run bench:decisions` print it. */
export function decisionsSection(r: DecisionsResults): string {
  const out = [
    `Decisions replayed call by call (issue 27): ${r.corpus ?? 'no corpus'}; generated session seed ${r.seed}; ` +
      `${r.seconds.toFixed(1)} s.`,
    '',
    decisionsTable(r.rows, r.totals),
  ];
  if (r.capped.length > 0)
    out.push(
      '',
      `Capped: ${r.capped.map((c) => `${c.file} (${c.replayed} of ${c.calls} calls)`).join(', ')}.`,
    );
  if (r.notes.length > 0)
    out.push(
      '',
      'Where the stabilizer did worse than the naive trim or broke a promise:',
      notesText(r.notes),
    );
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      budgets: { type: 'string' },
      seed: { type: 'string' },
      messages: { type: 'string' },
      'max-calls': { type: 'string' },
      json: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const budgets = (values.budgets ?? '3000,6000').split(',').map((v) => int('budgets', v.trim(), 0, 1));
  const results = await runDecisions({
    corpus: path.resolve(values.corpus ?? path.join(ROOT, '..', 'shared', 'corpus')),
    budgets,
    seed: int('seed', values.seed, 42, Number.MIN_SAFE_INTEGER),
    messages: int('messages', values.messages, 1000, 0),
    maxCalls: int('max-calls', values['max-calls'], MAX_CALLS, 1),
  });
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(results, null, 2)}\n`);
  if (!values.quiet) console.log(decisionsSection(results));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      console.error(`decisions: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`decisions: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
