// Seeded synthetic transcripts for property tests, end-to-end tests and the benchmark.
// Test support only: not part of the published package.

export { artifactText } from './artifact-text.js';
export { generateCorpus } from './corpus.js';
export type { CorpusEntry, CorpusOptions, PlantedPiiRef } from './corpus.js';
export { PII_TYPES, ibanMod97, luhnValid } from './pii.js';
export type { PiiType, PlantedPii } from './pii.js';
export { Rng, deriveSeed } from './rng.js';
export { CORPUS_FORMATS, FORMAT_EXTENSIONS, serialize, serializeWithRefs } from './serialize/index.js';
export type { ArtifactRef, CorpusFormat, SerializeOptions, Serialized } from './serialize/index.js';
export { ARCHETYPES, generateTranscript } from './transcript.js';
export type { Archetype, GeneratedTranscript, SummaryTruth, TranscriptOptions } from './transcript.js';
