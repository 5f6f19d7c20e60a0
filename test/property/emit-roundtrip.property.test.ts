// Issue 13: a round trip for every format with an emitter. A transcript is generated in a format
// (OpenAI Chat Completions, Anthropic Messages, native), read, every artifact made a context item,
// emitted with emitContext, serialized and read back (format forced, and detected): what is read
// back is what the model saw the first time, as a model of the emitters' documented rules predicts
// it, written here on artifacts (never on the request bodies):
//
// openai     system, policy, phase, summary → system (a `developer` role stays developer); user,
//            task, retrieval → user; a tool output that names no call → user text. Parts (parts.ts):
//            text everywhere; image_url, input_audio and file from the user; an Anthropic image
//            becomes an image_url, a plain-text document its text, a PDF a file part; refusal from
//            the assistant; the rest (thinking, redacted thinking, server tools, images elsewhere)
//            is left out. Tool results carry their text only and no is_error; one answering
//            several calls is one tool message per call. An assistant with calls and nothing else
//            has content null (read back as ''); one with neither is left out.
// anthropic  system and policy → the top-level `system`, their texts joined (read back as one
//            `system` artifact); user-side kinds and tool outputs naming no call merge into user
//            turns, assistants into assistant turns (never after a turn with tool_use); tool input is
//            an object (anything else under `input`); a reused call id is renamed `<id>_<n>`, n from
//            2, skipping every id the context names. Parts (parts.ts): an image_url becomes an
//            image block (a data URL a base64 source), a refusal that is not blank a text block; audio,
//            OpenAI file ids and OpenAI-only parts (reasoning, web search) are left out, and so are
//            images and documents outside user turns and tool results; every other part, and
//            is_error, is kept. A request that would start with an assistant turn gets one
//            placeholder user turn first, holding the repair text (repair.leading_user_text, issue
//            27): read back, it is one user artifact with that text before the conversation, and
//            there is none when the conversation starts with a user turn.
// native     every field the stabilizer decides on is kept; each artifact's scope is written out as
//            the phase markers set it, a summary's created_at keeps its age in user turns; the
//            side-chain flag (no context holds side-chain records) and pressure have no context field.
//
// For both chat APIs a tool result goes right after the call it answers by the readers' pairing rule
// (the nearest earlier pending call with its id, DESIGN §2), and one that answers none stays where it
// was, so the same results answer the same calls once read back. Emitting what was read back
// writes the same request again (a fixpoint), and format detection reads it as the forced reader.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import { DEFAULT_LEADING_USER_TEXT } from '../../src/core/emit/repair.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { scopesOf } from '../../src/core/stabilize/scope.js';
import { contextOf } from './support/run.js';
import type { Artifact, ArtifactKind, Content, ContentPart, Transcript } from '../../src/core/types.js';
import { fcOptions } from '../support/fc.js';
import { piiPool } from './support/pii-pool.js';
import { buildArtifacts, stepArb } from './support/transcript-arb.js';

type Obj = Record<string, unknown>;
type Target = 'openai' | 'anthropic' | 'native';
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- reading, context, emitting -----------------------------------------------------------------

function read(doc: unknown, format: 'openai' | 'anthropic' | 'native'): Transcript {
  const r = readTranscript(JSON.stringify(doc), { file: `case.${format}.json`, format });
  if (!r.ok) throw new Error(`the ${format} arbitrary made an unreadable case: ${r.diagnostics[0]?.message}`);
  return r.transcript;
}

/** `repair`: the placeholder user turn's text (the policy default when not given). */
function emitted(t: Transcript, target: Target, repair?: string): string {
  const opts = repair === undefined ? {} : { leadingUserText: repair };
  return JSON.stringify(emitContext(contextOf(t), target, t, opts));
}

// ---- what the model sees --------------------------------------------------------------------------

/** Arguments parsed, or their text when they are no JSON. */
function parseArgs(s: string): unknown {
  try {
    return { json: JSON.parse(s) as unknown };
  } catch {
    return { text: s };
  }
}

interface SeenCall {
  id: string;
  name: string;
  args: unknown;
  /** A result answers it (the reader's pairing). */
  answered: boolean;
}

/** One artifact as the model sees it: kind, content, calls; a result's ids and the call it answers. */
interface Seen {
  kind: ArtifactKind;
  role?: string;
  content: Content;
  calls?: SeenCall[];
  answers?: string[];
  /** Index of the artifact whose call the result answers; null when it answers none. */
  pairedWith?: number | null;
  is_error?: true;
}

function idsOf(a: Artifact): string[] {
  if (a.call_ids && a.call_ids.length > 0) return a.call_ids;
  return a.call_id === undefined ? [] : [a.call_id];
}

function seenOf(t: Transcript): Seen[] {
  const index = new Map(t.artifacts.map((a, i) => [a.id, i]));
  const open = new Set(t.pairing.unpairedCalls.map((c) => `${c.artifact}\u0000${c.call_id}`));
  return t.artifacts.map((a) => {
    const s: Seen = { kind: a.kind, content: a.content };
    if (a.role !== undefined) s.role = a.role;
    if (a.tool_calls)
      s.calls = a.tool_calls.map((c) => ({
        id: c.id,
        name: c.name,
        args: parseArgs(c.arguments),
        answered: !open.has(`${a.id}\u0000${c.id}`),
      }));
    if (a.kind === 'tool' && idsOf(a).length > 0) {
      s.answers = idsOf(a);
      const caller = t.pairing.resultToCall[a.id];
      s.pairedWith = caller === undefined ? null : (index.get(caller) ?? -1);
    }
    if (a.is_error === true) s.is_error = true;
    return s;
  });
}

/**
 * The readers' pairing rule, per call id of a result (a result may answer several calls): the
 * nearest earlier pending call with that id. `of`: result index → per id, [artifact, call] or null;
 * `answer`: `artifact:call` → the result index answering it.
 */
interface Pairs {
  of: Map<number, ([number, number] | null)[]>;
  answer: Map<string, number>;
}

function pairsOf(t: Transcript): Pairs {
  const pending = new Map<string, [number, number][]>();
  const pairs: Pairs = { of: new Map(), answer: new Map() };
  t.artifacts.forEach((a, i) => {
    if (a.kind === 'tool')
      pairs.of.set(
        i,
        idsOf(a).map((id) => {
          const call = pending.get(id)?.pop() ?? null;
          if (call) pairs.answer.set(`${call[0]}:${call[1]}`, i);
          return call;
        }),
      );
    (a.tool_calls ?? []).forEach((c, k) => pending.set(c.id, [...(pending.get(c.id) ?? []), [i, k]]));
  });
  // The model agrees with the reader's pairing before anything is emitted.
  const byReader = t.artifacts.flatMap((a, i) => {
    const first = pairs.of.get(i)?.find((c) => c !== null);
    return first ? [[a.id, t.artifacts[first[0]]?.id]] : [];
  });
  expect(Object.fromEntries(byReader)).toEqual(t.pairing.resultToCall);
  return pairs;
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => String(p['text']))
    .join('\n');
}

// ---- the OpenAI rules -------------------------------------------------------------------------------

type OpenAIRole = 'system' | 'developer' | 'user' | 'assistant';

function openaiRole(a: Artifact): OpenAIRole {
  if (a.kind === 'assistant') return 'assistant';
  if (['system', 'policy', 'phase', 'summary'].includes(a.kind))
    return a.role === 'developer' ? 'developer' : 'system';
  return 'user';
}

const OPENAI_USER_PARTS = ['image_url', 'input_audio', 'file'];

function openaiParts(content: Content, role: OpenAIRole): Content {
  if (typeof content === 'string') return content;
  return content.flatMap((p): ContentPart[] => {
    if (p.type === 'text') return [p];
    if (role === 'assistant') return p.type === 'refusal' ? [p] : [];
    if (role !== 'user') return [];
    if (OPENAI_USER_PARTS.includes(p.type)) return [p];
    const source = (p as Obj)['source'];
    const src = isObj(source) ? source : {};
    if (p.type === 'image' && src['type'] === 'base64')
      return [
        {
          type: 'image_url',
          image_url: { url: `data:${String(src['media_type'])};base64,${String(src['data'])}` },
        },
      ];
    if (p.type === 'image' && src['type'] === 'url')
      return [{ type: 'image_url', image_url: { url: src['url'] } }];
    if (p.type === 'document' && src['type'] === 'text') return [{ type: 'text', text: String(src['data']) }];
    if (p.type === 'document' && src['type'] === 'base64' && src['media_type'] === 'application/pdf')
      return [
        {
          type: 'file',
          file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${String(src['data'])}` },
        },
      ];
    return [];
  });
}

function expectOpenAI(t: Transcript): Seen[] {
  const arts = t.artifacts;
  const pairs = pairsOf(t);
  const out: Seen[] = [];
  const resultSeen = (r: number, id: string, pairedWith: number | null): Seen => ({
    kind: 'tool',
    content: textOf((arts[r] as Artifact).content),
    answers: [id],
    pairedWith,
  });
  arts.forEach((a, i) => {
    if (a.kind === 'tool') {
      const ids = idsOf(a);
      if (ids.length === 0) out.push({ kind: 'user', content: textOf(a.content) });
      ids.forEach((id, j) => {
        if (!pairs.of.get(i)?.[j]) out.push(resultSeen(i, id, null));
      });
      return;
    }
    const role = openaiRole(a);
    let content = openaiParts(a.content, role);
    if (role !== 'assistant') {
      out.push({
        kind: role === 'user' ? 'user' : 'system',
        ...(role === 'developer' ? { role } : {}),
        content,
      });
      return;
    }
    const calls = a.tool_calls ?? [];
    if (content.length === 0) {
      if (calls.length === 0) return;
      content = '';
    }
    const at = out.length;
    const answer = (k: number): number | undefined => pairs.answer.get(`${i}:${k}`);
    out.push({
      kind: 'assistant',
      content,
      ...(calls.length > 0
        ? {
            calls: calls.map((c, k) => ({
              id: c.id,
              name: c.name,
              args: parseArgs(c.arguments),
              answered: answer(k) !== undefined,
            })),
          }
        : {}),
    });
    calls.forEach((c, k) => {
      const r = answer(k);
      if (r !== undefined) out.push(resultSeen(r, c.id, at));
    });
  });
  return out;
}

// ---- the Anthropic rules ----------------------------------------------------------------------------

const OPENAI_ONLY = ['reasoning', 'web_search_call'];
/** Where an artifact's parts go in the Anthropic request. */
type AnthropicSlot = 'user' | 'assistant' | 'tool';

function anthropicPart(p: ContentPart, slot: AnthropicSlot): ContentPart[] {
  if (p.type === 'text') return [{ type: 'text', text: String(p['text']) }];
  if (OPENAI_ONLY.includes(p.type) || p.type === 'input_audio') return [];
  const media = ['image', 'document', 'image_url', 'file'].includes(p.type);
  if (media && slot === 'assistant') return [];
  if (p.type === 'image_url') {
    const imageUrl = p['image_url'];
    const url = String(isObj(imageUrl) ? imageUrl['url'] : imageUrl);
    const data = /^data:([^;,]+);base64,(.*)$/.exec(url);
    return [
      {
        type: 'image',
        source: data ? { type: 'base64', media_type: data[1], data: data[2] } : { type: 'url', url },
      },
    ];
  }
  // The generated OpenAI files name an OpenAI file id, which the Messages API cannot reference.
  if (p.type === 'file') return [];
  if (p.type === 'refusal') {
    const text = String(p['refusal']);
    return text.trim() === '' ? [] : [{ type: 'text', text }];
  }
  return [p];
}

function anthropicParts(content: Content, slot: AnthropicSlot): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.flatMap((p) => anthropicPart(p, slot));
}

function toolInput(args: string): unknown {
  try {
    const v = JSON.parse(args) as unknown;
    return isObj(v) ? v : { input: v };
  } catch {
    return { input: args };
  }
}

/** tool_use ids: the first use keeps its id, a later one is `<id>_<n>`, n from 2, skipping ids the context names. */
function toolUseNames(t: Transcript): string[][] {
  const named = new Set<string>();
  for (const a of t.artifacts) {
    for (const c of a.tool_calls ?? []) named.add(c.id);
    if (a.kind === 'tool') for (const id of idsOf(a)) named.add(id);
  }
  const issued = new Set<string>();
  return t.artifacts.map((a) =>
    (a.tool_calls ?? []).map((c) => {
      let name = c.id;
      for (let n = 2; issued.has(name) || (name !== c.id && named.has(name)); n++) name = `${c.id}_${n}`;
      issued.add(name);
      return name;
    }),
  );
}

type Block = { part: ContentPart } | { use: SeenCall } | { result: Seen; caller?: Msg };
interface Msg {
  role: 'user' | 'assistant';
  blocks: Block[];
}

function expectAnthropic(t: Transcript, repair: string = DEFAULT_LEADING_USER_TEXT): Seen[] {
  const arts = t.artifacts;
  const pairs = pairsOf(t);
  const names = toolUseNames(t);
  const system: string[] = [];
  const msgs: Msg[] = [];
  const push = (role: Msg['role'], blocks: Block[], mergeable: boolean): Msg | undefined => {
    const last = msgs[msgs.length - 1];
    if (blocks.length === 0) return undefined;
    if (mergeable && last?.role === role && !last.blocks.some((b) => 'use' in b)) {
      last.blocks.push(...blocks);
      return last;
    }
    const m: Msg = { role, blocks };
    msgs.push(m);
    return m;
  };
  const parts = (content: Content, slot: AnthropicSlot = 'user'): Block[] =>
    anthropicParts(content, slot).map((part) => ({ part }));
  const result = (r: number, id: string, caller?: Msg): Block => {
    const a = arts[r] as Artifact;
    const seen: Seen = { kind: 'tool', content: anthropicParts(a.content, 'tool'), answers: [id] };
    if (a.is_error) seen.is_error = true;
    return caller ? { result: seen, caller } : { result: seen };
  };
  arts.forEach((a, i) => {
    if (a.kind === 'system' || a.kind === 'policy') {
      system.push(textOf(a.content));
      return;
    }
    if (a.kind === 'tool') {
      const ids = idsOf(a);
      if (ids.length === 0) push('user', parts(a.content), true);
      else
        push(
          'user',
          ids.flatMap((id, j) => (pairs.of.get(i)?.[j] ? [] : [result(i, id)])),
          false,
        );
      return;
    }
    if (a.kind !== 'assistant') {
      push('user', parts(a.content), true);
      return;
    }
    const calls = a.tool_calls ?? [];
    const answer = (k: number): number | undefined => pairs.answer.get(`${i}:${k}`);
    const uses: Block[] = calls.map((c, k) => ({
      use: {
        id: names[i]?.[k] as string,
        name: c.name,
        args: { json: toolInput(c.arguments) },
        answered: answer(k) !== undefined,
      },
    }));
    const m = push('assistant', [...parts(a.content, 'assistant'), ...uses], true);
    const answers = calls.flatMap((_, k) => {
      const r = answer(k);
      return r === undefined ? [] : [result(r, names[i]?.[k] as string, m)];
    });
    if (answers.length > 0) msgs.push({ role: 'user', blocks: answers });
  });
  // The Messages API requires a user turn first: exactly one placeholder user turn with the repair
  // text goes before a conversation that would start with an assistant turn, and none otherwise.
  if (msgs[0]?.role === 'assistant')
    msgs.unshift({ role: 'user', blocks: [{ part: { type: 'text', text: repair } }] });
  // Read back: the system artifact, then per message its tool results, then the message itself
  // (left out when it held results and nothing else).
  const out: Seen[] = [];
  const joined = system.join('\n\n');
  if (joined !== '') out.push({ kind: 'system', content: joined });
  const at = new Map<Msg, number>();
  const results: { seen: Seen; caller?: Msg }[] = [];
  for (const m of msgs) {
    for (const b of m.blocks)
      if ('result' in b) {
        results.push({ seen: b.result, ...(b.caller ? { caller: b.caller } : {}) });
        out.push(b.result);
      }
    const own = m.blocks.filter((b) => !('result' in b));
    if (own.length < m.blocks.length && own.length === 0) continue;
    at.set(m, out.length);
    const uses = own.flatMap((b) => ('use' in b ? [b.use] : []));
    out.push({
      kind: m.role,
      content: own.flatMap((b) => ('part' in b ? [b.part] : [])),
      ...(uses.length > 0 ? { calls: uses } : {}),
    });
  }
  for (const r of results) r.seen.pairedWith = r.caller ? (at.get(r.caller) ?? -1) : null;
  return out;
}

// ---- the native rules --------------------------------------------------------------------------------

function bare(a: Artifact): Obj {
  const { source: _source, ...rest } = a;
  return rest;
}

function expectNative(t: Transcript): Obj[] {
  const { scopes } = scopesOf(t.artifacts);
  let turn = 0;
  const turns = t.artifacts.map((a) => (a.kind === 'user' ? ++turn : turn));
  return t.artifacts.map((a, i) => {
    const { source: _s, sidechain: _c, pressure: _p, offChain: _o, created_at, is_error, scope, ...kept } = a;
    const out: Obj = { ...kept };
    if (is_error) out['is_error'] = true;
    const own = a.kind === 'phase' ? scope : scopes[i];
    if (own && (own.task !== undefined || own.phase !== undefined)) out['scope'] = own;
    if (a.kind === 'summary') out['created_at'] = Math.min(created_at ?? (turns[i] as number), turn);
    return out;
  });
}

// ---- the round trip -----------------------------------------------------------------------------------

function expected(t: Transcript, target: 'openai' | 'anthropic', repair?: string): Seen[] {
  return target === 'openai' ? expectOpenAI(t) : expectAnthropic(t, repair);
}

/**
 * t → emit `target` → read (forced and detected): what is read back is what the rules predict.
 * `repair`: the placeholder user turn's text given to the emitter (the policy default when not given).
 */
function check(t: Transcript, target: Target, repair?: string): void {
  const text = emitted(t, target, repair);
  const file = `emitted.${target}.json`;
  const forced = readTranscript(text, { file, format: target });
  const auto = readTranscript(text, { file });
  const want = target === 'native' ? expectNative(t) : expected(t, target, repair);
  if (want.length === 0) {
    // Nothing the API takes: the request is empty, and an empty transcript does not load.
    for (const r of [forced, auto])
      expect(r.ok ? 'loaded' : r.diagnostics.map((d) => d.code)).toEqual(['empty-transcript']);
    return;
  }
  if (!forced.ok)
    throw new Error(`the emitted ${target} request does not read back: ${forced.diagnostics[0]?.message}`);
  const back = forced.transcript;
  if (target === 'native') {
    expect(back.artifacts.map(bare)).toEqual(want);
    expect(back.meta).toEqual(t.meta);
    const drop = ({ line: _l, ...rest }: { line: number; artifact: string; call_id: string }): Obj => rest;
    expect({
      resultToCall: back.pairing.resultToCall,
      unpairedCalls: back.pairing.unpairedCalls.map(drop),
      unpairedResults: back.pairing.unpairedResults.map(drop),
    }).toEqual({
      resultToCall: t.pairing.resultToCall,
      unpairedCalls: t.pairing.unpairedCalls.map(drop),
      unpairedResults: t.pairing.unpairedResults.map(drop),
    });
    expect(scopesOf(back.artifacts)).toEqual(scopesOf(t.artifacts));
  } else {
    expect(seenOf(back)).toEqual(want);
  }
  // Detected: the same reader, or (an Anthropic request without system and Anthropic-only blocks)
  // the OpenAI reader, which reads such messages to the same artifacts.
  if (!auto.ok)
    throw new Error(`the emitted ${target} request is not detected: ${auto.diagnostics[0]?.message}`);
  expect(
    target === 'anthropic' && auto.transcript.format === 'openai' ? 'anthropic' : auto.transcript.format,
  ).toBe(target);
  expect({ artifacts: auto.transcript.artifacts, pairing: auto.transcript.pairing }).toEqual({
    artifacts: back.artifacts,
    pairing: back.pairing,
  });
  // What was read back is written again as the same request (Anthropic: one that reads back the
  // same; an empty system is left out, and a result's unanswered ids come apart into one each).
  const again = emitted(back, target, repair);
  if (target !== 'anthropic') expect(again).toBe(text);
  else {
    const reread = readTranscript(again, { file, format: target });
    expect(reread.ok ? seenOf(reread.transcript) : reread.diagnostics).toEqual(seenOf(back));
  }
}

// ---- arbitraries: OpenAI Chat Completions -----------------------------------------------------------

const WORDS = ['ok', 'build failed', 'ls -la src', 'Zürich ✓', 'line one\nline two', 'order 42'];
const textArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ') },
);
const textPart = textArb.map((text) => ({ type: 'text', text }));
const contentOf = (part: fc.Arbitrary<Obj>): fc.Arbitrary<string | Obj[]> =>
  fc.oneof({ weight: 3, arbitrary: textArb }, { weight: 2, arbitrary: fc.array(part, { maxLength: 3 }) });
const TOOLS = ['bash', 'read', 'get_order'];
const argsArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ command: fc.constantFrom('ls', 'npm test', 'cat "a b"'), n: fc.nat(3) })
      .map((o) => JSON.stringify(o)),
  },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[1,2]', '42', '"text"', 'null', '{bad json', '') },
);
/** Which results a round gets: every call once in a shuffled order, or any list (some missing, some twice). */
const answersArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.shuffledSubarray([0, 1, 2], { minLength: 3 }).map((order) => ({ complete: true, order })),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.nat(2), { maxLength: 4 }).map((order) => ({ complete: false, order })),
  },
);
function answered<T>(calls: readonly T[], answers: { complete: boolean; order: number[] }): T[] {
  return answers.order.flatMap((k) =>
    answers.complete && k >= calls.length ? [] : [calls[k % calls.length] as T],
  );
}

// `call_1_2` is the name a renamed reuse of `call_1` would take. No empty id: the OpenAI reader
// reads `tool_call_id: ""` as a result answering call "" (native and Anthropic refuse an empty id),
// and the Anthropic request written from it (`tool_use_id: ""`) does not read back (reported).
const OA_IDS = ['call_1', 'call_2', 'call_3', 'call_1_2'];
const oaUserPart: fc.Arbitrary<Obj> = fc.oneof(
  { weight: 4, arbitrary: textPart },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('https://example.test/a.png', 'data:image/png;base64,iVBORw0=')
      .map((url) => ({ type: 'image_url', image_url: { url, detail: 'low' } })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'file', file: { file_id: 'file-abc' } }) },
);
const oaAssistantPart: fc.Arbitrary<Obj> = fc.oneof(
  { weight: 4, arbitrary: textPart },
  { weight: 1, arbitrary: fc.constant({ type: 'refusal', refusal: 'I cannot help with that' }) },
);
const oaResult = (ids: Obj): fc.Arbitrary<Obj> =>
  fc
    .record(
      { content: fc.oneof(contentOf(textPart), fc.constant(null)), name: fc.constantFrom(...TOOLS) },
      { requiredKeys: ['content'] },
    )
    .map((r) => ({ role: 'tool', ...ids, ...r }));
const oaCall = fc.record({
  id: fc.constantFrom(...OA_IDS),
  name: fc.constantFrom(...TOOLS),
  args: argsArb,
  asObject: fc.boolean(),
});

/** A step of an OpenAI conversation: one or more messages. */
const oaStepArb: fc.Arbitrary<Obj[]> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc
      .record({ role: fc.constantFrom('system', 'developer'), content: contentOf(textPart) })
      .map((m) => [m]),
  },
  { weight: 3, arbitrary: contentOf(oaUserPart).map((content) => [{ role: 'user', content }]) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(contentOf(oaAssistantPart), fc.constant(null))
      .map((content) => [{ role: 'assistant', content }]),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        content: fc.oneof(textArb, fc.constant(null)),
        calls: fc.uniqueArray(oaCall, { minLength: 1, maxLength: 3, selector: (c) => c.id }),
        answers: answersArb,
        results: fc.array(oaResult({}), { minLength: 4, maxLength: 4 }),
      })
      .map(({ content, calls, answers, results }) => [
        {
          role: 'assistant',
          content,
          tool_calls: calls.map((c) => {
            const parsed = parseArgs(c.args) as { json?: unknown };
            // Recorded runs sometimes store the arguments parsed.
            const args = c.asObject && isObj(parsed.json) ? parsed.json : c.args;
            return { id: c.id, type: 'function', function: { name: c.name, arguments: args } };
          }),
        },
        ...answered(calls, answers).map((c, i) => ({ ...results[i], tool_call_id: c.id })),
      ]),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(...OA_IDS).chain((id) => oaResult({ tool_call_id: id })),
        fc
          .uniqueArray(fc.constantFrom(...OA_IDS), { minLength: 2, maxLength: 3 })
          .chain((ids) => oaResult({ tool_call_ids: ids })),
        oaResult({}),
      )
      .map((m) => [m]),
  },
  {
    // The legacy function_call and its `function` result (a result without a function_call before).
    weight: 1,
    arbitrary: fc
      .record({ name: fc.constantFrom(...TOOLS), args: argsArb, call: fc.boolean(), content: textArb })
      .map(({ name, args, call, content }) => [
        ...(call ? [{ role: 'assistant', content: null, function_call: { name, arguments: args } }] : []),
        { role: 'function', name, content },
      ]),
  },
);

const openaiDocArb = fc
  .array(oaStepArb, { minLength: 1, maxLength: 12 })
  .map((steps) => ({ model: 'gpt-4o', messages: steps.flat() }));

// ---- arbitraries: Anthropic Messages ----------------------------------------------------------------

const AN_IDS = ['toolu_1', 'toolu_2', 'toolu_3', 'toolu_1_2'];
const anImage = fc.constantFrom(
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } },
  { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } },
);
const anDocument = fc.constantFrom(
  { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the contract' } },
  { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
);
const anUserBlock: fc.Arbitrary<Obj> = fc.oneof(
  { weight: 4, arbitrary: textPart },
  { weight: 1, arbitrary: anImage },
  { weight: 1, arbitrary: anDocument },
);
const anThinking = fc.constantFrom<Obj[]>(
  [{ type: 'thinking', thinking: 'let me think', signature: 'sig-1' }],
  [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy' }],
  [
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'refund policy' } },
    { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
  ],
);
const anAssistantBlocks: fc.Arbitrary<Obj[]> = fc
  .record({
    thinking: fc.option(anThinking, { freq: 3, nil: undefined }),
    text: fc.array(textPart, { maxLength: 2 }),
  })
  .map(({ thinking, text }) => [...(thinking ?? []), ...text]);
const anInput = fc.oneof(
  { weight: 6, arbitrary: fc.record({ command: fc.constantFrom('ls', 'npm test'), n: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [1, 2], 'text', 7, null) },
);
const anResultContent = fc.oneof(
  { weight: 3, arbitrary: textArb },
  {
    weight: 2,
    arbitrary: fc.array(fc.oneof({ weight: 3, arbitrary: textPart }, { weight: 1, arbitrary: anImage }), {
      maxLength: 2,
    }),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const anResult = (id: string): fc.Arbitrary<Obj> =>
  fc
    .record({ content: anResultContent, is_error: fc.boolean() }, { requiredKeys: [] })
    .map((r) => ({ type: 'tool_result', tool_use_id: id, ...r }));

const anStepArb: fc.Arbitrary<Obj[]> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(textArb, fc.array(anUserBlock, { maxLength: 3 }))
      .map((content) => [{ role: 'user', content }]),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(textArb, anAssistantBlocks).map((content) => [{ role: 'assistant', content }]),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        lead: anAssistantBlocks,
        calls: fc.uniqueArray(
          fc.record({ id: fc.constantFrom(...AN_IDS), name: fc.constantFrom(...TOOLS), input: anInput }),
          { minLength: 1, maxLength: 3, selector: (c) => c.id },
        ),
        answers: answersArb,
        after: fc.array(anUserBlock, { maxLength: 2 }),
      })
      .chain(({ lead, calls, answers, after }) =>
        fc.tuple(...answered(calls, answers).map((c) => anResult(c.id))).map((blocks) => [
          {
            role: 'assistant',
            content: [
              ...lead,
              ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
            ],
          },
          ...(blocks.length + after.length > 0 ? [{ role: 'user', content: [...blocks, ...after] }] : []),
        ]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...AN_IDS)
      .chain(anResult)
      .map((block) => [{ role: 'user', content: [block] }]),
  },
);

const anthropicDocArb = fc
  .record({
    system: fc.oneof(fc.constant(undefined), textArb, fc.array(textPart, { minLength: 1, maxLength: 2 })),
    steps: fc.array(anStepArb, { minLength: 1, maxLength: 10 }),
  })
  .map(({ system, steps }) => {
    const messages = steps.flat();
    return {
      model: 'claude-sonnet-4-5',
      ...(system !== undefined ? { system } : {}),
      messages: messages.length > 0 ? messages : [{ role: 'user', content: 'hello' }],
    };
  });

// ---- arbitraries: native ----------------------------------------------------------------------------

const MUTATIONS = [
  'standalone', // a tool output that names no call
  'multi', // a result answering two calls (call_ids)
  'suffix', // a result id that a renamed call id would take (`c1_2`)
  'thinking', // a signed thinking block before an assistant's text
  'developer', // a developer role on a system or policy artifact
  'blank', // empty content
  'image', // an Anthropic image after the text
  'document', // a plain-text document after the text
  'split', // the text as two text parts
] as const;
type Mutation = (typeof MUTATIONS)[number] | 'none';

function mutate(d: Obj, m: Mutation): Obj {
  const kind = d['kind'];
  const text = typeof d['content'] === 'string' ? d['content'] : '';
  switch (m) {
    case 'standalone':
      if (kind !== 'tool') return d;
      return Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'call_id'));
    case 'multi': {
      if (kind !== 'tool' || typeof d['call_id'] !== 'string') return d;
      const other = ['c1', 'c2', 'c3', 'c4'].find((c) => c !== d['call_id']) as string;
      return { ...d, call_ids: [d['call_id'], other] };
    }
    case 'suffix':
      return kind === 'tool' && typeof d['call_id'] === 'string' ? { ...d, call_id: `${d['call_id']}_2` } : d;
    case 'thinking':
      return kind === 'assistant'
        ? {
            ...d,
            content: [
              { type: 'thinking', thinking: 'hm', signature: 'sig' },
              { type: 'text', text },
            ],
          }
        : d;
    case 'developer':
      return kind === 'system' || kind === 'policy' ? { ...d, role: 'developer' } : d;
    case 'blank':
      return { ...d, content: '' };
    case 'image':
    case 'document':
      if (kind === 'system' || kind === 'policy') return d;
      return {
        ...d,
        content: [
          { type: 'text', text },
          m === 'image'
            ? { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } }
            : { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the contract' } },
        ],
      };
    case 'split':
      return {
        ...d,
        content: [
          { type: 'text', text: text.slice(0, 10) },
          { type: 'text', text: text.slice(10) },
        ],
      };
    case 'none':
      return d;
  }
}

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Mutation>('none') },
  { weight: 1, arbitrary: fc.constantFrom<Mutation>(...MUTATIONS) },
);

// The transcript arbitrary's steps with one pool of planted values (the emitters do not mask, and
// drawing a pool per case costs most of the time).
const POOL = piiPool(20240613);
const nativeArb: fc.Arbitrary<Transcript> = fc
  .record({
    steps: fc.array(stepArb, { maxLength: 30, size: 'medium' }),
    mutations: fc.array(mutationArb, { maxLength: 40 }),
    meta: fc.constantFrom({}, { model: 'gpt-4o', run: 3, tags: ['nightly'] }),
  })
  .map(({ steps, mutations, meta }) => {
    const artifacts = buildArtifacts(steps, POOL).map((d, i) => mutate(d, mutations[i] ?? 'none'));
    return read({ meta, artifacts }, 'native');
  });

// ---- the properties -----------------------------------------------------------------------------------

const RUNS = 200;

describe('emit → read round trip (issue 13)', () => {
  it('openai: read → emit openai → read sees the same conversation', () => {
    fc.assert(
      fc.property(openaiDocArb, (doc) => check(read(doc, 'openai'), 'openai')),
      fcOptions(RUNS),
    );
  });

  it('anthropic: read → emit anthropic → read sees the same conversation', () => {
    fc.assert(
      fc.property(anthropicDocArb, (doc) => check(read(doc, 'anthropic'), 'anthropic')),
      fcOptions(RUNS),
    );
  });

  it('native: read → emit native → read gives the same artifacts, pairs and scopes', () => {
    fc.assert(
      fc.property(nativeArb, (t) => check(t, 'native')),
      fcOptions(RUNS),
    );
  });

  it('across formats: openai → anthropic and anthropic → openai keep texts, calls, results and pairs', () => {
    fc.assert(
      fc.property(openaiDocArb, anthropicDocArb, (oa, an) => {
        check(read(oa, 'openai'), 'anthropic');
        check(read(an, 'anthropic'), 'openai');
      }),
      fcOptions(RUNS),
    );
  });

  it('across formats: native → openai and native → anthropic (every kind, outputs naming no call)', () => {
    fc.assert(
      fc.property(nativeArb, (t) => {
        check(t, 'openai');
        check(t, 'anthropic');
      }),
      fcOptions(RUNS),
    );
  });
});

// ---- regressions ----------------------------------------------------------------------------------

const call = (id: string): Obj => ({
  id,
  type: 'function',
  function: { name: 'bash', arguments: '{"command":"ls","n":0}' },
});
const use = (id: string): Obj => ({ type: 'tool_use', id, name: 'bash', input: { command: 'ls', n: 0 } });

describe('emit → read round trip, regressions', () => {
  // Both chat emitters gave each call the first result of its id anywhere in the context, not the
  // one the readers pair with it (the nearest earlier pending call): a result before its call was
  // moved after the call and written twice, and the call's own result left unanswered.
  it('regression, seed 1652114005: a result before its call stays in place and answers nothing (openai)', () => {
    const doc = {
      messages: [
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        { role: 'assistant', content: '', tool_calls: [call('call_1')] },
        { role: 'tool', content: null, tool_call_id: 'call_1' },
        { role: 'user', content: [] },
      ],
    };
    for (const target of ['openai', 'anthropic'] as const) check(read(doc, 'openai'), target);
  });

  it('regression, seed 1652114005: a reused id answers the later call when the earlier went unanswered (anthropic)', () => {
    const doc = {
      system: 'ok',
      messages: [
        { role: 'assistant', content: [use('toolu_1')] },
        { role: 'assistant', content: [use('toolu_1')] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
        { role: 'assistant', content: 'ok' },
      ],
    };
    for (const target of ['anthropic', 'openai'] as const) check(read(doc, 'anthropic'), target);
  });

  // The Anthropic emitter wrote a result that answers no call once, under its first id only.
  it('regression, seed 1652114005: a result answering two calls, neither in the context, keeps both ids (anthropic)', () => {
    const doc = { messages: [{ role: 'tool', tool_call_ids: ['call_1', 'call_1_2'], content: [] }] };
    for (const target of ['anthropic', 'openai'] as const) check(read(doc, 'openai'), target);
  });

  // Renamed call ids skipped the ids of calls only: a call renamed to the id of a result that
  // answers no call was answered by that result once read back.
  it('regression, seed 2137406164: a call id is never renamed to the id of a result (anthropic)', () => {
    const artifacts = (stray: number): Obj[] => {
      const docs: Obj[] = [
        {
          id: 'x0',
          kind: 'assistant',
          content: 'first',
          tool_calls: [{ id: 'c1', name: 'bash', arguments: '{}' }],
        },
        { id: 'x1', kind: 'tool', call_id: 'c1', content: 'done' },
        {
          id: 'x2',
          kind: 'assistant',
          content: 'again',
          tool_calls: [{ id: 'c1', name: 'bash', arguments: '{}' }],
        },
      ];
      docs.splice(stray, 0, { id: 'x3', kind: 'tool', call_id: 'c1_2', content: 'a log' });
      return docs;
    };
    for (const stray of [1, 3]) {
      const t = read({ artifacts: artifacts(stray) }, 'native');
      check(t, 'anthropic');
      const uses = (JSON.parse(emitted(t, 'anthropic')) as { messages: { content: Obj[] }[] }).messages
        .flatMap((m) => m.content)
        .filter((b) => b['type'] === 'tool_use')
        .map((b) => b['id']);
      expect(uses).toEqual(['c1', 'c1_3']);
    }
  });
});

// Issue 27: an Anthropic request that would start with an assistant turn gets one placeholder user
// turn first (repair.leading_user_text); the round trip predicts it, and only it.
describe('emit → read round trip, the placeholder user turn (issue 27)', () => {
  type Message = { role: string; content: Obj[] };
  type Request = { messages: Message[] };
  const body = (t: Transcript, repair?: string): Request =>
    JSON.parse(emitted(t, 'anthropic', repair)) as Request;
  const seenBack = (req: Request): Seen[] => seenOf(read(req, 'anthropic'));
  const placeholder = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

  const assistantFirst = {
    system: [{ type: 'text', text: 'ok' }],
    messages: [
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: 'book a flight' },
    ],
  };

  it('an assistant turn first: one placeholder user turn with the repair text, the default or the given one', () => {
    const t = read(assistantFirst, 'anthropic');
    for (const repair of [undefined, 'Earlier turns were left out.']) {
      check(t, 'anthropic', repair);
      const text = repair ?? DEFAULT_LEADING_USER_TEXT;
      expect(body(t, repair).messages).toEqual([
        placeholder(text),
        { role: 'assistant', content: [{ type: 'text', text: 'Hi! How can I help?' }] },
        { role: 'user', content: [{ type: 'text', text: 'book a flight' }] },
      ]);
    }
    // The other chat API takes an assistant turn first: no placeholder there.
    check(t, 'openai');
    const oa = read({ messages: [{ role: 'assistant', content: 'Hi' }] }, 'openai');
    for (const target of ['openai', 'anthropic'] as const) check(oa, target);
  });

  it('a user turn first: no placeholder', () => {
    const t = read({ messages: assistantFirst.messages.slice(1) }, 'anthropic');
    check(t, 'anthropic');
    expect(body(t).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'book a flight' }] }]);
  });

  // The prediction is not loose: a read-back with a second extra message, another text, or a
  // placeholder the conversation did not need is not what the rules predict.
  it('the round trip fails on a second placeholder, another text, or a placeholder not needed', () => {
    const t = read(assistantFirst, 'anthropic');
    const want = expectAnthropic(t);
    const req = body(t);
    expect(seenBack(req)).toEqual(want);
    const [first, ...rest] = req.messages;
    const tampered: Request[] = [
      { messages: [placeholder(DEFAULT_LEADING_USER_TEXT), ...req.messages] },
      { messages: [placeholder('[Something else.]'), ...rest] },
      { messages: [{ role: 'user', content: [] }, ...rest] },
      { messages: rest },
      {
        messages: [first as Message, { role: 'user', content: [{ type: 'text', text: 'x' }] }, ...rest],
      },
    ];
    for (const bad of tampered) expect(seenBack({ ...req, ...bad })).not.toEqual(want);
    const userFirst = read({ messages: assistantFirst.messages.slice(1) }, 'anthropic');
    expect(
      seenBack({ messages: [placeholder(DEFAULT_LEADING_USER_TEXT), ...body(userFirst).messages] }),
    ).not.toEqual(expectAnthropic(userFirst));
  });
});
