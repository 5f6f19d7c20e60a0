// The HTML viewer page of a large run (issue 34 item 6: `check --html` needed 3.4 GB for 2,000
// drifted transcripts, and at 3,000 failed with "could not be written (unknown error)", V8's
// longest string). Each size is measured in a process of its own: a check report of N drifted
// transcripts and their goldens made in memory (test/e2e/viewer-run.ts: copies of one bundled
// example, by default the largest, whose section of the page is about 165 KB), then the page
// written. `parts` is what check --html and the Action do (writeViewPage: one transcript's
// section at a time); `whole` renders the page as one string first, as before issue 32.
//   node --import tsx bench/viewer-page.ts [--sizes 2000,3000] [--modes parts,whole] [--out FILE.json]
//   node --import tsx bench/viewer-page.ts --one N --mode parts|whole   (one measurement, JSON)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeViewPage } from '../src/cli/check/view-page.js';
import { buildViewDocument } from '../src/core/view/document.js';
import { renderViewHtml } from '../src/core/view/render-html.js';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { REPLACEMENT, viewerRun } from '../test/e2e/viewer-run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = 'examples/transcripts/support-session.openai.json';

export interface ViewerPageRow {
  transcripts: number;
  mode: string;
  /** `written`, or the one-line failure. */
  result: string;
  pageMb: number;
  /** Writing the page (the run made in memory first is not counted). */
  seconds: number;
  /** Peak RSS of the process, and its RSS once the run was made (before the page). */
  peakRssMb: number;
  runRssMb: number;
}

const MB = 1e6;

async function one(n: number, mode: string): Promise<ViewerPageRow> {
  const { report, goldens } = viewerRun(n, false, EXAMPLE);
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-bench-viewer-'));
  const file = path.join(dir, 'index.html');
  const runRssMb = process.memoryUsage().rss / MB;
  const start = performance.now();
  let result = 'written';
  try {
    if (mode === 'whole') {
      await writeFileAtomic(file, renderViewHtml(buildViewDocument(report, goldens, REPLACEMENT)));
    } else {
      const failure = await writeViewPage(file, report, goldens, REPLACEMENT, dir, '--html');
      if (failure) result = `${failure.code}: ${failure.message}`;
    }
  } catch (error) {
    // The old path's failure, as view-page.ts reported it before issue 34.
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    result = `${(error as Error).name} (${code})`;
  }
  const seconds = (performance.now() - start) / 1000;
  const page = readdirSync(dir).includes('index.html') ? statSync(file).size : 0;
  rmSync(dir, { recursive: true, force: true });
  return {
    transcripts: n,
    mode,
    result,
    pageMb: page / MB,
    seconds,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    runRssMb,
  };
}

export function viewerPageTable(rows: readonly ViewerPageRow[]): string {
  const out = [
    '| transcripts (drifted) | page made | result | page | time to write | peak RSS | RSS before the page |',
    '|---:|---|---|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    out.push(
      `| ${r.transcripts} | ${r.mode === 'whole' ? 'whole (before issue 32)' : 'in parts'} | ${r.result} | ${r.pageMb.toFixed(0)} MB | ${r.seconds.toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB | ${r.runRssMb.toFixed(0)} MB |`,
    );
  return out.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '2000,3000' },
      modes: { type: 'string', default: 'parts,whole' },
      out: { type: 'string' },
      one: { type: 'string' },
      mode: { type: 'string', default: 'parts' },
    },
  });
  if (values.one !== undefined) {
    process.stdout.write(`${JSON.stringify(await one(Number(values.one), values.mode))}\n`);
    return 0;
  }
  const rows: ViewerPageRow[] = [];
  for (const size of values.sizes.split(',').map(Number)) {
    for (const mode of values.modes.split(',')) {
      console.error(`viewer page: ${size} drifted transcripts, ${mode}…`);
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', String(size), '--mode', mode],
        { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      const line = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !line.startsWith('{')) {
        // Out of memory, or any other way the process died: the row says how.
        const last = child.stderr.trim().split('\n').at(-1) ?? '';
        rows.push({
          transcripts: size,
          mode,
          result: `process failed (exit ${child.status ?? child.signal}): ${last.slice(0, 120)}`,
          pageMb: 0,
          seconds: 0,
          peakRssMb: 0,
          runRssMb: 0,
        });
        continue;
      }
      rows.push(JSON.parse(line) as ViewerPageRow);
    }
  }
  console.log(viewerPageTable(rows));
  if (values.out !== undefined) await writeFile(values.out, `${JSON.stringify(rows, null, 2)}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
