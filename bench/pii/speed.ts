// MB/s of the full scan (findPiiIn over every text of the set, repeated to ~8 MB), with baselines
// timed in the same rounds so the figure can be judged on a noisy shared machine, and what each
// default detector costs on its own.

import { findPiiIn } from '../../src/core/pii/index.js';
import type { Detector } from '../../src/core/pii/index.js';
import { timeInterleaved } from '../timing.js';
import type { Timing } from '../timing.js';
import { table } from './report.js';
import { sessionTexts } from './session-texts.js';

/** The seed of the generated session corpus (the one `npm run bench` uses). */
const SESSION_SEED = 42;

export const TARGET_BYTES = 8e6;
export const RUNS = 5;
const CHUNK_BYTES = 64 * 1024;

export const bytesOf = (texts: readonly string[]) =>
  texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0);

function isJsonText(t: string): boolean {
  if (!/^\s*[[{]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false; // `[default]` of an INI file
  }
}

/** The texts repeated until they weigh at least TARGET_BYTES. */
function repeated(texts: readonly string[]): string[] {
  const times = Math.max(1, Math.ceil(TARGET_BYTES / bytesOf(texts)));
  return Array.from({ length: times }, () => texts).flat();
}

/** The texts joined by newlines into plain-text chunks of about CHUNK_BYTES. */
function chunks(texts: readonly string[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const t of texts) {
    current.push(t);
    size += t.length + 1;
    if (size >= CHUNK_BYTES) {
      out.push(current.join('\n'));
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

function scanAll(texts: readonly string[], detectors: readonly Detector[]): number {
  let n = 0;
  for (const t of texts) n += findPiiIn(t, detectors, []).length;
  return n;
}

interface Rate {
  median: number;
  min: number;
  max: number;
  cpu: number;
}

function rate(bytes: number, t: Timing): Rate {
  const mb = bytes / 1e6;
  return {
    median: mb / (t.medianMs / 1000),
    min: mb / (t.maxMs / 1000),
    max: mb / (t.minMs / 1000),
    cpu: mb / (t.cpuMedianMs / 1000),
  };
}

export interface SpeedResult {
  /** MB/s of the goal's workload: findPiiIn with the default policy's detectors over session texts. */
  mbps: number;
  /** The same over the labelled set, where every text holds PII (the costly case). */
  denseMbps: number;
  markdown: string;
}

export async function measureSpeed(
  allTexts: readonly string[],
  defaults: readonly Detector[],
  optIn: readonly Detector[] | undefined,
): Promise<SpeedResult> {
  const texts = repeated(allTexts);
  const jsonTexts = repeated(allTexts.filter(isJsonText));
  const chunked = chunks(texts);
  const bytes = bytesOf(texts);
  const nd = `${defaults.length} default detectors`;
  const ssnLike = /\d{3}-\d{2}-\d{4}/g;

  const sessions = sessionTexts(SESSION_SEED, TARGET_BYTES);
  const sessionBytes = bytesOf(sessions);
  const workloads: Record<string, () => unknown> = {
    session: () => scanAll(sessions, defaults),
    scan: () => scanAll(texts, defaults),
    chunks: () => scanAll(chunked, defaults),
    indexOf: () => texts.reduce((n, t) => n + t.indexOf('@'), 0),
    regex: () => texts.reduce((n, t) => n + (t.match(ssnLike)?.length ?? 0), 0),
    jsonParse: () => jsonTexts.reduce((n, t) => n + Object.keys(JSON.parse(t) as object).length, 0),
  };
  if (optIn) workloads.scanOptIn = () => scanAll(texts, optIn);
  const timed = await timeInterleaved(workloads, { runs: RUNS, warmup: 1 });
  const get = (name: string, b: number) => rate(b, (timed[name] as { timing: Timing }).timing);
  const row = (label: string, name: string, b: number) => {
    const r = get(name, b);
    return [
      label,
      `${(b / 1e6).toFixed(1)} MB`,
      r.median.toFixed(1),
      `${r.min.toFixed(1)}–${r.max.toFixed(1)}`,
      r.cpu.toFixed(1),
    ];
  };
  const rows = [
    row(
      `\`findPiiIn\`, ${nd}, every text of a generated session corpus (seed ${SESSION_SEED}, ${sessions.length} texts; **the goal**)`,
      'session',
      sessionBytes,
    ),
    row(`\`findPiiIn\`, ${nd}, one call per text of the labelled set (PII in every text)`, 'scan', bytes),
  ];
  if (optIn)
    rows.push(row(`\`findPiiIn\`, defaults + ${optIn.length - defaults.length} opt-in`, 'scanOptIn', bytes));
  rows.push(
    row(
      `\`findPiiIn\`, ${nd}, the same texts joined into ${chunked.length} plain-text chunks of ~64 KB`,
      'chunks',
      bytes,
    ),
    row("baseline: `text.indexOf('@')`", 'indexOf', bytes),
    row('baseline: one regex `/\\d{3}-\\d{2}-\\d{4}/g`', 'regex', bytes),
    row('baseline: `JSON.parse` of the JSON texts only', 'jsonParse', bytesOf(jsonTexts)),
  );

  // What each default detector costs alone (and the JSON literal pass with no detector at all).
  // A quarter of the bytes keeps the whole run well under a minute on a loaded machine.
  const part = texts.slice(0, Math.ceil(texts.length / 4));
  const partBytes = bytesOf(part);
  const alone: Record<string, () => unknown> = { none: () => scanAll(part, []) };
  for (const d of defaults) alone[d.type] = () => scanAll(part, [d]);
  const aloneTimed = await timeInterleaved(alone, { runs: 3, warmup: 1 });
  const aloneRows = Object.keys(alone).map((name) => {
    const t = (aloneTimed[name] as { timing: Timing }).timing;
    const r = rate(partBytes, t);
    const label = name === 'none' ? '(no detector: the JSON literal pass only)' : name;
    return [label, r.median.toFixed(1), r.cpu.toFixed(1), t.medianMs.toFixed(0)];
  });

  const markdown = [
    table(['workload', 'bytes', 'MB/s (median)', `range of ${RUNS} runs`, 'MB/s of CPU time'], rows),
    '',
    `The set's ${allTexts.length} texts repeated to ${(bytes / 1e6).toFixed(1)} MB (MB = 10^6 bytes of UTF-8); median ` +
      `of ${RUNS} timed runs after 1 warm-up, the workloads interleaved so that a slow spell of a shared machine ` +
      'hits them alike. The chunked row scans the same bytes in few large texts: the gap to the goal row is the ' +
      'cost per call (and the JSON path), not per byte.',
    '',
    `Each default detector alone (\`findPiiIn\` with only it; median of 3 runs over ${(partBytes / 1e6).toFixed(1)} MB of the same texts):`,
    '',
    table(['detector', 'MB/s', 'MB/s of CPU time', 'ms per run'], aloneRows),
  ].join('\n');
  return { mbps: get('session', sessionBytes).median, denseMbps: get('scan', bytes).median, markdown };
}
