// A budget for a model family without a local tokenizer (Claude, Gemini) is counted with an OpenAI
// encoding scaled by a measured factor (policy `model_family` + `calibration`, docs/tokenizers.md).
// The factor has at most 3 decimals, so scaling is integer arithmetic: the same text gives the same
// count on every machine, and a count never rounds down (a budget errs on the safe side).
import type { Tokenizer } from './tokenizer.js';

/** What the policy says about whose tokens the budget counts. */
export interface Calibration {
  /** `openai` (the default) when the policy names no family. */
  family: string;
  /** Provider tokens per local token; 1 means the local count is used as is. */
  factor: number;
}

/** The calibration of a policy: its `calibration`, else 1 (only `openai` may omit it). */
export function calibrationOf(policy: {
  readonly model_family?: string | undefined;
  readonly calibration?: number | undefined;
}): Calibration {
  return { family: policy.model_family ?? 'openai', factor: policy.calibration ?? 1 };
}

/** The factor in thousandths: the policy allows at most 3 decimals. */
function thousandths(factor: number): number {
  return Math.round(factor * 1000);
}

/** `n ÷ d` rounded down, for non-negative integers: exact where float division may not be. */
function floorDiv(n: number, d: number): number {
  return (n - (n % d)) / d;
}

/** `raw × factor`, rounded up, in integer arithmetic (raw × thousandths stays far below 2^53). */
export function scaleCount(raw: number, factor: number): number {
  const scaled = raw * thousandths(factor);
  return floorDiv(scaled, 1000) + (scaled % 1000 === 0 ? 0 : 1);
}

/** The largest raw count whose scaled count is still ≤ limit. */
function rawLimit(limit: number, factor: number): number {
  return floorDiv(limit * 1000, thousandths(factor));
}

/**
 * `tok` scaled by the calibration. With factor 1 and family `openai` it is `tok` itself (same name,
 * same counts). Otherwise its name says what it counts, e.g. `o200k_base ×1.25 (anthropic)`, which
 * goldens record, so a new factor shows in their metadata.
 */
export function calibrateTokenizer(tok: Tokenizer, calibration: Calibration): Tokenizer {
  const { family, factor } = calibration;
  if (factor === 1 && family === 'openai') return tok;
  const scaled: Tokenizer = {
    name: `${tok.name} ×${factor} (${family})`,
    version: tok.version,
    count: (text) => scaleCount(tok.count(text), factor),
  };
  const upTo = tok.countUpTo?.bind(tok);
  if (upTo !== undefined) {
    // Exact up to `limit` after scaling: a raw count over rawLimit scales to more than `limit`.
    scaled.countUpTo = (text, limit) => scaleCount(upTo(text, rawLimit(limit, factor)), factor);
  }
  return scaled;
}
