// The `provider` check's view of the emitters: build the request `--emit` would write, run the
// API's rules on it (openai-rules.ts, anthropic-rules.ts) and name the context items each finding
// came from, so it is annotated at the transcript line that produced the offending message.
import type { ContextItem } from '../stabilize/types.js';
import type { ProviderTarget } from '../policy/schema.js';
import type { Artifact, TranscriptFormat } from '../types.js';
import { SOURCE_API } from './source-api.js';
import type { EmitFormat } from './index.js';
import {
  openToolLoop,
  toAnthropicWithOrigins,
  type AnthropicBlock,
  type AnthropicWithOrigins,
} from './anthropic.js';
import { anthropicHit, anthropicRuleHits } from './anthropic-rules.js';
import { toOpenAIWithOrigins } from './openai.js';
import { openaiRuleHits } from './openai-rules.js';
import type { EmitOptions } from './repair.js';
import type { Loc, RuleHit } from './rule-hit.js';

export type ProviderApi = 'openai' | 'anthropic';
export const PROVIDER_APIS: readonly ProviderApi[] = ['openai', 'anthropic'];

export interface ProviderIssue {
  api: ProviderApi;
  /** Stable rule name, e.g. `anthropic-tool-use-ids-unique`. */
  rule: string;
  /** Where in the request, what is wrong and what the API answers; never the content itself. */
  message: string;
  /** Context items the offending message or block came from; the first is where it is annotated. */
  ids: string[];
}

function unique(ids: (string | undefined)[]): string[] {
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

const THINKING = new Set(['thinking', 'redacted_thinking']);

/** A thinking block as the API signs it: the text (or redacted data) with its signature. */
function thinkingKey(b: Record<string, unknown>): string {
  return JSON.stringify([b['type'], b['thinking'] ?? null, b['data'] ?? null, b['signature'] ?? null]);
}

/**
 * In a tool loop the API verifies the thinking blocks of the last assistant turn against their
 * signatures: each must be passed back exactly as the model wrote it (masking or cutting one is a 400).
 * Earlier turns' thinking is stripped by the API, so only the last assistant turn is checked, and
 * only while its tool loop is open (it has tool_use and nothing but tool results follow it).
 */
function thinkingHits(
  { request, blocks }: AnthropicWithOrigins,
  original: ReadonlyMap<string, Artifact>,
): RuleHit[] {
  const msgs = request.messages;
  const loop = openToolLoop(msgs);
  if (!loop) return [];
  const turn: [AnthropicBlock, Loc][] = [];
  for (let m = loop.start; m <= loop.end; m++)
    msgs[m]?.content.forEach((b, j) => turn.push([b, { message: m, block: j }]));
  const out: RuleHit[] = [];
  for (const [b, at] of turn) {
    if (!THINKING.has(b.type)) continue;
    const from = original.get(blocks[at.message]?.[at.block ?? 0] ?? '');
    const written =
      from && Array.isArray(from.content)
        ? from.content
            .filter((p) => THINKING.has(p.type))
            .map((p) => thinkingKey(p as Record<string, unknown>))
        : [];
    if (written.includes(thinkingKey(b))) continue;
    out.push(
      anthropicHit(
        'anthropic-thinking-unchanged',
        [at],
        `the ${b.type} block of the last assistant turn differs from what the model wrote (masked, cut or re-signed); in a tool loop it must be passed back unchanged`,
        `messages.${at.message}.content.${at.block ?? 0}: thinking blocks in the latest assistant message cannot be modified`,
        true,
      ),
    );
  }
  return out;
}

/**
 * Every rule of `api` the request built from `context` breaks: the request as the emitter writes
 * it, repaired (a placeholder user turn before a leading assistant turn, with `opts`' text).
 * `original` (the transcript's artifacts by id) lets the Anthropic rules see whether thinking
 * blocks were changed.
 */
export function providerIssues(
  context: readonly ContextItem[],
  api: ProviderApi,
  original?: ReadonlyMap<string, Artifact>,
  opts: EmitOptions = {},
): ProviderIssue[] {
  if (api === 'openai') {
    const { messages, origins } = toOpenAIWithOrigins(context);
    return openaiRuleHits(messages).map((h) => ({
      api,
      rule: h.rule,
      message: h.message,
      ids: unique(h.at.flatMap((l) => origins[l.message] ?? [])),
    }));
  }
  const emitted = toAnthropicWithOrigins(context, opts);
  const hits = anthropicRuleHits(emitted.request);
  if (original) hits.push(...thinkingHits(emitted, original));
  return hits.map((h) => ({
    api,
    rule: h.rule,
    message: h.message,
    ids: unique(
      h.at.map((l) =>
        l.block === undefined ? emitted.blocks[l.message]?.[0] : emitted.blocks[l.message]?.[l.block],
      ),
    ),
  }));
}

/**
 * The APIs the context must suit: `--emit openai|anthropic` when given, else the policy's `target`,
 * else the transcript's own API (Claude Code talks to Anthropic); a native transcript names no API,
 * so its context must suit both.
 */
export function providerApis(
  source: TranscriptFormat,
  target: ProviderTarget,
  emit?: EmitFormat,
): ProviderApi[] {
  if (emit === 'openai' || emit === 'anthropic') return [emit];
  // A Responses request is checked by the OpenAI rules (the same call/output pairing, roles, parts).
  if (emit === 'responses') return ['openai'];
  if (target !== 'same') return [target];
  return [...SOURCE_API[source].apis];
}
