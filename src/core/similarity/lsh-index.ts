// LSH buckets over entries numbered in chronological order, queried newest first: dedup wants the
// LATEST matching item, so it can stop at the first verified candidate.

export class LshIndex {
  /** One map per band: bucket key → entry numbers in ascending order. */
  private readonly buckets: Map<number, number[]>[];
  private readonly keys: readonly Uint32Array[];

  /** `keys[entry][band]`; entries must be numbered in chronological order. */
  constructor(keys: readonly Uint32Array[], bands: number) {
    this.keys = keys;
    this.buckets = Array.from({ length: bands }, () => new Map<number, number[]>());
    keys.forEach((entryKeys, entry) => {
      entryKeys.forEach((key, band) => {
        const bucket = this.buckets[band]!;
        const entries = bucket.get(key);
        if (entries) entries.push(entry);
        else bucket.set(key, [entry]);
      });
    });
  }

  /**
   * Every later entry that shares a bucket with `entry`, each once, newest first: a k-way merge of
   * the entry's buckets, which are already sorted.
   */
  *newerCandidates(entry: number): Generator<number, void, undefined> {
    const lists = Array.from(this.keys[entry] ?? [], (key, band) => this.buckets[band]!.get(key) ?? []);
    const heads = lists.map((list) => list.length - 1);
    let previous = -1;
    for (;;) {
      let bestBand = -1;
      let best = entry;
      heads.forEach((head, band) => {
        const value = lists[band]![head] ?? -1;
        if (value > best) {
          best = value;
          bestBand = band;
        }
      });
      if (bestBand < 0) return;
      heads[bestBand] = (heads[bestBand] ?? 0) - 1;
      if (best !== previous) yield best;
      previous = best;
    }
  }
}
