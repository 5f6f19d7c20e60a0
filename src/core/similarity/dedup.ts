// Exact and near-duplicate detection for the dedup stage (DESIGN §4 stage 6), without comparing
// all pairs:
//  1. normalize every text; identical normalized texts form one exact group (a Map lookup);
//  2. only the latest member of each group enters MinHash/LSH, so thousands of identical
//     boilerplate outputs cost one signature and never fill a bucket;
//  3. LSH candidates are examined newest first; one is accepted only after the exact Jaccard of the
//     shingle sets is computed, so a reported near duplicate always has true Jaccard ≥ the
//     threshold, whatever the MinHash estimate was. Recall is probabilistic: a pair at the
//     threshold is missed with probability ~1e-6 (see minhash.ts), or when a text has more than
//     MAX_CANDIDATES_PER_ITEM later candidates that fail verification before its match.
//
// Semantics, which the stabilizer relies on:
//  - an item is reported when a LATER item is an exact or near duplicate of it; `duplicate_of` is
//    the latest such item. Chains are not followed: with A≈B, B≈C and A≉C (A, B, C in that order),
//    A points at B and B at C. `duplicate_of` may therefore name an item that is itself reported;
//    follow the chain to reach the copy that stays.
//  - texts that are empty after normalization (e.g. an artifact that only holds images) are never
//    duplicates: there is no text to compare.
//  - texts shorter than `minChars` code points are only exact duplicates; texts of the two shingle
//    modes (see shingles.ts) are never near duplicates of each other.
//  - `similarity: 1` means exact duplicates only.

import { LshIndex } from './lsh-index.js';
import { bandKeys, lshParams, matchingRows, minMatchingRows } from './minhash.js';
import { hashedJaccard, jaccard, shingleSet } from './shingles.js';
import { DedupCache, hashesOf, signatureOf } from './text-features.js';
import type { TextFeatures } from './text-features.js';

export { DedupCache } from './text-features.js';

export interface DedupItem {
  id: string;
  text: string;
}

export interface DuplicateFinding {
  id: string;
  /** The latest later item that truly matches this one. */
  duplicate_of: string;
  /** 1 for exact duplicates, otherwise the exact Jaccard similarity of the shingle sets. */
  similarity: number;
  /** True when the normalized texts are identical. */
  exact: boolean;
}

export interface DedupOptions {
  /** Jaccard threshold in (0, 1]; 1 = exact duplicates only. */
  similarity: number;
  /** Texts shorter than this many code points after normalization are only exact-deduplicated. Default 32. */
  minChars?: number;
  /**
   * Reuse the per-text work of earlier calls (normalization, signatures): pass the
   * same cache to calls over overlapping texts. The findings are the same with or without it.
   */
  cache?: DedupCache;
}

export const DEFAULT_MIN_CHARS = 32;

/**
 * Later candidates examined per text before giving up. Reached only when many later texts are
 * similar but below the threshold (a polling loop whose output drifts); it bounds the cost there
 * at O(n · MAX_CANDIDATES_PER_ITEM) and can only miss a duplicate, never report a false one.
 */
export const MAX_CANDIDATES_PER_ITEM = 256;

/** Shingle-hash Jaccard may differ from the true one only through 32-bit hash collisions. */
const HASHED_JACCARD_SLACK = 0.02;

/** Items whose normalized texts are identical, in chronological order. */
interface ExactGroup {
  features: TextFeatures;
  members: number[];
  /** Index of the latest member: the group's representative. */
  last: number;
  shingles?: Set<string>;
}

/** The latest later group that truly matches a group. */
interface NearMatch {
  last: number;
  similarity: number;
}

function checkOptions(opts: DedupOptions): number {
  if (!(opts.similarity > 0 && opts.similarity <= 1)) {
    throw new RangeError('dedup similarity must be a number greater than 0 and at most 1.');
  }
  const minChars = opts.minChars ?? DEFAULT_MIN_CHARS;
  if (!(minChars >= 0 && Number.isFinite(minChars))) {
    throw new RangeError('dedup minChars must be a finite number of at least 0.');
  }
  return minChars;
}

function exactGroups(items: readonly DedupItem[], cache: DedupCache): ExactGroup[] {
  const byText = new Map<string, ExactGroup>();
  const groups: ExactGroup[] = [];
  items.forEach((item, index) => {
    const text = cache.normalize(item.text);
    if (text === '') return;
    const group = byText.get(text);
    if (group) {
      group.members.push(index);
      group.last = index;
    } else {
      const created: ExactGroup = { features: cache.featuresOf(text), members: [index], last: index };
      byText.set(text, created);
      groups.push(created);
    }
  });
  return groups;
}

function shinglesOf(group: ExactGroup): Set<string> {
  group.shingles ??= shingleSet(group.features.text, group.features.mode);
  return group.shingles;
}

/** A group that takes part in near-duplicate search, with its MinHash data. */
interface Representative {
  group: ExactGroup;
  signature: Uint32Array;
  /** Its shingle hashes, once a verification needed them (they die with the call). */
  hashes?: Uint32Array;
}

function repHashes(rep: Representative): Uint32Array {
  rep.hashes ??= hashesOf(rep.group.features);
  return rep.hashes;
}

/**
 * Cheap rejections first (signature agreement, then 32-bit shingle hashes with a slack that only
 * hash collisions could overcome); acceptance always from the exact shingle sets.
 */
function verify(
  a: Representative,
  b: Representative,
  threshold: number,
  minRows: number,
): number | undefined {
  if (a.group.features.mode !== b.group.features.mode) return undefined;
  // The same pair is verified again on every widening of the suffix and every call of a session.
  const known = a.group.features.verified?.get(b.group.features);
  if (known !== undefined && known.threshold === threshold) return known.similarity;
  const similarity = verifyPair(a, b, threshold, minRows);
  (a.group.features.verified ??= new Map()).set(b.group.features, { threshold, similarity });
  return similarity;
}

function verifyPair(
  a: Representative,
  b: Representative,
  threshold: number,
  minRows: number,
): number | undefined {
  if (matchingRows(a.signature, b.signature) < minRows) return undefined;
  if (hashedJaccard(repHashes(a), repHashes(b)) < threshold - HASHED_JACCARD_SLACK) return undefined;
  const similarity = jaccard(shinglesOf(a.group), shinglesOf(b.group));
  return similarity >= threshold ? similarity : undefined;
}

/**
 * For each group, the latest later group whose text truly matches (Jaccard ≥ threshold). LSH
 * candidates are examined newest first and the first verified one wins, so the common case costs
 * one verification per group.
 */
function nearMatches(groups: readonly ExactGroup[], threshold: number): Map<ExactGroup, NearMatch> {
  const params = lshParams(threshold);
  const functions = params.bands * params.rows;
  const minRows = minMatchingRows(threshold, functions);
  const reps: Representative[] = [...groups]
    .sort((a, b) => a.last - b.last)
    .map((group) => ({
      group,
      signature: signatureOf(group.features, functions),
    }));
  const index = new LshIndex(
    reps.map((r) => bandKeys(r.signature, params, r.group.features.mode === 'words' ? 1 : 2)),
    params.bands,
  );

  const matches = new Map<ExactGroup, NearMatch>();
  reps.forEach((rep, r) => {
    let examined = 0;
    for (const candidate of index.newerCandidates(r)) {
      if (++examined > MAX_CANDIDATES_PER_ITEM) break;
      const other = reps[candidate]!;
      const similarity = verify(rep, other, threshold, minRows);
      if (similarity !== undefined) {
        matches.set(rep.group, { last: other.group.last, similarity });
        break;
      }
    }
  });
  return matches;
}

/**
 * Every item that has a LATER item that is an exact or near duplicate of it, in input order;
 * `duplicate_of` is the latest such item. Deterministic: the result depends only on the texts,
 * their order, `similarity` and `minChars` (a cache changes the cost, never the result).
 */
export function findDuplicates(items: readonly DedupItem[], opts: DedupOptions): DuplicateFinding[] {
  const minChars = checkOptions(opts);
  const groups = exactGroups(items, opts.cache ?? new DedupCache());
  const eligible = opts.similarity < 1 ? groups.filter((g) => g.features.length >= minChars) : [];
  const near =
    eligible.length > 1 ? nearMatches(eligible, opts.similarity) : new Map<ExactGroup, NearMatch>();

  const byIndex: (DuplicateFinding | undefined)[] = [];
  for (const group of groups) {
    const match = near.get(group);
    const latest = match?.last ?? group.last;
    const exact = latest === group.last;
    const target = items[latest]!;
    for (const member of group.members) {
      if (member >= latest) continue;
      byIndex[member] = {
        id: items[member]!.id,
        duplicate_of: target.id,
        similarity: exact ? 1 : match!.similarity,
        exact,
      };
    }
  }
  return byIndex.filter((f): f is DuplicateFinding => f !== undefined);
}
