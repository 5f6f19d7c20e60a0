// A corpus of synthetic transcripts in mixed formats, sized to a byte target, with the PII
// ground truth of every file expressed in that file's own ids and lines.

import type { PlantedPii } from './pii.js';
import { deriveSeed } from './rng.js';
import { CORPUS_FORMATS, FORMAT_EXTENSIONS, serializeWithRefs } from './serialize/index.js';
import type { CorpusFormat } from './serialize/index.js';
import { ARCHETYPES, generateTranscript } from './transcript.js';
import type { Archetype, SummaryTruth } from './transcript.js';

export interface CorpusOptions {
  seed: number;
  count: number;
  /** Total size of all files in bytes (UTF-8); met within a few percent. */
  targetBytes?: number;
  /** Exact artifact count per transcript (before format mapping). Used when targetBytes is absent. */
  messages?: number;
  /** Formats, assigned round-robin. Default: all. */
  formats?: readonly CorpusFormat[];
  /** Archetypes, drawn per transcript from the seed. Default: all. */
  archetypes?: readonly Archetype[];
}

/** Planted PII located in the serialized file: `id` as the reader assigns it there, `line` 1-based. */
export interface PlantedPiiRef extends PlantedPii {
  id: string;
  line: number;
}

export interface CorpusEntry {
  name: string;
  format: CorpusFormat;
  archetype: Archetype;
  seed: number;
  text: string;
  bytes: number;
  /** Native artifacts generated (the format may carry fewer: see the serializers). */
  artifacts: number;
  planted: PlantedPiiRef[];
  summaries: SummaryTruth[];
}

// Transcripts smaller than this are barely more than a system prompt and a task.
const MIN_TRANSCRIPT_BYTES = 4_000;

export function generateCorpus(opts: CorpusOptions): CorpusEntry[] {
  const formats = opts.formats && opts.formats.length > 0 ? opts.formats : CORPUS_FORMATS;
  const archetypes = opts.archetypes && opts.archetypes.length > 0 ? opts.archetypes : ARCHETYPES;
  const entries: CorpusEntry[] = [];
  // Serialized size / native size per format, learned as files are produced, so each byte target
  // can be set in native bytes (what the generator measures).
  const ratio = new Map<CorpusFormat, { native: number; actual: number }>();
  let produced = 0;

  for (let i = 0; i < opts.count; i++) {
    const seed = deriveSeed(opts.seed, i);
    const format = formats[i % formats.length] as CorpusFormat;
    const archetype = archetypes[deriveSeed(seed, 'archetype') % archetypes.length] as Archetype;
    let targetBytes: number | undefined;
    if (opts.targetBytes !== undefined) {
      const left = opts.count - i;
      // Vary sizes (0.5×–1.5× the even share) but let the last files absorb the error.
      const spread = left > 2 ? 0.5 + (deriveSeed(seed, 'size') % 1000) / 1000 : 1;
      const share = ((opts.targetBytes - produced) / left) * spread;
      const r = ratio.get(format);
      targetBytes = Math.max(MIN_TRANSCRIPT_BYTES, Math.round(share / (r ? r.actual / r.native : 1)));
    }
    const ext = FORMAT_EXTENSIONS[format];
    const name = `${String(i).padStart(4, '0')}-${archetype}${ext}`;
    const t = generateTranscript(seed, {
      archetype,
      file: name,
      ...(targetBytes !== undefined ? { targetBytes } : { messages: opts.messages }),
    });
    const { text, refs } = serializeWithRefs(t.artifacts, format, { seed });
    const bytes = Buffer.byteLength(text, 'utf8');
    const r = ratio.get(format) ?? { native: 0, actual: 0 };
    ratio.set(format, { native: r.native + Math.max(1, t.nativeBytes), actual: r.actual + bytes });
    produced += bytes;

    const planted: PlantedPiiRef[] = [];
    for (const p of t.planted) {
      const ref = refs.get(p.artifact);
      if (ref) planted.push({ ...p, id: ref.id, line: ref.line });
    }
    entries.push({
      name,
      format,
      archetype: t.archetype,
      seed,
      text,
      bytes,
      artifacts: t.artifacts.length,
      planted,
      summaries: t.summaries,
    });
  }
  return entries;
}
