// fast-check settings shared by every property test. CI pins the seed (FC_SEED, set by .ci/run) so a
// failure there is reproducible locally with the same FC_SEED; elsewhere each run explores new cases.
import type { Parameters } from 'fast-check';

export function fcOptions<T>(numRuns = 1000): Parameters<T> {
  const seed = process.env['FC_SEED'];
  return seed !== undefined && seed !== '' ? { numRuns, seed: Number(seed) } : { numRuns };
}
