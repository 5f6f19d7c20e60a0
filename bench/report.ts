// The benchmark table (markdown) and the goal verdicts of issue 3. Goals are judged on the
// fresh-cache pipeline (what a CI run pays) and on wall-clock medians; CPU-time figures are shown
// beside them because on a shared machine they leave out the time spent waiting for a core.
import os from 'node:os';
import type { MemoryResults, SpeedResults, Throughput } from './results.js';

export interface Row {
  measurement: string;
  value: string;
  goal: string;
  /** undefined: informational, no goal. */
  met?: boolean;
}

export const GOALS = {
  /** a takes at most as long as b. */
  pipelineOverTokenizer: 1,
  /** c takes at least 1.5 times as long as a. */
  speedupOverLangChain: 1.5,
  /** Per-message time of 10,000 messages ÷ that of 1,000. */
  scalingRatio: 1.5,
  peakRssMb: 300,
} as const;

function mbps(t: Throughput): string {
  return (
    `${t.mbps.toFixed(2)} MB/s (runs ${t.mbpsMin.toFixed(2)}–${t.mbpsMax.toFixed(2)}, ` +
    `spread ${t.timing.spreadPct.toFixed(0)}%; CPU time: ${t.cpuMbps.toFixed(2)} MB/s)`
  );
}

function ratio(x: number): string {
  return `${x.toFixed(2)}×`;
}

export function rows(speed: SpeedResults, mem: MemoryResults | undefined): Row[] {
  const a = speed.fullFresh.timing.medianMs;
  const aShared = speed.fullShared.timing.medianMs;
  const b = speed.tokenizerOnly.timing.medianMs;
  const c = speed.langchain.timing.medianMs;
  const cpu = {
    a: speed.fullFresh.timing.cpuMedianMs,
    b: speed.tokenizerOnly.timing.cpuMedianMs,
    c: speed.langchain.timing.cpuMedianMs,
  };
  const out: Row[] = [
    {
      measurement: 'a. full pipeline (read + stabilize + validate), fresh cache per transcript',
      value: mbps(speed.fullFresh),
      goal: '',
    },
    {
      measurement: 'a. full pipeline, one cache shared across the corpus',
      value: mbps(speed.fullShared),
      goal: '',
    },
    {
      measurement: 'b. tokenizer only (read + count every artifact once, no cache)',
      value: mbps(speed.tokenizerOnly),
      goal: '',
    },
    {
      measurement: 'a ÷ b, time',
      value: `${ratio(a / b)} (CPU time: ${ratio(cpu.a / cpu.b)}; shared cache: ${ratio(aShared / b)})`,
      goal: `≤ ${ratio(GOALS.pipelineOverTokenizer)}`,
      met: a / b <= GOALS.pipelineOverTokenizer,
    },
    {
      measurement: 'c. LangChain trimMessages (read + convert + trim)',
      value: mbps(speed.langchain),
      goal: '',
    },
    {
      measurement: "c'. LangChain trimMessages only (messages converted beforehand)",
      value: mbps(speed.langchainTrimOnly),
      goal: '',
    },
    {
      measurement: 'a speed-up over c (c time ÷ a time)',
      value:
        `${ratio(c / a)} (CPU time: ${ratio(cpu.c / cpu.a)}; shared cache: ${ratio(c / aShared)}; ` +
        `over c': ${ratio(speed.langchainTrimOnly.timing.medianMs / a)})`,
      goal: `≥ ${ratio(GOALS.speedupOverLangChain)}`,
      met: c / a >= GOALS.speedupOverLangChain,
    },
  ];
  for (const s of speed.scaling) {
    out.push({
      measurement: `d. a on one transcript of ${s.messages.toLocaleString('en-US')} messages (${(s.bytes / 1e6).toFixed(1)} MB)`,
      value: `${s.usPerMessage.toFixed(1)} µs/message (spread ${s.timing.spreadPct.toFixed(0)}%; CPU time: ${s.cpuUsPerMessage.toFixed(1)} µs)`,
      goal: '',
    });
  }
  const [small, large] = [speed.scaling[0], speed.scaling[speed.scaling.length - 1]];
  if (small && large && small !== large) {
    const r = large.usPerMessage / small.usPerMessage;
    out.push({
      measurement: `d. time per message, ${large.messages.toLocaleString('en-US')} ÷ ${small.messages.toLocaleString('en-US')}`,
      value: `${ratio(r)} (CPU time: ${ratio(large.cpuUsPerMessage / small.cpuUsPerMessage)})`,
      goal: `≤ ${ratio(GOALS.scalingRatio)}`,
      met: r <= GOALS.scalingRatio,
    });
  }
  if (mem) {
    out.push({
      measurement: 'e. peak RSS, full pipeline over the corpus (child process, maxRSS)',
      value: `${mem.peakRssMb.toFixed(0)} MB (after loading: ${mem.baselineRssMb.toFixed(0)} MB; peak heap used ${mem.peakHeapUsedMb.toFixed(0)} MB)`,
      goal: `< ${GOALS.peakRssMb} MB`,
      met: mem.peakRssMb < GOALS.peakRssMb,
    });
  }
  return out;
}

export function markdownTable(table: readonly Row[]): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  const lines = ['| measurement | value | goal | met? |', '|---|---|---|---|'];
  for (const r of table) {
    const met = r.met === undefined ? '' : r.met ? 'yes' : 'no';
    lines.push(`| ${cell(r.measurement)} | ${cell(r.value)} | ${cell(r.goal)} | ${met} |`);
  }
  return lines.join('\n');
}

export function corpusLine(speed: SpeedResults, seed: number): string {
  const c = speed.corpus;
  const formats = Object.entries(c.formats).map(([f, n]) => `${f} ${n}`);
  const cpus = os.cpus();
  return (
    `Corpus: ${c.files} transcripts, ${(c.bytes / 1e6).toFixed(2)} MB, ${c.artifacts} artifacts ` +
    `(${formats.join(', ')}); seed ${seed}; Node ${process.version}, ${cpus.length} CPUs ` +
    `(${cpus[0]?.model ?? 'unknown'}); median of ${speed.runs} interleaved runs after ${speed.warmup} warm-up.`
  );
}

/** What the timed runs produced: a fast run that failed every transcript is not a fast pipeline. */
export function sanityLine(speed: SpeedResults): string {
  const fresh = speed.fullFresh.tally as { failedChecks?: number; failedByCheck?: Record<string, number> };
  const failed = Object.entries(fresh.failedByCheck ?? {}).map(([k, n]) => `${k} ${n}`);
  const lc = speed.langchain.tally;
  return (
    `Sanity: ${fresh.failedChecks ?? 0} of ${speed.corpus.files} stabilized transcripts fail a check ` +
    `(${failed.join(', ') || 'none'}); LangChain kept ${String(lc['messagesKept'])} of ` +
    `${String(lc['messagesIn'])} messages.`
  );
}
