// Repeated, interleaved timing of several workloads. Warm-up rounds first (JIT, lazily loaded
// tables), then timed rounds; in each round every workload runs once, starting from a different
// one each round, so a slow spell of a shared machine hits all workloads alike and the ratios
// between them stay meaningful. Wall-clock and process CPU time are both recorded: on a loaded
// machine CPU time leaves out the time spent waiting for a core.

export interface Timing {
  /** Wall-clock time of every timed run, in the order they ran (milliseconds). */
  runsMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** (max − min) / median, as a percentage. */
  spreadPct: number;
  /** Process CPU time (user + system, all threads) of every timed run (milliseconds). */
  cpuRunsMs: number[];
  cpuMedianMs: number;
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

export function summarize(runsMs: readonly number[], cpuRunsMs: readonly number[]): Timing {
  const med = median(runsMs);
  const minMs = Math.min(...runsMs);
  const maxMs = Math.max(...runsMs);
  return {
    runsMs: [...runsMs],
    medianMs: med,
    minMs,
    maxMs,
    spreadPct: ((maxMs - minMs) / med) * 100,
    cpuRunsMs: [...cpuRunsMs],
    cpuMedianMs: median(cpuRunsMs),
  };
}

export interface Timed {
  timing: Timing;
  /** The last run's return value: kept so the engine cannot discard the work as dead code. */
  sink: unknown;
}

/** Times every workload `opts.runs` times, interleaved, after `opts.warmup` untimed rounds. */
export async function timeInterleaved<K extends string>(
  workloads: Record<K, () => unknown>,
  opts: TimeOptions,
): Promise<Record<K, Timed>> {
  const names = Object.keys(workloads) as K[];
  const wall = new Map<K, number[]>(names.map((n) => [n, []]));
  const cpu = new Map<K, number[]>(names.map((n) => [n, []]));
  const sinks = new Map<K, unknown>();
  for (let round = 0; round < opts.warmup + opts.runs; round++) {
    const timed = round >= opts.warmup;
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as K;
      opts.reset?.();
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      sinks.set(name, await workloads[name]());
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpuStart);
      if (timed) {
        wall.get(name)?.push(elapsed);
        cpu.get(name)?.push((used.user + used.system) / 1000);
      }
    }
  }
  const out = {} as Record<K, Timed>;
  for (const name of names) {
    out[name] = { timing: summarize(wall.get(name) ?? [], cpu.get(name) ?? []), sink: sinks.get(name) };
  }
  return out;
}
