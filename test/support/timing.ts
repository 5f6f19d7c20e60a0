// Timing in linearity tests: the fastest of a few runs is the one least disturbed by whatever else
// the shared machine is doing, so ratios of fastest runs are what the tests compare.

/** Milliseconds of the fastest of `times` runs of `run`. */
export function fastestRun(run: () => unknown, times = 5): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}
