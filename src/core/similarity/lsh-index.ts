// LSH buckets over entries numbered in chronological order, queried newest first: dedup wants the
// LATEST matching item, so it can stop at the first verified candidate. Plain loops rather than
// forEach/map callbacks: this runs once per band per text.

export class LshIndex {
  /**
   * One map per band: bucket key → entry numbers in ascending order. Most buckets hold one entry,
   * stored as the number itself: an array per bucket was most of the index's memory (21 bands ×
   * 100,000 texts).
   */
  private readonly buckets: Map<number, number | number[]>[];
  private readonly keys: readonly Uint32Array[];

  /** `keys[entry][band]`; entries must be numbered in chronological order. */
  constructor(keys: readonly Uint32Array[], bands: number) {
    this.keys = keys;
    this.buckets = [];
    for (let band = 0; band < bands; band++) this.buckets.push(new Map<number, number | number[]>());
    for (let entry = 0; entry < keys.length; entry++) {
      const entryKeys = keys[entry]!;
      for (let band = 0; band < entryKeys.length; band++) {
        const bucket = this.buckets[band]!;
        const key = entryKeys[band]!;
        const entries = bucket.get(key);
        if (entries === undefined) bucket.set(key, entry);
        else if (typeof entries === 'number') bucket.set(key, [entries, entry]);
        else entries.push(entry);
      }
    }
  }

  /**
   * Every later entry that shares a bucket with `entry`, each once, newest first: a k-way merge of
   * the entry's buckets, which are already sorted.
   */
  *newerCandidates(entry: number): Generator<number, void, undefined> {
    const entryKeys = this.keys[entry] ?? new Uint32Array(0);
    const lists: number[][] = [];
    const heads: number[] = [];
    for (let band = 0; band < entryKeys.length; band++) {
      const list = this.buckets[band]?.get(entryKeys[band]!);
      // A bucket of one holds only `entry` itself: no later candidate there.
      if (list === undefined || typeof list === 'number') continue;
      lists.push(list);
      heads.push(list.length - 1);
    }
    let previous = -1;
    for (;;) {
      let bestBand = -1;
      let best = entry;
      for (let band = 0; band < lists.length; band++) {
        const value = lists[band]![heads[band]!] ?? -1;
        if (value > best) {
          best = value;
          bestBand = band;
        }
      }
      if (bestBand < 0) return;
      heads[bestBand]!--;
      if (best !== previous) yield best;
      previous = best;
    }
  }
}
