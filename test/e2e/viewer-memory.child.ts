// Child process of viewer-memory.test.ts (not a test file): writes the viewer page of a run of N
// drifted transcripts and prints, as JSON, the live heap (after a full GC) before the page and
// the most it reached while the page was being written, and the page's size.
//
//   node --expose-gc --import tsx test/e2e/viewer-memory.child.ts N OUT_DIR [parts|whole]
//
// `parts` writes it as check --html does (writeViewPage); `whole` renders the page as one string
// first (renderViewHtml), the way the page was written before issue 32: the control that shows the
// measurement sees a page held whole. The transcripts are copies of one bundled example under N
// names, all drifted from a stored golden that differs in every text; their goldens are parsed
// again at each lookup, as the run's spill (golden-spill.ts) gives them back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptGoldens } from '../../src/cli/check/golden-run.js';
import { writeViewPage } from '../../src/cli/check/view-page.js';
import { CHECK_REPORT_SCHEMA, summarize } from '../../src/core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../src/core/golden/diff.js';
import { parseGolden } from '../../src/core/golden/golden.js';
import type { Golden } from '../../src/core/golden/golden.js';
import { buildPicture } from '../../src/core/golden/picture.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';
import { buildViewDocument } from '../../src/core/view/document.js';
import { renderViewHtml } from '../../src/core/view/render-html.js';
import { writeFileAtomic } from '../../src/io/atomic-write.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = 'examples/transcripts/session.claude-code.jsonl';
const REPLACEMENT = '[REDACTED_{TYPE}]';

const [count = '0', outDir = '', mode = 'parts'] = process.argv.slice(2);
const n = Number(count);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !Number.isInteger(n) || n <= 0 || outDir === '') {
  process.stderr.write(
    'usage: node --expose-gc --import tsx viewer-memory.child.ts N OUT_DIR [parts|whole]\n',
  );
  process.exit(2);
}

function parsed(text: string): Golden {
  const result = parseGolden(text, EXAMPLE);
  if (!result.ok) throw new Error('the example golden does not parse');
  return result.golden;
}

const headText = readFileSync(path.join(REPO, 'golden', `${EXAMPLE}.golden.json`), 'utf8');
const head = parsed(headText);
// The stored side: every text of the context changed, so each row of the page differs.
const stored = parsed(headText);
for (const item of stored.context) if (typeof item.content === 'string') item.content += ' (as stored)';
const storedText = stableStringify(stored);
const goldensText = JSON.stringify({ head, stored } satisfies TranscriptGoldens);

const diff = diffGoldens(stored, head);
// One diff text shared by every outcome: the report stays small, so the page's share shows.
const unified = unifiedGoldenDiff(`golden/${EXAMPLE}.golden.json`, storedText, headText);
const picture = buildPicture(head.ledger, head.context, head.budget.limit);
const outcomeOf = (i: number): TranscriptOutcome => {
  const transcript = `t/${String(i).padStart(5, '0')}.claude-code.jsonl`;
  const golden = `golden/${transcript}.golden.json`;
  return {
    transcript,
    golden,
    outcome: 'drift',
    drift_severity: 'error',
    status: 'ok',
    budget: { limit: head.budget.limit, used: head.budget.used },
    violations: [],
    picture,
    diff,
    unified,
  };
};
const transcripts = Array.from({ length: n }, (_, i) => outcomeOf(i));
const report: CheckReport = {
  schema_version: CHECK_REPORT_SCHEMA,
  tool: { name: 'context-stability', version: '0.0.0-test' },
  ci: true,
  policy: { source: 'default', hash: 'sha256:test' },
  tokenizer: { name: 'o200k_base', version: 'test' },
  shard: null,
  golden_dir: 'golden',
  golden_files: transcripts.map((t) => t.golden),
  transcripts,
  obsolete: [],
  summary: summarize(transcripts, []),
};
const names = new Set(transcripts.map((t) => t.transcript));
// What the spill is to the page: each lookup parses the transcript's goldens anew.
const goldens = {
  get: (name: string) => (names.has(name) ? (JSON.parse(goldensText) as TranscriptGoldens) : undefined),
  has: (name: string) => names.has(name),
  get size() {
    return names.size;
  },
} as unknown as ReadonlyMap<string, TranscriptGoldens>;

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
