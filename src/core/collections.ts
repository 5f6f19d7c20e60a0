// Array helpers that stay safe at any length. `push(...xs)` and `Math.max(...xs)` pass every
// element as an argument and throw RangeError (call stack) past about 100,000 of them: a session
// of that many records is within the caps, so code that sees per-artifact lists uses these.

/** Appends `items` to `into`, one by one; returns `into`. */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}

/** The largest value, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty: number): number {
  let out: number | undefined;
  for (const v of values) if (out === undefined || v > out) out = v;
  return out ?? empty;
}

/** The smallest value, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty: number): number {
  let out: number | undefined;
  for (const v of values) if (out === undefined || v < out) out = v;
  return out ?? empty;
}
