import { describe, expect, it } from 'vitest';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'sessions/rollout-2026-03-01.jsonl';
const text = fixture('codex/session.jsonl');

describe('Codex CLI rollout reader', () => {
  const t = load(text, { file: FILE });
  const byId = (id: string) => t.artifacts.find((a) => a.id === id);

  it('detects the format; meta from session_meta, without message text', () => {
    expect(t.format).toBe('codex');
    expect(t.meta).toEqual({
      session_id: '0c0ffee0-0000-4000-8000-000000000001',
      cli_version: '0.50.0',
      originator: 'codex_cli_rs',
      model_provider: 'openai',
      source: 'cli',
    });
    expect(load(text, { file: FILE, format: 'codex' }).artifacts).toEqual(t.artifacts);
  });

  it('reads response items: instructions and Codex context as system, one turn per run of model items', () => {
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.role ? `/${a.role}` : ''}`)).toEqual([
      'L1:system',
      'L2:system/user',
      'L3:system/user',
      'L6:user',
      'L7:assistant',
      'L9:tool',
      'L10:assistant',
      'L11:tool/local_shell_call_output',
      'L12:assistant',
      'L13:tool/custom_tool_call_output',
      'L14:assistant',
      'L17:tool',
      'L24:user',
      'L25:summary',
      'L26:assistant',
      'L27:tool',
    ]);
    expect(byId('L1')?.content).toBe('You are a coding agent.');
    expect(t.artifacts.every((a) => a.source.file === FILE && a.source.column === 1)).toBe(true);
  });

  it('keeps reasoning and web search untouched as parts of the assistant turn with its calls', () => {
    const turn = byId('L7');
    expect(turn?.content).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Run the tests first.' }],
        content: null,
        encrypted_content: 'gAAAAB-opaque',
      },
    ]);
    expect(turn?.tool_calls).toEqual([
      { id: 'call_1', name: 'shell', arguments: '{"command":["npm","test"]}' },
    ]);
    const last = byId('L14');
    expect(last?.content).toEqual([
      { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'Date.parse ISO' } },
      { type: 'text', text: 'The date test passes now.' },
    ]);
    expect(last?.tool_calls?.map((c) => c.id)).toEqual(['call_4']);
  });

  it('reads local shell and custom tool calls with their arguments as written', () => {
    expect(byId('L10')?.tool_calls).toEqual([
      { id: 'call_2', name: 'local_shell', arguments: '{"type":"exec","command":["cat","src/date.ts"]}' },
    ]);
    expect(byId('L12')?.tool_calls?.[0]?.arguments).toBe(
      '*** Begin Patch\n*** Update File: src/date.ts\n*** End Patch',
    );
  });

  it('pairs outputs by call_id and reads the exit code Codex wraps around shell output', () => {
    expect(t.pairing.resultToCall).toEqual({ L9: 'L7', L11: 'L10', L13: 'L12', L27: 'L26' });
    expect(byId('L9')).toMatchObject({ tool: 'shell', exit_code: 1, is_error: true });
    expect(byId('L27')).toMatchObject({ tool: 'shell', exit_code: 0 });
    expect(byId('L27')?.is_error).toBeUndefined();
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'L14', call_id: 'call_4', line: 14 }]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'L17', call_id: 'call_9', line: 17 }]);
  });

  it('a compacted record: its summary stands for what came before, user messages stay', () => {
    const summary = byId('L25');
    expect(summary?.content).toBe(
      'Summary: the date parser was fixed; tests pass; the user asked to commit.',
    );
    const compacted = t.artifacts.filter((a) => a.offChain === 'compacted').map((a) => a.id);
    expect(compacted).toEqual(['L7', 'L9', 'L10', 'L11', 'L12', 'L13', 'L14', 'L17']);
    expect(summary?.provenance).toEqual(compacted);
    for (const id of ['L1', 'L2', 'L3', 'L6', 'L24', 'L25', 'L26', 'L27'])
      expect(byId(id)?.offChain).toBeUndefined();
  });

  it('a compacted record with replacement_history continues from those items alone', () => {
    const lines = [
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"first"}]}}',
      '{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}',
      '{"type":"compacted","payload":{"message":"s","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"first (kept)"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"handoff summary"}]}]}}',
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]}}',
    ];
    const r = load(lines.join('\n'), { file: 'r.jsonl' });
    expect(r.artifacts.map((a) => `${a.id}:${a.kind}:${a.offChain ?? 'on'}`)).toEqual([
      'L1:user:compacted',
      'L2:assistant:compacted',
      'L3.0:user:on',
      'L3.1:assistant:on',
      'L4:user:on',
    ]);
  });

  it('reports malformed records at their line and skips them; unknown record types are one warning each', () => {
    expect(where(t.diagnostics)).toEqual([
      '14:1 warning unpaired-call',
      '17:1 warning unpaired-result',
      '18:1 error invalid-codex-record',
      '19:1 error invalid-codex-record',
      '20:1 error invalid-codex-record',
      '21:1 error json-syntax',
      '22:1 warning skipped-record',
    ]);
    expect(t.diagnostics.find((d) => d.code === 'skipped-record')?.message).toContain(
      '2 records of type ghost_snapshot',
    );
    expectNoQuote(t.diagnostics, ['CANARY', 'jane.doe@example.com', 'pirate']);
  });

  it('a compacted record without a summary is an error at its line; the rest loads', () => {
    const lines = [
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}',
      '{"type":"compacted","payload":{"message":7}}',
    ];
    const r = load(lines.join('\n'), { file: 'c.jsonl' });
    expect(where(r.diagnostics)).toEqual(['2:1 error invalid-codex-record']);
  });

  it('a rollout with no conversation does not load', () => {
    const only = '{"type":"session_meta","payload":{"id":"x"}}\n{"type":"turn_context","payload":{}}';
    expect(where(failure(only, { file: 'empty.jsonl' }))).toEqual(['1:1 error empty-transcript']);
  });
});
