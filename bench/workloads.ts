// The measured workloads over a corpus held in memory (file reading is not timed). Each returns a
// tally that is printed as a sanity check: a fast run that read nothing or failed every check must
// not pass for a fast pipeline.
import { readTranscript } from '../src/core/readers/index.js';
import type { Policy } from '../src/core/policy/index.js';
import type { TokenCache } from '../src/core/stabilize/meter.js';
import { stabilizeTranscript } from '../src/core/stabilize/stabilize.js';
import { countArtifactTokens } from '../src/core/tokens/count.js';
import type { Tokenizer } from '../src/core/tokens/tokenizer.js';
import type { Transcript } from '../src/core/types.js';
import { validateResult } from '../src/core/validate/validate.js';
import type { BenchFile } from './corpus.js';

export interface BenchEnv {
  policy: Policy;
  tokenizer: Tokenizer;
}

export interface Tally {
  transcripts: number;
  artifacts: number;
  /** Files the reader refused (should be 0: the generator writes valid transcripts). */
  unreadable: number;
  /** Tokens: of the stabilized contexts (pipeline) or of every artifact (tokenizer-only). */
  tokens: number;
  /** Transcripts with at least one failed check (pipeline only). */
  failedChecks: number;
  /** Check names that failed, with how many transcripts failed each. */
  failedByCheck: Record<string, number>;
}

export function emptyTally(): Tally {
  return { transcripts: 0, artifacts: 0, unreadable: 0, tokens: 0, failedChecks: 0, failedByCheck: {} };
}

export function read(file: Pick<BenchFile, 'name' | 'text'>): Transcript | undefined {
  const r = readTranscript(file.text, { file: file.name });
  return r.ok ? r.transcript : undefined;
}

/** Full pipeline of one transcript: read, stabilize, validate, sharing `cache` between the two. */
export function pipelineOne(
  file: Pick<BenchFile, 'name' | 'text'>,
  env: BenchEnv,
  cache: TokenCache,
  tally: Tally,
): void {
  tally.transcripts++;
  const t = read(file);
  if (!t) {
    tally.unreadable++;
    return;
  }
  tally.artifacts += t.artifacts.length;
  const result = stabilizeTranscript(t, { policy: env.policy, tokenizer: env.tokenizer, cache });
  const checks = validateResult(t, result, { policy: env.policy, tokenizer: env.tokenizer, cache });
  tally.tokens += result.budget.used;
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) tally.failedChecks++;
  for (const c of failed) tally.failedByCheck[c.name] = (tally.failedByCheck[c.name] ?? 0) + 1;
}

/**
 * a. The full pipeline over the corpus. `fresh`: a new token cache per transcript, as a CI run that
 * checks each transcript on its own; `shared`: one cache for the whole corpus (an agent or a
 * long-lived process re-stabilizing overlapping histories).
 */
export function fullPipeline(files: readonly BenchFile[], env: BenchEnv, cache: 'fresh' | 'shared'): Tally {
  const tally = emptyTally();
  const shared: TokenCache = new Map();
  for (const f of files) pipelineOne(f, env, cache === 'shared' ? shared : new Map(), tally);
  return tally;
}

/** b. The floor any token-budget tool pays: read, then count every artifact once, no cache. */
export function tokenizerOnly(files: readonly BenchFile[], env: BenchEnv): Tally {
  const tally = emptyTally();
  for (const f of files) {
    tally.transcripts++;
    const t = read(f);
    if (!t) {
      tally.unreadable++;
      continue;
    }
    tally.artifacts += t.artifacts.length;
    for (const a of t.artifacts) tally.tokens += countArtifactTokens(a, env.tokenizer, env.policy);
  }
  return tally;
}
