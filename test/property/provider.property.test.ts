// The providers' rules (issue 9): verifyOpenAI/verifyAnthropic and the validate `provider` check
// agree with an independent model of the key rules, written here on the emitted request alone.
//
// OpenAI Chat Completions: at least one message; each tool message answers a call of the assistant
// message right before its group, once; every call is answered there; only text/refusal parts in
// assistant content (and the allowed part types of the other roles); an assistant message has
// content or calls. Anthropic Messages: at least one message; the first is from the user; the API
// combines consecutive messages of one role into one turn, and on combined turns the tool_result
// blocks come first in the user turn right after an assistant turn with tool_use and answer exactly
// those ids; tool_use ids are unique across the request; block types per role; no blank text.
//
// Contexts come from the transcript arbitrary in two ways: every artifact of a transcript as it was
// written, with mutations that break the rules often (artifacts dropped, so calls lose results and
// results lose calls; an assistant message first; thinking parts; call ids reused across rounds,
// which the arbitrary does by itself), and the stabilizer's own output. The Anthropic emitter puts a
// placeholder user turn before an assistant message first (repair.leading_user_text, issue 27): the
// model and the check judge the request as emitted, repaired.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import type { AnthropicBlock, AnthropicRequest } from '../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { DEFAULT_LEADING_USER_TEXT } from '../../src/core/emit/repair.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import { DEFAULT_POLICY } from '../../src/core/policy/index.js';
import type { ContextItem, StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Transcript } from '../../src/core/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { fcOptions } from '../support/fc.js';
import { APIS } from './support/green.js';
import type { Api } from './support/green.js';
import { policyArb } from './support/policy-arb.js';
import { contextOf, stabilize } from './support/run.js';
import { wordTokenizer } from './support/tokenizer.js';
import { caseArb, readCase } from './support/transcript-arb.js';
import type { Case } from './support/transcript-arb.js';

// ---- the model --------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown): boolean => typeof v !== 'string' || v.trim() === '';

const OPENAI_PARTS: Record<string, string[]> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
};

/** Why OpenAI would refuse the messages (empty: it accepts them). */
function openaiModel(messages: readonly OpenAIMessage[]): string[] {
  const why: string[] = [];
  if (messages.length === 0) why.push('no messages');
  // The calls of the latest assistant message with calls, while its group of tool messages lasts.
  let open: { at: number; pending: Set<string> } | undefined;
  const close = (): void => {
    if (open && open.pending.size > 0) why.push(`message ${open.at}: calls ${[...open.pending]} unanswered`);
    open = undefined;
  };
  messages.forEach((m, i) => {
    const allowed = OPENAI_PARTS[m.role];
    if (!allowed) why.push(`message ${i}: role ${m.role}`);
    const calls = m.tool_calls ?? [];
    if (Array.isArray(m.content)) {
      if (m.content.length === 0) why.push(`message ${i}: empty parts`);
      for (const p of m.content) {
        const type = isObj(p) ? p['type'] : undefined;
        if (typeof type !== 'string' || !allowed?.includes(type))
          why.push(`message ${i}: ${String(type)} part`);
        else if ((type === 'text' || type === 'refusal') && typeof (p as Obj)[type] !== 'string')
          why.push(`message ${i}: ${type} part without text`);
        else if (
          type === 'image_url' &&
          !(isObj((p as Obj)['image_url']) && typeof ((p as Obj)['image_url'] as Obj)['url'] === 'string')
        )
          why.push(`message ${i}: image_url part without url`);
      }
    } else if (
      typeof m.content !== 'string' &&
      !(m.role === 'assistant' && m.content === null && calls.length > 0)
    )
      why.push(`message ${i}: content ${String(m.content)}`);
    if (m.role === 'assistant' && calls.length === 0 && (m.content === '' || m.content === null))
      why.push(`message ${i}: assistant says nothing`);
    if (m.tool_calls !== undefined && calls.length === 0) why.push(`message ${i}: empty tool_calls`);
    if (m.role === 'tool') {
      if (!open || m.tool_call_id === undefined || !open.pending.delete(m.tool_call_id))
        why.push(`message ${i}: tool message answers no open call`);
      return;
    }
    close();
    if (m.role === 'assistant' && calls.length > 0) {
      const ids = calls.map((c) => c.id);
      if (new Set(ids).size !== ids.length) why.push(`message ${i}: a call id twice`);
      open = { at: i, pending: new Set(ids) };
    }
  });
  close();
  return why;
}

const ANTHROPIC_BLOCKS: Record<string, string[]> = {
  user: ['text', 'image', 'document', 'search_result', 'tool_result'],
  assistant: ['text', 'thinking', 'redacted_thinking', 'tool_use'],
};

/** Why Anthropic would refuse the request (empty: it accepts it). */
function anthropicModel(req: AnthropicRequest): string[] {
  const why: string[] = [];
  const messages = req.messages;
  if (messages.length === 0) why.push('no messages');
  if (messages.length > 0 && messages[0]?.role !== 'user') why.push('first message not from the user');
  // Blocks of each message, and the turns the API makes of consecutive same-role messages.
  const turns: { role: string; blocks: AnthropicBlock[] }[] = [];
  messages.forEach((m, i) => {
    const allowed = ANTHROPIC_BLOCKS[m.role];
    if (!allowed) why.push(`message ${i}: role ${m.role}`);
    if (m.content.length === 0 && !(i === messages.length - 1 && m.role === 'assistant'))
      why.push(`message ${i}: empty`);
    for (const b of m.content) {
      if (!allowed?.includes(b.type)) why.push(`message ${i}: ${b.type} block`);
      if (b.type === 'text' && blank(b['text'])) why.push(`message ${i}: blank text`);
      if (b.type === 'tool_result') {
        if (typeof b['tool_use_id'] !== 'string' || b['tool_use_id'] === '')
          why.push(`message ${i}: no tool_use_id`);
        const inner: unknown[] = Array.isArray(b['content']) ? (b['content'] as unknown[]) : [];
        for (const x of inner) {
          if (!isObj(x) || !['text', 'image', 'document', 'search_result'].includes(String(x['type'])))
            why.push(`message ${i}: tool_result holds a ${isObj(x) ? String(x['type']) : 'bad'} block`);
          else if (x['type'] === 'text' && blank(x['text']))
            why.push(`message ${i}: blank text in a tool_result`);
        }
      }
      if (b.type === 'thinking' && (typeof b['thinking'] !== 'string' || typeof b['signature'] !== 'string'))
        why.push(`message ${i}: thinking without its signature`);
    }
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.blocks.push(...m.content);
    else turns.push({ role: m.role, blocks: [...m.content] });
  });
  const seen = new Set<string>();
  turns.forEach((turn, t) => {
    const uses = turn.role === 'assistant' ? turn.blocks.filter((b) => b.type === 'tool_use') : [];
    for (const u of uses) {
      if (seen.has(String(u['id']))) why.push(`turn ${t}: tool_use id ${String(u['id'])} again`);
      seen.add(String(u['id']));
    }
    if (turn.role !== 'user') {
      const next = turns[t + 1];
      const answered = new Set(
        next?.role === 'user'
          ? next.blocks.filter((b) => b.type === 'tool_result').map((b) => b['tool_use_id'])
          : [],
      );
      for (const u of uses)
        if (!answered.has(u['id'])) why.push(`turn ${t}: tool_use ${String(u['id'])} unanswered`);
      return;
    }
    const prev = turns[t - 1];
    const open = new Set(
      prev?.role === 'assistant' ? prev.blocks.filter((b) => b.type === 'tool_use').map((b) => b['id']) : [],
    );
    let other = false;
    for (const b of turn.blocks) {
      if (b.type !== 'tool_result') {
        other = true;
        continue;
      }
      if (other) why.push(`turn ${t}: tool_result after another block`);
      if (!open.delete(b['tool_use_id'])) why.push(`turn ${t}: tool_result answers no open tool_use`);
    }
  });
  return why;
}

// ---- contexts ---------------------------------------------------------------------------------

/** The result the provider check is run on: only the context matters to it. */
function resultOf(t: Transcript, context: ContextItem[]): StabilizeResult {
  return {
    transcript: 'case.json',
    status: 'ok',
    budget: { limit: 0, used: 0 },
    context,
    ledger: [],
    summaries: [],
    events: [],
  };
}

interface Mutation {
  /** Artifact indexes left out (results lose their calls, calls their results). */
  drop: number[];
  /** An assistant message put first. */
  assistantFirst: boolean;
  /** Assistant artifacts (by index) that get a signed thinking part before their text. */
  thinking: number[];
  /** Image parts replaced by their text, so that more requests are valid. */
  textOnly: boolean;
}

type Doc = Record<string, unknown>;

function mutate(c: Case, m: Mutation): Case {
  const docs = (JSON.parse(c.text) as { artifacts: Doc[] }).artifacts;
  const out: Doc[] = [];
  docs.forEach((d, i) => {
    if (m.drop.includes(i)) return;
    let content = d['content'];
    if (m.textOnly && Array.isArray(content))
      content = (content as Doc[])
        .filter((p) => p['type'] === 'text')
        .map((p) => String(p['text']))
        .join(' ');
    if (d['kind'] === 'assistant' && m.thinking.includes(i)) {
      const parts =
        typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
      content = [{ type: 'thinking', thinking: `thought ${i}`, signature: `sig-${i}` }, ...(parts as Doc[])];
    }
    out.push({ ...d, content });
  });
  if (m.assistantFirst)
    out.unshift({ id: 'first', kind: 'assistant', content: 'Continuing from where we left off' });
  return readCase(out.length > 0 ? out : [{ id: 'x0', kind: 'user', content: 'hello' }], c.pii);
}

const mutatedArb: fc.Arbitrary<Case> = caseArb.chain((c) => {
  const n = c.transcript.artifacts.length;
  const index = fc.nat(Math.max(0, n - 1));
  return fc
    .record({
      drop: fc.oneof(fc.constant<number[]>([]), fc.uniqueArray(index, { maxLength: Math.min(n, 4) })),
      assistantFirst: fc.oneof(
        { weight: 4, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      thinking: fc.oneof(
        { weight: 2, arbitrary: fc.constant<number[]>([]) },
        { weight: 1, arbitrary: fc.uniqueArray(index, { maxLength: 3 }) },
      ),
      textOnly: fc.boolean(),
    })
    .map((m) => mutate(c, m));
});

// ---- the properties ---------------------------------------------------------------------------

interface Verdicts {
  model: boolean;
  verify: boolean;
  provider: boolean;
}

function verdicts(
  t: Transcript,
  result: StabilizeResult,
  api: Api,
): Verdicts & { why: string[]; found: string[] } {
  const req = emitContext(result.context, api);
  const why =
    api === 'openai'
      ? openaiModel((req as { messages: OpenAIMessage[] }).messages)
      : anthropicModel(req as AnthropicRequest);
  const found =
    api === 'openai'
      ? verifyOpenAI((req as { messages: OpenAIMessage[] }).messages)
      : verifyAnthropic(req as AnthropicRequest);
  const policy = DEFAULT_POLICY;
  const provider = validateResult(t, result, { policy, tokenizer: wordTokenizer, emit: api }).find(
    (k) => k.name === 'provider',
  );
  return { model: why.length === 0, verify: found.length === 0, provider: provider?.ok === true, why, found };
}

/** Per API, how many requests the model accepted and refused: both branches must occur. */
type Tally = Record<Api, { valid: number; invalid: number }>;
const tally = (): Tally => ({ openai: { valid: 0, invalid: 0 }, anthropic: { valid: 0, invalid: 0 } });

function agree(t: Transcript, result: StabilizeResult, counts: Tally): void {
  for (const api of APIS) {
    const v = verdicts(t, result, api);
    counts[api][v.model ? 'valid' : 'invalid']++;
    // The messages say which side missed what when they disagree.
    expect({ api, valid: v.verify, found: v.found }).toEqual({
      api,
      valid: v.model,
      found: v.model ? [] : v.found,
    });
    expect({ api, provider: v.provider, why: v.why }).toEqual({ api, provider: v.model, why: v.why });
  }
}

/** Hand-written cases: each rule of the model on its own, with the rules the verifiers name. */
const call = (id: string): Doc => ({ id, name: 'bash', arguments: '{"command":"ls"}' });
const EXAMPLES: {
  name: string;
  artifacts: Doc[];
  openai: string[];
  anthropic: string[];
  /** The Anthropic request starts with the placeholder user turn (repair.leading_user_text). */
  repaired?: true;
}[] = [
  {
    name: 'a tool round answered in full',
    artifacts: [
      { kind: 'user', content: 'list the files' },
      { kind: 'assistant', content: '', tool_calls: [call('c1'), call('c2')] },
      { kind: 'tool', call_id: 'c2', content: 'b.ts' },
      { kind: 'tool', call_id: 'c1', content: 'a.ts' },
    ],
    openai: [],
    anthropic: [],
  },
  {
    // Anthropic requires a user turn first: the emitter repairs the request with a placeholder
    // user turn (issue 27), and the repaired request passes.
    name: 'an assistant message first',
    artifacts: [
      { kind: 'assistant', content: 'Where were we?' },
      { kind: 'user', content: 'go on' },
    ],
    openai: [],
    anthropic: [],
    repaired: true,
  },
  {
    // The Anthropic emitter renames the second use (c1_2): both requests are valid.
    name: 'a call id reused in a later round',
    artifacts: [
      { kind: 'user', content: 'run it twice' },
      { kind: 'assistant', content: 'once', tool_calls: [call('c1')] },
      { kind: 'tool', call_id: 'c1', content: 'ok' },
      { kind: 'assistant', content: 'twice', tool_calls: [call('c1')] },
      { kind: 'tool', call_id: 'c1', content: 'ok' },
    ],
    openai: [],
    anthropic: [],
  },
  {
    // Thinking exists only in Anthropic requests: the OpenAI emitter leaves it out.
    name: 'a thinking part',
    artifacts: [
      { kind: 'user', content: 'think' },
      {
        kind: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', signature: 's' },
          { type: 'text', text: 'done' },
        ],
      },
    ],
    openai: [],
    anthropic: [],
  },
  {
    name: 'a dropped result',
    artifacts: [
      { kind: 'user', content: 'list' },
      { kind: 'assistant', content: 'listing', tool_calls: [call('c1')] },
    ],
    openai: ['openai-call-answered'],
    anthropic: ['anthropic-tool-use-answered'],
  },
  {
    name: 'a result without its call after a user message (one combined user turn for Anthropic)',
    artifacts: [
      { kind: 'user', content: 'hello' },
      { kind: 'tool', call_id: 'c9', content: 'stray' },
    ],
    openai: ['openai-tool-answers-call'],
    anthropic: ['anthropic-tool-result-first', 'anthropic-tool-result-matches-use'],
  },
];

const PLACEHOLDER = { role: 'user', content: [{ type: 'text', text: DEFAULT_LEADING_USER_TEXT }] };

describe('provider rules, examples', () => {
  it.each(EXAMPLES)('$name', ({ artifacts, openai, anthropic, repaired }) => {
    const c = readCase(
      artifacts.map((a, i) => ({ id: `x${i}`, ...a })),
      [],
    );
    const result = resultOf(c.transcript, contextOf(c.transcript));
    for (const [api, rules] of [
      ['openai', openai],
      ['anthropic', anthropic],
    ] as const) {
      const v = verdicts(c.transcript, result, api);
      expect({ api, model: v.model, verify: v.verify, provider: v.provider }).toEqual({
        api,
        model: rules.length === 0,
        verify: rules.length === 0,
        provider: rules.length === 0,
      });
      expect([...new Set(v.found.map((f) => f.slice(0, f.indexOf(':'))))].sort()).toEqual([...rules].sort());
    }
    // The placeholder user turn comes first exactly when the context starts with an assistant turn.
    const req = emitContext(result.context, 'anthropic') as AnthropicRequest;
    const unrepaired = req.messages.filter((m) => !isPlaceholder(m));
    expect(req.messages.length - unrepaired.length).toBe(repaired ? 1 : 0);
    if (repaired) {
      expect(req.messages[0]).toEqual(PLACEHOLDER);
      expect(req.messages[1]?.role).toBe('assistant');
      // Without it, the model and the verifier both refuse the request by the first-message rule.
      const raw = { ...req, messages: unrepaired };
      expect(anthropicModel(raw)).toEqual(['first message not from the user']);
      expect(verifyAnthropic(raw).map((f) => f.slice(0, f.indexOf(':')))).toEqual([
        'anthropic-first-message-user',
      ]);
    }
  });
});

function isPlaceholder(m: AnthropicRequest['messages'][number]): boolean {
  return JSON.stringify(m) === JSON.stringify(PLACEHOLDER);
}

describe('provider rules', () => {
  it('the verifiers and the provider check agree with the model on contexts as written, mutated', () => {
    const counts = tally();
    fc.assert(
      fc.property(mutatedArb, (c) => {
        agree(c.transcript, resultOf(c.transcript, contextOf(c.transcript)), counts);
      }),
      fcOptions(1000),
    );
    for (const api of APIS) {
      expect(counts[api].valid, `${api} valid`).toBeGreaterThan(0);
      expect(counts[api].invalid, `${api} invalid`).toBeGreaterThan(0);
    }
  });

  it('…and on stabilized contexts', () => {
    const counts = tally();
    fc.assert(
      fc.property(caseArb, policyArb, (c, policy) => {
        agree(c.transcript, stabilize(c.transcript, policy), counts);
      }),
      fcOptions(500),
    );
    for (const api of APIS) {
      expect(counts[api].valid, `${api} valid`).toBeGreaterThan(0);
      expect(counts[api].invalid, `${api} invalid`).toBeGreaterThan(0);
    }
  });
});
