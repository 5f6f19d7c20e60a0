// Child process of viewer-memory.test.ts (not a test file): writes the viewer page of a run of N
// drifted transcripts and prints, as JSON, the live heap (after a full GC) before the page and
// the most it reached while the page was being written, and the page's size.
//
//   node --expose-gc --import tsx test/e2e/viewer-memory.child.ts N OUT_DIR [parts|whole]
//
// `parts` writes it as check --html does (writeViewPage); `whole` renders the page as one string
// first (renderViewHtml), the way the page was written before issue 32: the control that shows the
// measurement sees a page held whole. The run: N drifted copies of one example (viewer-run.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeViewPage } from '../../src/cli/check/view-page.js';
import { buildViewDocument } from '../../src/core/view/document.js';
import { renderViewHtml } from '../../src/core/view/render-html.js';
import { writeFileAtomic } from '../../src/io/atomic-write.js';
import { REPLACEMENT, viewerRun } from './viewer-run.js';

const [count = '0', outDir = '', mode = 'parts'] = process.argv.slice(2);
const n = Number(count);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !Number.isInteger(n) || n <= 0 || outDir === '') {
  process.stderr.write(
    'usage: node --expose-gc --import tsx viewer-memory.child.ts N OUT_DIR [parts|whole]\n',
  );
  process.exit(2);
}
const { report, goldens } = viewerRun(n);

const live = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};
const before = live();
let peak = before;
// Samples run while the writer waits on the disk (a full GC each: every 20 ms at most).
const sampler = setInterval(() => {
  peak = Math.max(peak, live());
}, 20);
const file = path.join(outDir, 'index.html');
if (mode === 'whole') {
  const page = renderViewHtml(buildViewDocument(report, goldens, REPLACEMENT));
  await writeFileAtomic(file, page);
} else {
  const failure = await writeViewPage(file, report, goldens, REPLACEMENT, outDir, '--html');
  if (failure) throw new Error(failure.message);
}
clearInterval(sampler);
peak = Math.max(peak, live());
const bytes = readFileSync(file).length;
process.stdout.write(`${JSON.stringify({ n, mode, before, peak, bytes })}\n`);
