// Sharding (`--shard i/n`, as in Jest and Playwright): each transcript goes to exactly one shard,
// chosen by a hash of its path, so the split is stable across runs and machines and does not
// depend on which other transcripts exist.
import { murmur3_32 } from '../similarity/hash.js';

export const MAX_SHARDS = 1000;

export interface Shard {
  /** 1-based */
  index: number;
  total: number;
}

export type ParseShardResult = ({ ok: true } & Shard) | { ok: false; reason: string };

/** Parses `i/n` with 1 ≤ i ≤ n ≤ 1000 (plain decimal digits, no signs or spaces). */
export function parseShard(spec: string): ParseShardResult {
  const match = /^(\d{1,7})\/(\d{1,7})$/.exec(spec);
  if (!match) return { ok: false, reason: 'expected the form i/n, e.g. 2/4 (shard 2 of 4)' };
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1 || total > MAX_SHARDS) {
    return { ok: false, reason: `the shard count must be from 1 to ${MAX_SHARDS}` };
  }
  if (index < 1 || index > total) {
    return { ok: false, reason: `the shard index must be from 1 to the shard count (${total}); shards are 1-based` };
  }
  return { ok: true, index, total };
}

/** Whether the transcript at `path` (repo-relative, '/'-separated) belongs to `shard`. */
export function inShard(path: string, shard: Shard): boolean {
  return murmur3_32(path) % shard.total === shard.index - 1;
}
