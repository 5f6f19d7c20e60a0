// Arbitrary agent transcripts, small enough to shrink well and rich enough to reach every stage:
// system/policy/task artifacts, phase markers of several tasks, tool rounds with parallel calls,
// call ids reused across rounds, results out of order or missing, orphan results, failures and
// retries, verbose and JSON outputs, tags, pins, side-chain records, summaries with provenance, ttl
// and claimed roles, repeated and near-repeated sentences, and planted PII from a seeded pool.
// A case is built as a native `{meta, artifacts}` document and read with the real reader.
import fc from 'fast-check';
import { readTranscript } from '../../../src/core/readers/index.js';
import type { Transcript } from '../../../src/core/types.js';
import { piiPool } from './pii-pool.js';
import type { PiiValue } from './pii-pool.js';
import { TAGS, TOOL_NAMES } from './policy-arb.js';

const WORDS = ['alpha', 'build', 'cache', 'delta', 'error', 'fix', 'module', 'order', 'refund', 'retry'];
// Sentences long enough for dedup (≥ 40 characters), with near-copies that differ in one word.
const SENTENCES = [
  'The build failed because the cache was stale again',
  'The build failed because the cache was stale once more',
  'Please check the refund status of the latest order today',
  'Please check the refund status of the latest order now',
  'Running the complete test suite to see what breaks next',
];
const COMMANDS = ['npm test', 'npm test -- --watch', 'git status', 'ls -la src', 'cat README.md'];
const PATHS = ['src/a.ts', 'src/b.ts'];
const CALL_IDS = ['c1', 'c2', 'c3', 'c4'];
const TASKS = ['T1', 'T2', 'T3'];
const PHASES = ['p1', 'p2'];

/** A piece of text: a word, a sentence of the pool, or a planted PII value (index into the pool). */
type Frag = { w: number } | { s: number } | { pii: number };
type Text = Frag[];

const fragArb: fc.Arbitrary<Frag> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(WORDS.length - 1).map((w) => ({ w })) },
  { weight: 3, arbitrary: fc.nat(SENTENCES.length - 1).map((s) => ({ s })) },
  { weight: 1, arbitrary: fc.nat(20).map((pii) => ({ pii })) },
);
// Often one whole sentence, so that exact and near copies of a message are common.
const textArb = (max: number): fc.Arbitrary<Text> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.array(fragArb, { maxLength: max }) },
    { weight: 2, arbitrary: fc.nat(SENTENCES.length - 1).map((s) => [{ s }]) },
  );
/** `value` in about one case of `oneIn`, else undefined (left out of the artifact). */
function sometimes<T>(value: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
}
const tagsArb = sometimes(fc.subarray([...TAGS], { minLength: 1 }), 5);
const pinArb = sometimes(fc.constant(true as const), 10);
const rarely = fc.oneof(
  { weight: 12, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);

interface ResultSpec {
  shape: 'text' | 'json' | 'long';
  text: Text;
  exit_code?: number;
  is_error?: boolean;
  tags?: string[];
  pin?: true;
}
const resultArb: fc.Arbitrary<ResultSpec> = fc.record(
  {
    shape: fc.constantFrom('text', 'text', 'text', 'json', 'long'),
    text: textArb(8),
    exit_code: fc.constantFrom(0, 0, 1, 2),
    is_error: fc.boolean(),
    tags: tagsArb,
    pin: pinArb,
  },
  { requiredKeys: ['shape', 'text'] },
);

interface CallSpec {
  id: string;
  tool: number;
  arg: number;
  pii?: number;
}

export type Step =
  | { t: 'system' | 'policy' | 'retrieval'; text: Text }
  | { t: 'task'; text: Text; pin?: true }
  | { t: 'phase'; task?: string; phase?: string; pin?: true }
  | { t: 'user' | 'assistant'; text: Text; tags?: string[]; pin?: true; parts: boolean; sidechain: boolean }
  | {
      t: 'round';
      text: Text;
      calls: CallSpec[];
      /**
       * Which calls get a result, in which order (indices into calls). Complete: every call once, in a
       * shuffled order. Otherwise any list: some calls unanswered, some answered twice (an orphan).
       */
      answers: { complete: boolean; order: number[] };
      results: ResultSpec[];
      tags?: string[];
      pin?: true;
    }
  | { t: 'late'; callId: string; result: ResultSpec }
  | {
      t: 'summary';
      text: Text;
      /** Sources as distances back from the summary; -1 names an id that does not exist. */
      sources: number[];
      created_at?: number;
      ttl?: number;
      role?: string;
      task?: string;
    };

const callArb: fc.Arbitrary<CallSpec> = fc.record(
  {
    id: fc.constantFrom(...CALL_IDS),
    tool: fc.nat(TOOL_NAMES.length - 1),
    arg: fc.nat(9),
    pii: fc.nat(20),
  },
  { requiredKeys: ['id', 'tool', 'arg'] },
);

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constantFrom('system', 'policy', 'retrieval'), text: textArb(5) }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      { t: fc.constant('task'), text: textArb(5), pin: pinArb },
      { requiredKeys: ['t', 'text'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        t: fc.constant('phase'),
        task: fc.option(fc.constantFrom(...TASKS), { freq: 4, nil: undefined }),
        phase: fc.option(fc.constantFrom(...PHASES), { freq: 4, nil: undefined }),
        pin: pinArb,
      },
      { requiredKeys: ['t'] },
    ),
  },
  {
    weight: 9,
    arbitrary: fc.record(
      {
        t: fc.constantFrom('user', 'assistant'),
        text: textArb(6),
        tags: tagsArb,
        pin: pinArb,
        parts: fc.boolean(),
        sidechain: rarely,
      },
      { requiredKeys: ['t', 'text', 'parts', 'sidechain'] },
    ),
  },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        t: fc.constant('round'),
        text: textArb(3),
        calls: fc.uniqueArray(callArb, { minLength: 1, maxLength: 3, selector: (c) => c.id }),
        answers: fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .shuffledSubarray([0, 1, 2], { minLength: 3 })
              .map((order) => ({ complete: true, order })),
          },
          {
            weight: 1,
            arbitrary: fc.array(fc.nat(2), { maxLength: 4 }).map((order) => ({ complete: false, order })),
          },
        ),
        results: fc.array(resultArb, { minLength: 4, maxLength: 4 }),
        tags: tagsArb,
        pin: pinArb,
      },
      { requiredKeys: ['t', 'text', 'calls', 'answers', 'results'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('late'), callId: fc.constantFrom(...CALL_IDS), result: resultArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        t: fc.constant('summary'),
        text: textArb(5),
        sources: fc.array(
          fc.oneof({ weight: 12, arbitrary: fc.nat(6) }, { weight: 1, arbitrary: fc.constant(-1) }),
          { minLength: 1, maxLength: 3 },
        ),
        created_at: fc.nat(8),
        ttl: fc.nat(5),
        role: fc.constantFrom('user', 'tool', 'retrieval', 'system'),
        task: fc.constantFrom(...TASKS),
      },
      { requiredKeys: ['t', 'text', 'sources'] },
    ),
  },
);

function render(text: Text, pool: readonly PiiValue[]): string {
  return text
    .map((f) =>
      'w' in f ? WORDS[f.w] : 's' in f ? SENTENCES[f.s] : (pool[f.pii % pool.length] as PiiValue).value,
    )
    .join(' ');
}

function argsOf(call: CallSpec, pool: readonly PiiValue[]): string {
  const tool = TOOL_NAMES[call.tool] as string;
  const extra = call.pii !== undefined ? ` ${(pool[call.pii % pool.length] as PiiValue).value}` : '';
  if (tool === 'bash') return JSON.stringify({ command: `${COMMANDS[call.arg % COMMANDS.length]}${extra}` });
  if (tool === 'read' || tool === 'edit') return JSON.stringify({ path: PATHS[call.arg % PATHS.length] });
  if (tool === 'get_order') return JSON.stringify({ order_id: `order-${'abc'[call.arg % 3]}${extra}` });
  return JSON.stringify({ query: `${WORDS[call.arg % 3]}${extra}` });
}

function resultContent(r: ResultSpec, pool: readonly PiiValue[]): string {
  const text = render(r.text, pool);
  if (r.shape === 'text') return text;
  const long = Array.from({ length: 45 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  if (r.shape === 'long') return `${text} ${long}`;
  return JSON.stringify({ status: r.exit_code === 0 ? 'ok' : 'failed', result: text, log: long });
}

type Doc = Record<string, unknown>;

function resultDoc(callId: string, r: ResultSpec, pool: readonly PiiValue[]): Doc {
  return {
    kind: 'tool',
    call_id: callId,
    content: resultContent(r, pool),
    ...(r.exit_code !== undefined ? { exit_code: r.exit_code } : {}),
    ...(r.is_error ? { is_error: true } : {}),
    ...(r.tags ? { tags: r.tags } : {}),
    ...(r.pin ? { pin: true } : {}),
  };
}

/** The native artifacts of a case (ids `x0`, `x1`, … in order), before reading. */
export function buildArtifacts(steps: readonly Step[], pool: readonly PiiValue[]): Doc[] {
  const out: Doc[] = [];
  for (const step of steps) {
    switch (step.t) {
      case 'system':
      case 'policy':
      case 'retrieval':
        out.push({ kind: step.t, content: render(step.text, pool) });
        break;
      case 'task':
        out.push({ kind: 'task', content: render(step.text, pool), ...(step.pin ? { pin: true } : {}) });
        break;
      case 'phase': {
        const scope = {
          ...(step.task !== undefined ? { task: step.task } : {}),
          ...(step.phase !== undefined ? { phase: step.phase } : {}),
        };
        out.push({ kind: 'phase', content: 'phase marker', scope, ...(step.pin ? { pin: true } : {}) });
        break;
      }
      case 'user':
      case 'assistant': {
        const text = render(step.text, pool);
        out.push({
          kind: step.t,
          content: step.parts
            ? [
                { type: 'text', text },
                { type: 'image_url', image_url: { url: 'https://example.invalid/shot.png' } },
              ]
            : text,
          ...(step.tags ? { tags: step.tags } : {}),
          ...(step.pin ? { pin: true } : {}),
          ...(step.sidechain ? { sidechain: true } : {}),
        });
        break;
      }
      case 'round': {
        out.push({
          kind: 'assistant',
          content: render(step.text, pool),
          tool_calls: step.calls.map((c) => ({
            id: c.id,
            name: TOOL_NAMES[c.tool] as string,
            arguments: argsOf(c, pool),
          })),
          ...(step.tags ? { tags: step.tags } : {}),
          ...(step.pin ? { pin: true } : {}),
        });
        step.answers.order.forEach((k, i) => {
          if (step.answers.complete && k >= step.calls.length) return;
          const call = step.calls[k % step.calls.length] as CallSpec;
          out.push(resultDoc(call.id, step.results[i] as ResultSpec, pool));
        });
        break;
      }
      case 'late':
        out.push(resultDoc(step.callId, step.result, pool));
        break;
      case 'summary': {
        const here = out.length;
        const provenance = step.sources.map((back) =>
          back < 0 || back >= here ? 'ghost' : `x${here - 1 - back}`,
        );
        out.push({
          kind: 'summary',
          content: render(step.text, pool),
          provenance,
          ...(step.created_at !== undefined ? { created_at: step.created_at } : {}),
          ...(step.ttl !== undefined ? { ttl: step.ttl } : {}),
          ...(step.role !== undefined ? { role: step.role } : {}),
          ...(step.task !== undefined ? { scope: { task: step.task } } : {}),
        });
        break;
      }
    }
  }
  if (out.length === 0) out.push({ kind: 'user', content: 'hello' });
  return out.map((a, i) => ({ id: `x${i}`, ...a }));
}

export interface Case {
  transcript: Transcript;
  /** The planted PII values the case can contain (every value of the pool). */
  pii: PiiValue[];
  /** The native document the transcript was read from. */
  text: string;
}

export function readCase(artifacts: Doc[], pii: PiiValue[]): Case {
  const text = JSON.stringify({ meta: {}, artifacts });
  const read = readTranscript(text, { file: 'case.json', format: 'native' });
  if (!read.ok)
    throw new Error(`the transcript arbitrary produced an unreadable case: ${read.diagnostics[0]?.message}`);
  const out: Case = { transcript: read.transcript, pii, text };
  // A counterexample prints as the document it was read from, which is what one needs to replay it.
  Object.defineProperty(out, fc.toStringMethod, { value: () => text });
  return out;
}

export const caseArb: fc.Arbitrary<Case> = fc
  .record({
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    steps: fc.array(stepArb, { maxLength: 30, size: 'medium' }),
  })
  .map(({ seed, steps }) => {
    const pool = piiPool(seed);
    return readCase(buildArtifacts(steps, pool), pool);
  });
