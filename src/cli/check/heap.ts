// How much memory a golden run may hold beside its live set (issue 32: `check --ci` under 300 MB
// at any corpus size). Two knobs, both about garbage, neither about results:
//
// - V8 lets a large heap grow to up to 4× what the last full collection kept before collecting
//   again. A run makes garbage at a high rate (every transcript is parsed, stabilized, validated and
//   serialized), so with ~50 MB live the heap reached ~240 MB and RSS ~400 MB (120 MB corpus,
//   `--jobs 1`, `--trace-gc`). `--heap-growing-percent` fixes that factor; V8 reads it when it
//   resizes, so setting it at run time takes effect (unlike `--max-old-space-size`). It is
//   process-wide: worker threads follow it too. 20 MB benchmark corpus, `--jobs 1`: peak RSS 280 →
//   ~205 MB for up to ~10% more time (a noisy 2-core machine). Keeping the young generation at its first size as well
//   (`--semi-space-growth-factor=1`) saved ~20 MB more for another ~6% of time, and a worker makes
//   the main thread's young generation grow to 32 MB whatever it says: left at V8's default.
// - Worker threads get `resourceLimits`: a worker that needs more (a very large transcript) dies
//   with ERR_WORKER_OUT_OF_MEMORY and its file is run again on the main thread (golden-jobs.ts),
//   so the result is the one `--jobs 1` gives.
import v8 from 'node:v8';

/**
 * The V8 flags set at run time, each unless the user set it: the old generation may grow to
 * (1 + 50 / 100) × what the last full collection kept.
 */
export const HEAP_FLAGS: Readonly<Record<string, string>> = {
  'heap-growing-percent': '50',
};

/** The old and young generation caps of a golden run's worker thread, in MB. */
export const WORKER_RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: 192,
  maxYoungGenerationSizeMb: 8,
} as const;

let bounded = false;

/** True when node was started with `flag` (either spelling) on its command line or in NODE_OPTIONS. */
export function userSet(flag: string, execArgv: readonly string[], nodeOptions: string): boolean {
  const spelled = [flag, flag.replace(/-/g, '_')];
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) =>
    spelled.some((s) => arg === `--${s}` || arg.startsWith(`--${s}=`)),
  );
}

/**
 * Bounds the heap's growth for the rest of this process, once; a flag the user gave node
 * (`node --heap-growing-percent=N`, NODE_OPTIONS) is left as it is. Collections come more often;
 * on the shared 2-core machine the run's time stayed within its noise.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): void {
  if (bounded) return;
  bounded = true;
  for (const [flag, value] of Object.entries(HEAP_FLAGS)) {
    if (!userSet(flag, execArgv, nodeOptions)) v8.setFlagsFromString(`--${flag}=${value}`);
  }
}
