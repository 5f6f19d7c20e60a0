// Shapes exchanged between the measuring child processes (bench/measure.ts) and bench/run.ts,
// and written to .bench/results.json.
import type { Timing } from './timing.js';

export interface Throughput {
  timing: Timing;
  /** Corpus bytes / median time. */
  mbps: number;
  /** From the slowest and the fastest timed run. */
  mbpsMin: number;
  mbpsMax: number;
  /** Corpus bytes / median process CPU time. */
  cpuMbps: number;
  /** Sanity figures of the last run (see workloads.ts, langchain.ts). */
  tally: Record<string, unknown>;
}

export interface Scaling {
  file: string;
  messages: number;
  bytes: number;
  timing: Timing;
  /** Median time / messages, in microseconds. */
  usPerMessage: number;
  /** Median CPU time / messages, in microseconds. */
  cpuUsPerMessage: number;
}

export interface SpeedResults {
  corpus: { files: number; bytes: number; artifacts: number; formats: Record<string, number> };
  runs: number;
  warmup: number;
  fullFresh: Throughput;
  fullShared: Throughput;
  tokenizerOnly: Throughput;
  langchain: Throughput;
  langchainTrimOnly: Throughput;
  langchainOptions: Record<string, unknown>;
  scaling: Scaling[];
}

export interface MemoryResults {
  files: number;
  bytes: number;
  /** RSS once modules and the tokenizer are loaded, before the first transcript. */
  baselineRssMb: number;
  /** process.resourceUsage().maxRSS: the peak of the whole process. */
  peakRssMb: number;
  /** Largest process.memoryUsage().rss seen after a transcript. */
  sampledPeakRssMb: number;
  peakHeapUsedMb: number;
}

export function throughput(bytes: number, timing: Timing, tally: Record<string, unknown>): Throughput {
  const mb = bytes / 1e6;
  return {
    timing,
    mbps: mb / (timing.medianMs / 1000),
    mbpsMin: mb / (timing.maxMs / 1000),
    mbpsMax: mb / (timing.minMs / 1000),
    cpuMbps: mb / (timing.cpuMedianMs / 1000),
    tally,
  };
}
