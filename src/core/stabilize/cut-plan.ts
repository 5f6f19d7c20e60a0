// The stable cut's plan (DESIGN §4 stage 9, "stable across calls"; issue 27), decided before the
// cutting stages from the history as recorded, so that the same history always gives the same plan
// and a longer history the same plan or a later one:
// - `at`: the cut point (on recorded sizes; the budget stage keeps from a grid point on actual sizes), the earliest point of a fixed grid (multiples of `step` tokens of the history)
//   from which the history fits the budget with the must-keep artifacts before it. It moves forward
//   only when the history outgrows the budget, by whole steps: the low-water mark.
// - `freeze`: the length the history had when the cut reached `at`. What came after is sent as
//   recorded until the next cut: stale results, copies and older verbose outputs are cleaned up only
//   among the artifacts before it, so each call repeats the previous request as a prefix. The cleanup
//   the next cut does is paid once, when the prefix is re-sent anyway.

export interface CutPlan {
  /** Grid position (tokens of the recorded history) where the kept history starts. */
  at: number;
  /** Index of the first artifact appended since the cut reached `at`. */
  freeze: number;
}

export interface CutInput {
  /** Each artifact's start in the history, in tokens, and the total at the end (n + 1 entries). */
  positions: readonly number[];
  /** Must-keep artifacts: they stay wherever they are, so before the cut they still count. */
  must: readonly boolean[];
  /** Artifacts out of play whatever the budget (normalize, scope, summaries): they count nothing. */
  out: readonly boolean[];
  budget: number;
  step: number;
}

function size(input: CutInput, i: number): number {
  if (input.out[i] === true) return 0;
  return (input.positions[i + 1] ?? 0) - (input.positions[i] ?? 0);
}

/** The cut point for the first `length` artifacts. */
function cutFor(input: CutInput, length: number): number {
  const { positions, step, budget } = input;
  // Everything from grid point g on, plus the must-keep before it.
  let suffix = 0;
  for (let i = 0; i < length; i++) suffix += size(input, i);
  let mustBefore = 0;
  let g = 0;
  let i = 0;
  const end = positions[length] ?? 0;
  for (;;) {
    while (i < length && (positions[i] ?? 0) < g) {
      const s = size(input, i);
      suffix -= s;
      if (input.must[i] === true) mustBefore += s;
      i++;
    }
    if (mustBefore + suffix <= budget || g >= end) return g;
    g += step;
  }
}

export function planCut(input: CutInput): CutPlan {
  const n = input.must.length;
  const at = cutFor(input, n);
  if (at === 0) return { at, freeze: 0 };
  // No grid point inside the history lets it fit (say the must-keep alone is over the budget): the
  // freeze found below would only say where the last grid line falls, which moves with artifacts out
  // of play (an expired summary) that the stabilized context no longer holds, so a second pass, still
  // over budget, cleaned up more. Clean up the whole history: stabilizing again then changes nothing.
  if (at >= (input.positions[n] ?? 0)) return { at, freeze: n };
  // The cut only moves forward as the history grows: the first length that reached `at`.
  let lo = 1;
  let hi = n;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (cutFor(input, mid) >= at) hi = mid;
    else lo = mid + 1;
  }
  return { at, freeze: lo };
}
