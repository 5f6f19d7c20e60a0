// Repeated timing of one workload: warm-up runs first (JIT, lazily loaded tables), then the timed
// runs, of which the median is the figure and the min–max range the spread.

export interface Timing {
  /** Every timed run, in the order they ran (milliseconds). */
  runsMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** (max − min) / median, as a percentage. */
  spreadPct: number;
}

export interface TimeOptions {
  runs: number;
  warmup: number;
  /** Runs before every run, outside the timed region (e.g. clearing the tokenizer's merge cache). */
  reset?: () => void;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarize(runsMs: readonly number[]): Timing {
  const med = median(runsMs);
  const minMs = Math.min(...runsMs);
  const maxMs = Math.max(...runsMs);
  return { runsMs: [...runsMs], medianMs: med, minMs, maxMs, spreadPct: ((maxMs - minMs) / med) * 100 };
}

/**
 * Times `workload` `runs` times after `warmup` untimed runs. The workload's return value is kept
 * in `sink` so the engine cannot discard the work as dead code.
 */
export async function timeRuns(
  workload: () => unknown,
  opts: TimeOptions,
): Promise<{ timing: Timing; sink: unknown }> {
  let sink: unknown;
  for (let i = 0; i < opts.warmup; i++) {
    opts.reset?.();
    sink = await workload();
  }
  const runsMs: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    opts.reset?.();
    const started = performance.now();
    sink = await workload();
    runsMs.push(performance.now() - started);
  }
  return { timing: summarize(runsMs), sink };
}
