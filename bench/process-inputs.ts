// The inputs of the process section (check-process.ts), all under .bench: generated corpora
// (reused while their manifest matches), the real recordings copied under the working directory,
// and the cold-start transcript.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS } from '../scripts/bundle-options.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(ROOT, '.bench');

/** A TypeScript entry under tsx, from the repository root; throws when it fails. */
export function tsx(script: string, args: readonly string[]): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed (exit ${r.status ?? r.signal}).`);
}

export async function sizeOf(
  dir: string,
  skip: (name: string) => boolean = () => false,
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || skip(e.name)) continue;
    files++;
    bytes += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return { files, bytes };
}

/**
 * Generates a corpus with bench/generate-corpus.ts unless the manifest says it is already there
 * (same seed, count and size: the generator is deterministic). True when it was already there.
 */
export async function generate(rel: string, flags: Record<string, string | number>): Promise<boolean> {
  const dir = path.join(BENCH, rel);
  try {
    const m = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const want = {
      seed: flags['seed'],
      count: flags['count'],
      mb: flags['mb'] ?? null,
      messages: flags['messages'] ?? null,
    };
    if (Object.entries(want).every(([k, v]) => m[k] === v)) return true;
  } catch {
    // No corpus yet.
  }
  tsx('bench/generate-corpus.ts', [
    `--out=${dir}`,
    ...Object.entries(flags).map(([k, v]) => `--${k}=${String(v)}`),
  ]);
  return false;
}

/** The recordings of the real corpus, copied under cwd (check reads nothing outside it). */
export async function copyRecordings(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  for (const e of await readdir(from, { withFileTypes: true, recursive: true })) {
    const rel = path.relative(from, path.join(e.parentPath, e.name));
    // Licence texts and the corpus README are not recordings (same filter as corpus-sweep.ts).
    if (!e.isFile() || rel.split(path.sep)[0] === 'licenses') continue;
    if (!/\.(json|jsonl|traj|md)$/.test(e.name) || e.name === 'README.md' || e.name === 'SOURCES.json')
      continue;
    await mkdir(path.dirname(path.join(to, rel)), { recursive: true });
    await copyFile(path.join(from, rel), path.join(to, rel));
  }
}

/** A ~1.8 KB native JSONL session: the cold-start input. */
export function coldTranscript(): string {
  const records = [
    {
      id: 'sys',
      kind: 'system',
      content: 'You are a careful coding agent. Explain what you run before you run it.',
    },
    {
      id: 'task',
      kind: 'task',
      content: 'Fix the failing date test in the changelog page and open a pull request.',
    },
    {
      id: 'u1',
      kind: 'user',
      content: 'The French dates test fails on main since this morning. Can you look?',
    },
    {
      id: 'a1',
      kind: 'assistant',
      content: 'Running the failing test first to see the error.',
      tool_calls: [{ id: 't1', name: 'bash', arguments: { command: 'npm test -- changelog-dates' } }],
    },
    {
      id: 'r1',
      kind: 'tool',
      tool: 'bash',
      call_id: 't1',
      exit_code: 1,
      content:
        'FAIL src/changelog/dates.test.ts\n  expected "3 mars 2025" but received "3 March 2025"\n  at formatDate (src/changelog/dates.ts:14:9)\nTests: 1 failed, 41 passed',
    },
    {
      id: 'a2',
      kind: 'assistant',
      content: 'formatDate ignores the locale. Reading the function.',
      tool_calls: [{ id: 't2', name: 'read', arguments: { path: 'src/changelog/dates.ts' } }],
    },
    {
      id: 'r2',
      kind: 'tool',
      tool: 'read',
      call_id: 't2',
      content:
        "export function formatDate(d: Date, locale: string): string {\n  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });\n}",
    },
    {
      id: 'a3',
      kind: 'assistant',
      content: "The locale argument is never used: 'en-GB' is hard-coded. I will pass the locale through.",
    },
    { id: 'u2', kind: 'user', content: 'Go ahead, and run the whole suite before you push.' },
    {
      id: 'a4a',
      kind: 'assistant',
      content: 'Passing the locale through and running the suite.',
      tool_calls: [{ id: 't3', name: 'bash', arguments: { command: 'npm test' } }],
    },
    {
      id: 'r3',
      kind: 'tool',
      tool: 'bash',
      call_id: 't3',
      exit_code: 0,
      content: 'Tests: 42 passed, 42 total',
    },
    {
      id: 'a4',
      kind: 'assistant',
      content: 'Done: the suite passes (42 tests) and the pull request is open.',
    },
  ];
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

/**
 * The tokenizer pass as the CLI is shipped: when bin/context-stability.js runs a one-file bundle
 * (build/cli.bundle.js, scripts/bundle-cli.mjs), the pass is bundled the same way, with esbuild
 * and gpt-tokenizer external, into .bench/process/tokenizer-pass.bundle.mjs, so that neither
 * process pays for resolving hundreds of small modules that the other does not. Else it runs
 * unbundled over build/, as the CLI then does.
 */
export async function tokenizerPassEntry(): Promise<{ script: string; bundled: boolean }> {
  const source = path.join(ROOT, 'bench', 'tokenizer-pass.mjs');
  if (!existsSync(path.join(ROOT, 'build', 'cli.bundle.js'))) return { script: source, bundled: false };
  const outfile = path.join(BENCH, 'process', 'tokenizer-pass.bundle.mjs');
  const { build } = await import('esbuild');
  await build({ ...BUNDLE_OPTIONS, entryPoints: [source], outfile });
  return { script: outfile, bundled: true };
}
