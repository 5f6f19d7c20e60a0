// fast-check settings shared by every property test. Each run draws a new seed (CI included), so
// the properties keep exploring new cases, and prints it once per test file; FC_SEED=<seed> replays
// a run, FC_RUNS=<n> multiplies the runs. A failure's seed (and path) goes into a regression test
// next to the property.
import type { Parameters } from 'fast-check';

const pinned = process.env['FC_SEED'];
const SEED = pinned !== undefined && pinned !== '' ? Number(pinned) : (Math.random() * 2 ** 31) | 0;
let announced = false;

/** The seed of this run, printed the first time it is asked for. */
export function fcSeed(): number {
  if (!announced) {
    announced = true;
    const how = pinned ? 'from FC_SEED' : 'new this run';
    console.log(`fast-check seed ${SEED} (${how}); replay with FC_SEED=${SEED}`);
  }
  return SEED;
}

/** FC_RUNS=<n> runs every property n times as often as it asks for (a deeper search before a push). */
const SCALE = Number(process.env['FC_RUNS'] ?? '1') || 1;

export function fcOptions<T>(numRuns = 1000): Parameters<T> {
  return { numRuns: Math.max(1, Math.round(numRuns * SCALE)), seed: fcSeed() };
}
