// Round trip of the Responses reader and emitter: a generated Responses transcript (a request body,
// a bare item array or a stored list) is read, every artifact made a context item, written with
// `--emit responses` and read back: the same artifacts come back (kinds, roles, content, calls,
// call ids, exit codes and errors) with the same results answering the same calls, nothing is left
// out (no ledger note), and writing what was read back gives the same request again.
//
// The sessions follow the API's order: messages, model turns (reasoning, assistant messages, server
// tool items and MCP approvals, then calls) each followed by the outputs of some of its calls in
// any order, outputs answering no call, and items the reader does not know (left out as if
// absent). Call ids are reused across turns; a call's output is its built-in output type, or a
// function_call_output (as Codex answers its shell calls).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emitContext } from '../../src/core/emit/index.js';
import { responsesNotes } from '../../src/core/emit/responses.js';
import { detectFormat, readTranscript } from '../../src/core/readers/index.js';
import { contextOf } from './support/run.js';
import type { Transcript } from '../../src/core/types.js';
import { fcOptions } from '../support/fc.js';

type Item = Record<string, unknown>;

const text = fc.string({ maxLength: 24 });
const callId = fc.constantFrom('call_a', 'call_b', 'call_c');

const inputPart = fc.oneof(
  text.map((t) => ({ type: 'input_text', text: t })),
  fc.constant({ type: 'input_image', image_url: 'https://img.example/a.png', detail: 'low' }),
  fc.constant({ type: 'input_file', file_id: 'file-1', filename: 'a.pdf' }),
);
const outputPart = fc.oneof(
  text.map((t) => ({ type: 'output_text', text: t, annotations: [] })),
  text.map((t) => ({ type: 'refusal', refusal: t })),
);

const message = fc
  .record({
    role: fc.constantFrom('user', 'user', 'system', 'developer'),
    content: fc.oneof(text, fc.array(inputPart, { maxLength: 3 })),
    typed: fc.boolean(),
  })
  .map(({ role, content, typed }): Item => (typed ? { type: 'message', role, content } : { role, content }));

/** Items of the model's turn that are not calls: assistant messages, reasoning, server tools. */
const modelPart: fc.Arbitrary<Item> = fc.oneof(
  fc
    .oneof(text, fc.array(outputPart, { maxLength: 3 }))
    .map((content) => ({ type: 'message', role: 'assistant', content })),
  text.map((t) => ({
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: t }],
    encrypted_content: 'gAAA',
  })),
  text.map((q) => ({
    type: 'web_search_call',
    id: 'ws_1',
    status: 'completed',
    action: { type: 'search', query: q },
  })),
  fc.constant({ type: 'file_search_call', id: 'fs_1', status: 'completed', queries: ['q'], results: null }),
  text.map((logs) => ({
    type: 'code_interpreter_call',
    id: 'ci_1',
    status: 'completed',
    container_id: 'c',
    code: 'print(1)',
    outputs: [{ type: 'logs', logs }],
  })),
  fc.constant({ type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBO' }),
  text.map((out) => ({
    type: 'mcp_call',
    id: 'mcp_1',
    server_label: 's',
    name: 'lookup',
    arguments: '{}',
    output: out,
  })),
  fc.constant({
    type: 'mcp_approval_request',
    id: 'mcpr_1',
    server_label: 's',
    name: 'lookup',
    arguments: '{}',
  }),
  fc.constant({ type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true }),
  fc.constant({ type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAA' }),
  fc.constant({ type: 'item_reference', id: 'msg_9' }),
);

const KINDS = ['function', 'custom', 'computer', 'local_shell', 'shell', 'apply_patch'] as const;
type Kind = (typeof KINDS)[number];

function callItem(kind: Kind, id: string, arg: string): Item {
  switch (kind) {
    case 'function':
      return { type: 'function_call', call_id: id, name: 'lookup', arguments: JSON.stringify({ q: arg }) };
    case 'custom':
      return { type: 'custom_tool_call', call_id: id, name: 'apply_patch', input: arg };
    case 'computer':
      return {
        type: 'computer_call',
        id: 'cu_1',
        call_id: id,
        status: 'completed',
        action: { type: 'type', text: arg },
        pending_safety_checks: [],
      };
    case 'local_shell':
      return {
        type: 'local_shell_call',
        id: 'lsh_1',
        call_id: id,
        status: 'completed',
        action: { type: 'exec', command: ['echo', arg], env: {} },
      };
    case 'shell':
      return { type: 'shell_call', call_id: id, action: { commands: [arg] }, status: 'completed' };
    case 'apply_patch':
      return {
        type: 'apply_patch_call',
        call_id: id,
        status: 'completed',
        operation: { type: 'create_file', path: 'a.txt', diff: arg },
      };
  }
}

const functionOutput = fc.oneof(text, fc.array(inputPart, { maxLength: 2 }));

function outputItem(kind: Kind, id: string, plain: boolean, out: string, code: number): fc.Arbitrary<Item> {
  if (plain) return functionOutput.map((output) => ({ type: 'function_call_output', call_id: id, output }));
  switch (kind) {
    case 'function':
      return functionOutput.map((output) => ({ type: 'function_call_output', call_id: id, output }));
    case 'custom':
      return functionOutput.map((output) => ({ type: 'custom_tool_call_output', call_id: id, output }));
    case 'computer':
      return fc.constant({
        type: 'computer_call_output',
        call_id: id,
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA' },
      });
    case 'local_shell':
      // The API names the call by `id`, Codex by `call_id`.
      return fc.boolean().map((api) => ({
        type: 'local_shell_call_output',
        ...(api ? { id } : { call_id: id }),
        output: out,
      }));
    case 'shell':
      return fc.constant({
        type: 'shell_call_output',
        call_id: id,
        output: [{ stdout: out, stderr: '', outcome: { type: 'exit', exit_code: code } }],
      });
    case 'apply_patch':
      return fc.constant({
        type: 'apply_patch_call_output',
        call_id: id,
        status: code === 0 ? 'completed' : 'failed',
        ...(out === '' ? {} : { output: out }),
      });
  }
}

const callArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  id: callId,
  arg: text,
  plain: fc.boolean(),
  out: text,
  code: fc.constantFrom(0, 0, 1),
});

/** A model turn: its parts, its calls, then the outputs of some of its calls in any order. */
const turnArb: fc.Arbitrary<Item[]> = fc
  .record({
    parts: fc.array(modelPart, { maxLength: 3 }),
    // Ids are unique in a turn (reused across turns): each output answers the call it was made for.
    calls: fc.uniqueArray(callArb, { maxLength: 3, selector: (c) => c.id }),
  })
  .chain(({ parts, calls }) =>
    fc
      .shuffledSubarray(calls)
      .chain((answered) => fc.tuple(...answered.map((c) => outputItem(c.kind, c.id, c.plain, c.out, c.code))))
      .map((outputs): Item[] => [...parts, ...calls.map((c) => callItem(c.kind, c.id, c.arg)), ...outputs]),
  );

const one = (item: Item): Item[] => [item];
const segment: fc.Arbitrary<Item[]> = fc.oneof(
  { weight: 3, arbitrary: message.map(one) },
  { weight: 4, arbitrary: turnArb },
  // An output answering no call (its id is never called), an item the reader does not know.
  {
    weight: 1,
    arbitrary: text.map((o) => one({ type: 'function_call_output', call_id: 'call_zz', output: o })),
  },
  {
    weight: 1,
    arbitrary: fc.constant(one({ type: 'tool_search_call', id: 'ts_1', arguments: {}, status: 'completed' })),
  },
);

const sessionArb = fc.record({
  items: fc.array(segment, { minLength: 1, maxLength: 8 }).map((s) => s.flat()),
  instructions: fc.option(text.filter((t) => t !== '')),
  shape: fc.constantFrom('request', 'bare', 'list'),
});

type SessionValue = { items: Item[]; instructions: string | null; shape: 'request' | 'bare' | 'list' };

function documentOf({ items, instructions, shape }: SessionValue): unknown {
  if (shape === 'bare') return items;
  if (shape === 'list') return { object: 'list', data: items, has_more: false };
  return instructions === null
    ? { model: 'gpt-5', input: items }
    : { model: 'gpt-5', instructions, input: items };
}

/** The transcript, or null for a session with nothing to read (only items the reader leaves out). */
function read(doc: unknown, file: string): Transcript | null {
  const r = readTranscript(JSON.stringify(doc), { file, format: 'responses' });
  if (r.ok) return r.transcript;
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 1 && errors[0]?.code === 'empty-transcript') return null;
  throw new Error(`${file} could not be read: ${errors[0]?.message ?? ''}`);
}

/** What the model saw, without ids and positions; pairing by artifact index. */
function projection(t: Transcript): unknown {
  const index = new Map(t.artifacts.map((a, i) => [a.id, i]));
  return {
    artifacts: t.artifacts.map((a) => ({
      kind: a.kind,
      role: a.role,
      content: a.content,
      tool: a.tool,
      call_id: a.call_id,
      tool_calls: a.tool_calls,
      exit_code: a.exit_code,
      is_error: a.is_error,
    })),
    pairs: Object.entries(t.pairing.resultToCall)
      .map(([result, call]) => [index.get(result), index.get(call)])
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)),
    unpairedCalls: t.pairing.unpairedCalls.length,
    unpairedResults: t.pairing.unpairedResults.length,
  };
}

describe('Responses round trip', () => {
  it('read → emit responses → read gives the same artifacts, pairs and request', () => {
    fc.assert(
      fc.property(sessionArb, (s) => {
        const first = read(documentOf(s), 'case.json');
        if (first === null) return;
        const context = contextOf(first);
        expect([...responsesNotes(context)]).toEqual([]);
        const request = emitContext(context, 'responses');
        const back = read(request, 'request.json');
        if (back === null) throw new Error('the emitted request reads as empty');
        expect(projection(back)).toEqual(projection(first));
        expect(emitContext(contextOf(back), 'responses')).toEqual(request);
        expect(detectFormat(JSON.stringify(request), 'request.json')?.format).toBe('responses');
      }),
      fcOptions(400),
    );
  });
});
