import { describe, expect, it } from 'vitest';
import { expectClaudeWeb } from '../../e2e/expect-claude-web.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'exports/session.json';
const text = fixture('claude-web/session.json');

describe('Claude web reader: an exported session with tools, a side chain and bad records', () => {
  const t = load(text, { file: FILE });

  it('detects the format and makes logline i artifact m<i>, each tool_result m<i>.<block>', () => {
    expect(t.format).toBe('claude-web');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.sidechain ? '/side' : ''}`)).toEqual([
      'm0:summary',
      'm1:user',
      'm2:assistant',
      'm3.0:tool',
      'm5:assistant',
      'm6.0:tool',
      'm6.1:tool',
      'm6:user',
      'm7:user/side',
      'm8:assistant/side',
      'm12:assistant',
      'm13.0:tool',
      'm13.1:tool',
      'm15:user',
      'm16:assistant',
    ]);
  });

  it('positions records at their objects and tool results at their blocks', () => {
    expect(t.artifacts.map((a) => `${a.source.line}:${a.source.column}`)).toEqual([
      '5:5',
      '6:5',
      '7:5',
      '8:137',
      '10:5',
      '11:137',
      '11:243',
      '11:5',
      '12:5',
      '13:5',
      '17:5',
      '18:137',
      '18:225',
      '20:5',
      '21:5',
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('reads content as Anthropic blocks: thinking and images opaque, tool_use as tool calls', () => {
    const m2 = t.artifacts[2];
    expect(m2?.content).toEqual([
      {
        type: 'thinking',
        thinking: "A weekly failure smells like a dependency on today's date.",
        signature: 'EuYBCkQYAiJA',
      },
      { type: 'text', text: 'Let me read the parser first.' },
    ]);
    expect(m2?.tool_calls).toEqual([
      { id: 'toolu_01', name: 'Read', arguments: '{"file_path":"/repo/dates/parse.py"}' },
    ]);
    expect(t.artifacts[13]?.content).toEqual([
      { type: 'text', text: 'Here is the CI log from last Monday.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    expect(t.artifacts[1]?.content).toBe(
      'The test_parse_week test fails about once a week. Find out why and fix it.',
    );
  });

  it('puts tool results before the text of their user turn and keeps is_error', () => {
    expect(t.artifacts.slice(5, 8).map((a) => [a.id, a.call_id ?? null, a.is_error ?? false])).toEqual([
      ['m6.0', 'toolu_03', false],
      ['m6.1', 'toolu_02', true],
      ['m6', null, false],
    ]);
  });

  it('pairs results by id and reports the unpaired ones', () => {
    expect(t.pairing.resultToCall).toEqual({ 'm3.0': 'm2', 'm6.0': 'm5', 'm6.1': 'm5', 'm13.0': 'm12' });
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm13.1', call_id: 'toolu_99', line: 18 }]);
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm16', call_id: 'toolu_05', line: 21 }]);
    expect(t.artifacts.find((a) => a.id === 'm6.0')?.tool).toBe('Grep');
  });

  it('links a summary to the record its leafUuid names', () => {
    expect(t.artifacts[0]?.provenance).toEqual(['m5']);
  });

  it('skips other record types once per type and bad records each, as warnings at their position', () => {
    expect(where(t.diagnostics)).toEqual([
      '9:5 warning skipped-record',
      '14:5 warning skipped-record',
      '15:5 warning malformed-record',
      '16:5 warning malformed-record',
      '18:225 warning unpaired-result',
      '21:5 warning unpaired-call',
    ]);
    expect(t.diagnostics[0]?.message).toContain('2 record(s) of type `file-history-snapshot`');
    expect(t.diagnostics[2]?.message).toContain('`loglines[10].message`');
    expect(t.diagnostics[3]?.message).toContain('`loglines[11].message.content[0].id`');
    expectNoQuote(t.diagnostics, ['CANARY-edit-margaret.hamilton@example.org', 'margaret.hamilton']);
  });

  it('keeps the root scalars as meta', () => {
    expect(t.meta).toEqual({ sessionId: 'web-2f0c9d3e', exportedAt: '2026-01-05T10:00:00.000Z' });
  });

  it('agrees with the independent count of expect-claude-web.ts', () => {
    expect(expectClaudeWeb(text)).toEqual({
      format: 'claude-web',
      artifacts: t.artifacts.length,
      pairedResults: Object.keys(t.pairing.resultToCall).length,
      unpairedCalls: t.pairing.unpairedCalls.length,
      sidechain: t.artifacts.filter((a) => a.sidechain).length,
      invalidLines: 0,
    });
  });

  it('reads the same when the format is forced, and from a one-line export', () => {
    expect(load(text, { file: FILE, format: 'claude-web' }).artifacts).toEqual(t.artifacts);
    const oneLine = load(JSON.stringify(JSON.parse(text)), { file: FILE });
    expect(oneLine.artifacts.map((a) => a.id)).toEqual(t.artifacts.map((a) => a.id));
    expect(new Set(oneLine.artifacts.map((a) => a.source.column)).size).toBe(oneLine.artifacts.length);
  });
});

const rec = (type: string, uuid: string, parentUuid: string | null, content: string, extra = {}): object => ({
  type,
  uuid,
  parentUuid,
  message: { role: type, content },
  ...extra,
});

describe('Claude web reader: the chain the model saw', () => {
  it('marks a rewound branch abandoned and what a compaction summarized compacted', () => {
    const loglines = [
      rec('user', 'u1', null, 'first try'),
      rec('assistant', 'a1', 'u1', 'answer one'),
      rec('user', 'u2', 'u1', 'rewound: second try'),
      rec('assistant', 'a2', 'u2', 'answer two'),
      { type: 'system', subtype: 'compact_boundary', uuid: 'b', parentUuid: null, logicalParentUuid: 'a2' },
      rec('user', 'u3', 'b', 'This session continues from an earlier one.', { isCompactSummary: true }),
      rec('assistant', 'a3', 'u3', 'continuing'),
    ];
    const json = JSON.stringify({ loglines });
    const t = load(json, { file: 'chain.json' });
    expect(t.artifacts.map((a) => `${a.id}:${a.offChain ?? 'on'}`)).toEqual([
      'm0:compacted',
      'm1:abandoned_branch',
      'm2:compacted',
      'm3:compacted',
      'm5:on',
      'm6:on',
    ]);
    const boundary = json.indexOf('{"type":"system"') + 1;
    expect(where(t.diagnostics)).toEqual([`1:${boundary} warning skipped-record`]);
  });

  it('reads an export without uuids in file order, the compaction summary as a user message', () => {
    const loglines = [
      { type: 'user', message: { role: 'user', content: 'q' } },
      { type: 'user', isCompactSummary: true, message: { role: 'user', content: 'summary so far' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }] } },
    ];
    const t = load(JSON.stringify({ loglines }), { file: 'flat.json' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}:${a.offChain ?? 'on'}`)).toEqual([
      'm0:user:on',
      'm1:user:on',
      'm2:assistant:on',
    ]);
  });
});

describe('Claude web reader: records it cannot use', () => {
  it('warns about records that are not objects or have no type, and loads the rest', () => {
    const text =
      '{"loglines": [\n  "CANARY-scalar",\n  {"message": {"role": "user", "content": "x"}},\n  {"type": 7},\n  {"type": "user", "message": {"role": "user", "content": "ok"}}\n]}';
    const t = load(text, { file: 'w.json' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['m3']);
    expect(where(t.diagnostics)).toEqual([
      '1:14 warning malformed-record',
      '3:3 warning malformed-record',
      '4:3 warning malformed-record',
    ]);
    expectNoQuote(t.diagnostics, ['CANARY-scalar']);
  });

  it('does not load an export with no usable record', () => {
    const diagnostics = failure('{"loglines": [{"type": "file-history-snapshot"}]}', { file: 'e.json' });
    expect(where(diagnostics)).toEqual(['1:1 error empty-transcript', '1:15 warning skipped-record']);
  });

  it('refuses a document without loglines when the format is forced', () => {
    const diagnostics = failure('{"messages": []}', { file: 'x.json', format: 'claude-web' });
    expect(where(diagnostics)).toEqual(['1:1 error invalid-session']);
  });
});
