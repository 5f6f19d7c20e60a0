// Loads one gpt-tokenizer encoding on demand. Each encoding is a separate literal dynamic import
// so bundlers keep them apart and a run only pays for the BPE table its policy names.
import { createRequire } from 'node:module';
import { calibrateTokenizer, calibrationOf } from '../core/tokens/calibrate.js';
import { chunkedCount, chunkedCountUpTo } from '../core/tokens/chunked.js';
import { TOKENIZER_NAMES, isTokenizerName } from '../core/tokens/tokenizer.js';
import type { Tokenizer, TokenizerName } from '../core/tokens/tokenizer.js';

interface EncodingModule {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
  isWithinTokenLimit(
    text: string,
    limit: number,
    options: { disallowedSpecial: Set<string> },
  ): false | number;
}

const IMPORTERS: Record<TokenizerName, () => Promise<EncodingModule>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
  p50k_base: () => import('gpt-tokenizer/encoding/p50k_base'),
  r50k_base: () => import('gpt-tokenizer/encoding/r50k_base'),
};

// An empty disallow-set (and no allow-set) makes `<|endoftext|>` & co. plain text instead of a throw.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const cache = new Map<TokenizerName, Promise<Tokenizer>>();
let packageVersion: string | undefined;

function gptTokenizerVersion(): string {
  if (packageVersion === undefined) {
    const require = createRequire(import.meta.url);
    const pkg = require('gpt-tokenizer/package.json') as { version: string };
    packageVersion = pkg.version;
  }
  return packageVersion;
}

async function create(name: TokenizerName): Promise<Tokenizer> {
  const encoding = await IMPORTERS[name]();
  const exact = (text: string): number => (text === '' ? 0 : encoding.countTokens(text, AS_PLAIN_TEXT));
  const exactUpTo = (text: string, limit: number): number => {
    if (text === '') return 0;
    const within = encoding.isWithinTokenLimit(text, limit, AS_PLAIN_TEXT);
    return within === false ? limit + 1 : within;
  };
  return {
    name,
    version: gptTokenizerVersion(),
    // Unbroken runs longer than RUN_CHUNK are counted in pieces so time stays linear (issue 12);
    // every other text is counted exactly. See src/core/tokens/chunked.ts.
    count: (text: string) => chunkedCount(text, exact),
    // Stops encoding as soon as the limit is passed: "is this output over max_tokens" on a 20k-token
    // log costs a few hundred tokens of work.
    countUpTo: (text: string, limit: number) => chunkedCountUpTo(text, limit, exactUpTo),
  };
}

/** The named encoding, loaded once per process. Rejects for a name outside TOKENIZER_NAMES. */
export function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  if (!isTokenizerName(name)) {
    return Promise.reject(
      new Error(`Unknown tokenizer. Use one of: ${TOKENIZER_NAMES.join(', ')} (policy field \`tokenizer\`).`),
    );
  }
  let pending = cache.get(name);
  if (pending === undefined) {
    pending = create(name);
    // A failed load (e.g. a broken install) must not poison later attempts.
    pending.catch(() => cache.delete(name));
    cache.set(name, pending);
  }
  return pending;
}

/**
 * The tokenizer a policy's budget is counted with: its encoding, scaled by its `calibration` when
 * the budget is for another model family (src/core/tokens/calibrate.ts).
 */
export async function loadPolicyTokenizer(policy: {
  readonly tokenizer: TokenizerName;
  readonly model_family?: string | undefined;
  readonly calibration?: number | undefined;
}): Promise<Tokenizer> {
  return calibrateTokenizer(await loadTokenizer(policy.tokenizer), calibrationOf(policy));
}
