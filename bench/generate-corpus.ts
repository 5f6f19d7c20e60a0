// Writes a seeded synthetic corpus for the benchmark:
//   npx tsx bench/generate-corpus.ts --out .bench/corpus --seed 42 --count 200 --mb 20
// Files plus `manifest.json` (per file: format, archetype, seed, bytes, planted PII ground truth,
// summary truth). Same arguments → byte-identical files.

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ARCHETYPES, CORPUS_FORMATS, generateCorpus } from '../test/support/generate/index.js';
import type { Archetype, CorpusFormat } from '../test/support/generate/index.js';

const USAGE = `Usage: npx tsx bench/generate-corpus.ts --out DIR [--seed N] [--count N] (--mb N | --messages N)
    [--formats ${CORPUS_FORMATS.join(',')}] [--archetypes ${ARCHETYPES.join(',')}]

  --out DIR        output directory (created; files of a previous run listed in its manifest are replaced)
  --seed N         corpus seed (default 42)
  --count N        number of transcripts (default 200)
  --mb N           total size in MB (10^6 bytes), met within a few percent
  --messages N     exact artifact count per transcript instead of a size (e.g. 1000 vs 10000 for scaling)
  --formats LIST   comma-separated formats, assigned round-robin (default: all)
  --archetypes LIST comma-separated archetypes (default: all)`;

class UsageError extends Error {}

function positiveInt(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number.`);
  return n;
}

function list<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((v) => v.trim());
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new UsageError(`--${name} accepts ${allowed.join(', ')}.`);
    }
  }
  return items as T[];
}

async function previousFiles(manifestPath: string): Promise<string[]> {
  try {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files?: { name?: unknown }[] };
    return (manifest.files ?? [])
      .map((f) => f.name)
      .filter((n): n is string => typeof n === 'string' && !n.includes('/'));
  } catch {
    return [];
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      count: { type: 'string' },
      mb: { type: 'string' },
      messages: { type: 'string' },
      formats: { type: 'string' },
      archetypes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) throw new UsageError('--out is required.');
  if (values.mb !== undefined && values.messages !== undefined)
    throw new UsageError('Give --mb or --messages, not both.');
  const seed = Number(values.seed ?? '42');
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer.');
  const count = Math.floor(positiveInt('count', values.count, 200) ?? 200);
  const mb = positiveInt('mb', values.mb);
  const messages = positiveInt('messages', values.messages);
  const formats = list<CorpusFormat>('formats', values.formats, CORPUS_FORMATS);
  const archetypes = list<Archetype>('archetypes', values.archetypes, ARCHETYPES);

  const started = performance.now();
  const entries = generateCorpus({
    seed,
    count,
    ...(messages !== undefined
      ? { messages: Math.floor(messages) }
      : { targetBytes: Math.round((mb ?? 20) * 1e6) }),
    ...(formats ? { formats } : {}),
    ...(archetypes ? { archetypes } : {}),
  });
  const generatedMs = performance.now() - started;

  const out = path.resolve(values.out);
  await mkdir(out, { recursive: true });
  const manifestPath = path.join(out, 'manifest.json');
  for (const name of await previousFiles(manifestPath)) await rm(path.join(out, name), { force: true });
  for (const e of entries) await writeFile(path.join(out, e.name), e.text);
  const files = entries.map(({ text: _text, ...rest }) => rest);
  const manifest = {
    generator: 'test/support/generate',
    seed,
    count,
    mb: mb ?? null,
    messages: messages ?? null,
    files,
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

  const total = entries.reduce((n, e) => n + e.bytes, 0);
  const byFormat = new Map<string, number>();
  for (const e of entries) byFormat.set(e.format, (byFormat.get(e.format) ?? 0) + 1);
  console.log(
    `${entries.length} transcripts, ${(total / 1e6).toFixed(2)} MB in ${values.out} ` +
      `(generated in ${(generatedMs / 1000).toFixed(2)} s; ${[...byFormat].map(([f, n]) => `${f} ${n}`).join(', ')})`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      console.error(`generate-corpus: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  },
);
