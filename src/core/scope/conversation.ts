// The kinds that make a conversation: a context holding none of them is a request both chat APIs
// refuse (no messages after the system prompt). Shared by the stabilizer's verdict and `nonempty`.
import type { ArtifactKind } from '../types.js';

export const CONVERSATION: ReadonlySet<ArtifactKind> = new Set([
  'task',
  'user',
  'assistant',
  'tool',
  'retrieval',
  'summary',
]);
