// One synthetic transcript in the native model, deterministically from a seed.

import type { Artifact } from '../../../src/core/types.js';
import { codingEpisode, openCoding } from './archetypes/coding.js';
import { filler, newState } from './archetypes/common.js';
import { openSupport, supportEpisode } from './archetypes/support.js';
import { TranscriptBuilder } from './builder.js';
import type { PlantedPii } from './pii.js';
import { seededFaker } from './pii.js';
import { Rng, deriveSeed } from './rng.js';
import { FILLER_SENTENCES, SUPPORT_SENTENCES } from './text/vocab.js';

export const ARCHETYPES = ['coding', 'support'] as const;
export type Archetype = (typeof ARCHETYPES)[number];

export interface TranscriptOptions {
  /** Default: drawn from the seed. */
  archetype?: Archetype;
  /** Exact artifact count (steps that would overshoot are replaced by single messages). */
  messages?: number;
  /** Approximate native JSONL size in bytes; generation stops at the first episode boundary past it. */
  targetBytes?: number;
  /** File name recorded in each artifact's `source` (positions are those of the native JSONL). */
  file?: string;
  /** Force (true) or forbid (false) rising `pressure` values; default: half of the sessions. */
  pressure?: boolean;
}

/** Ground truth for a generated summary; the turn counter is the artifact position. */
export interface SummaryTruth {
  id: string;
  created_at: number;
  ttl: number;
  /** Older than its ttl at the last artifact: (last position − created_at) > ttl. */
  expired: boolean;
  /** Cites an id that does not exist in the transcript. */
  missingProvenance: boolean;
}

export interface GeneratedTranscript {
  seed: number;
  archetype: Archetype;
  artifacts: Artifact[];
  planted: PlantedPii[];
  summaries: SummaryTruth[];
  /** Size of the native JSONL serialization in UTF-8 bytes. */
  nativeBytes: number;
}

const DEFAULT_MESSAGES = 80;

export function generateTranscript(seed: number, opts: TranscriptOptions = {}): GeneratedTranscript {
  const rng = new Rng(seed);
  const archetype = opts.archetype ?? rng.pick(ARCHETYPES);
  const limits =
    opts.messages === undefined && opts.targetBytes === undefined
      ? { messages: DEFAULT_MESSAGES }
      : { messages: opts.messages, bytes: opts.targetBytes };
  const b = new TranscriptBuilder(rng, opts.file ?? 'generated.jsonl', limits);
  const prose = archetype === 'coding' ? FILLER_SENTENCES : SUPPORT_SENTENCES;
  const state = newState(b, rng, seededFaker(deriveSeed(seed, 'faker')), prose);

  if (archetype === 'coding') openCoding(state);
  else openSupport(state);
  while (!b.done()) {
    const progressed = archetype === 'coding' ? codingEpisode(state) : supportEpisode(state);
    // An episode that no longer fits under the message limit: land on the count one message at a time.
    if (!progressed && limits.messages !== undefined) filler(state);
  }

  const pressure = opts.pressure ?? rng.chance(0.5);
  if (pressure) addPressure(b.artifacts, rng.next());
  return {
    seed,
    archetype,
    artifacts: b.artifacts,
    planted: b.planted,
    summaries: summaryTruth(b.artifacts),
    nativeBytes: pressure ? nativeBytes(b.artifacts) : b.size,
  };
}

/** Host-reported pressure on assistant messages, rising from 0 to about 1 (never falling). */
function addPressure(artifacts: Artifact[], jitter: number): void {
  const n = artifacts.length;
  const peak = 0.9 + 0.1 * jitter;
  let level = 0;
  artifacts.forEach((a, i) => {
    if (a.kind !== 'assistant') return;
    level = Math.max(level, Math.min(1, (peak * i) / Math.max(1, n - 1)));
    a.pressure = Math.round(level * 100) / 100;
  });
}

function summaryTruth(artifacts: readonly Artifact[]): SummaryTruth[] {
  const ids = new Set(artifacts.map((a) => a.id));
  const last = artifacts.length - 1;
  return artifacts
    .filter((a) => a.kind === 'summary')
    .map((a) => {
      const createdAt = a.created_at ?? 0;
      const ttl = a.ttl ?? 0;
      return {
        id: a.id,
        created_at: createdAt,
        ttl,
        expired: last - createdAt > ttl,
        missingProvenance: (a.provenance ?? []).some((p) => !ids.has(p)),
      };
    });
}

function nativeBytes(artifacts: readonly Artifact[]): number {
  let n = 0;
  for (const { source: _source, ...onDisk } of artifacts)
    n += Buffer.byteLength(JSON.stringify(onDisk), 'utf8') + 1;
  return n;
}
