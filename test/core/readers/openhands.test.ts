import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isOpenHandsDocument } from '../../../src/core/readers/openhands.js';
import type { Transcript } from '../../../src/core/types.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const FILE = 'trajectories/session.json';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function byId(t: Transcript, id: string) {
  const a = t.artifacts.find((x) => x.id === id);
  if (!a) throw new Error(`no artifact ${id}`);
  return a;
}

/** A minimal event, so inline cases stay readable. */
function ev(id: number, source: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { id, timestamp: '2025-03-14T10:00:00', source, message: '', ...fields };
}
const user = (id: number, content: string) => ev(id, 'user', { action: 'message', args: { content } });
function fcRun(id: number, callId: string, responseId: string, command: string) {
  return ev(id, 'agent', {
    action: 'run',
    tool_call_metadata: {
      function_name: 'execute_bash',
      tool_call_id: callId,
      model_response: {
        id: responseId,
        choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }],
      },
      total_calls_in_response: 1,
    },
    args: { command, thought: '' },
  });
}
function output(id: number, cause: number, callId: string | null, content: string, extras = {}) {
  const meta = callId ? { tool_call_metadata: { function_name: 'execute_bash', tool_call_id: callId } } : {};
  return ev(id, 'agent', { cause, observation: 'run', ...meta, content, extras });
}

describe('OpenHands reader: UI trajectory with calls, a condensation and UI events', () => {
  const t = load(fixture('openhands/session.json'), { file: FILE });

  it('detects the format; --format openhands reads it the same', () => {
    expect(t.format).toBe('openhands');
    const forced = load(fixture('openhands/session.json'), { file: FILE, format: 'openhands' });
    expect(forced.artifacts).toEqual(t.artifacts);
  });

  it('keeps one artifact per conversation event, ids m<i> from the event position', () => {
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm0:system',
      'm2:user',
      'm6:assistant',
      'm7:tool',
      'm8:assistant',
      'm10:tool',
      'm11:tool',
      'm12:assistant',
      'm13:tool',
      'm14:assistant',
      'm15:tool',
      'm16:assistant',
      'm17:tool',
      'm18:assistant',
      'm19:tool',
      'm20:summary',
      'm22:assistant',
      'm25:user',
      'm26:assistant',
      'm27:tool',
      'm28:assistant',
      'm29:tool',
      'm30:assistant',
      'm31:tool',
      'm32:assistant',
    ]);
    expect(['m0', 'm2', 'm6', 'm8', 'm20', 'm32'].map((id) => byId(t, id).source.line)).toEqual([
      2, 46, 104, 219, 901, 1210,
    ]);
    expect(t.artifacts.every((a) => a.source.file === FILE && a.source.column === 3)).toBe(true);
  });

  it('reads the system prompt and keeps a few scalars as meta', () => {
    expect(byId(t, 'm0').content).toMatch(/^You are OpenHands agent/);
    expect(t.meta).toEqual({
      agent_class: 'CodeActAgent',
      openhands_version: '0.39.0',
      model: 'claude-sonnet-4-20250514',
    });
  });

  it('keeps the user message text and its images as image_url parts, as OpenHands sends them', () => {
    expect(byId(t, 'm2').content).toEqual([
      {
        type: 'text',
        text: 'The CSV export in reports/export.py drops the header row. Please fix it and add a test.',
      },
      { type: 'image_url', image_url: { url: 'https://files.example/export-bug.png' } },
    ]);
    // An empty image list is no part.
    expect(byId(t, 'm25').content).toBe('Thanks. Can you also check that the docs build?');
  });

  it("takes a call's id, name and arguments from the model response, its text from the model", () => {
    const m6 = byId(t, 'm6');
    expect(m6.content).toBe('Let me look at the export module first.');
    expect(m6.tool_calls).toEqual([
      { id: 'toolu_01A', name: 'execute_bash', arguments: '{"command": "sed -n 1,40p export.py"}' },
    ]);
  });

  it('makes the calls of one model response one assistant turn with several calls', () => {
    const m8 = byId(t, 'm8');
    expect(m8.content).toBe("I'll read the test file and run the current tests at once.");
    expect(m8.tool_calls?.map((c) => `${c.id}:${c.name}`)).toEqual([
      'toolu_02B:str_replace_editor',
      'toolu_02C:execute_bash',
    ]);
    expect(t.pairing.resultToCall).toMatchObject({ m10: 'm8', m11: 'm8' });
  });

  it('reads exit codes from extras.metadata or extras; non-zero, errors and rejections are errors', () => {
    expect(byId(t, 'm7')).toMatchObject({ exit_code: 0, content: expect.stringMatching(/^import csv/) });
    expect(byId(t, 'm7').is_error).toBeUndefined();
    expect(byId(t, 'm11')).toMatchObject({ exit_code: 1, is_error: true });
    expect(byId(t, 'm13')).toMatchObject({ is_error: true, tool: 'str_replace_editor' });
    expect(byId(t, 'm13').exit_code).toBeUndefined();
    expect(byId(t, 'm27')).toMatchObject({ exit_code: 2, is_error: true });
    expect(byId(t, 'm29')).toMatchObject({ is_error: true, tool: 'browser', call_id: 'toolu_07H' });
  });

  it('gives a think call no text of its own: its thought is the argument', () => {
    expect(byId(t, 'm14').content).toBe('');
    expect(byId(t, 'm14').tool_calls).toEqual([
      {
        id: 'toolu_04E',
        name: 'think',
        arguments: '{"thought": "The file is indented with tabs, so old_str must use a tab."}',
      },
    ]);
    expect(byId(t, 'm15').content).toBe('Your thought has been logged.');
  });

  it('pairs a call without tool_call_metadata by cause, with an id from the action id', () => {
    expect(byId(t, 'm26')).toMatchObject({
      content: 'Running the docs build.',
      tool_calls: [
        {
          id: 'oh-26',
          name: 'run',
          arguments: '{"command":"make -C docs html","blocking":false,"hidden":false}',
        },
      ],
    });
    expect(byId(t, 'm27').call_id).toBe('oh-26');
    expect(t.pairing.resultToCall['m27']).toBe('m26');
  });

  it('reads agent messages and finish as assistant text, the finish call unanswered by design', () => {
    expect(byId(t, 'm22').content).toMatch(/^Fixed: export.py/);
    const m32 = byId(t, 'm32');
    expect(m32.content).toBe('The docs have no html target (Makefile lists only `md`); I stopped there.');
    expect(m32.tool_calls).toBeUndefined();
  });

  it('reads a condensation as a summary and marks the events it forgets compacted', () => {
    expect(byId(t, 'm20').content).toMatch(/^USER_CONTEXT: fix the missing CSV header/);
    expect(byId(t, 'm20').offChain).toBeUndefined();
    const compacted = t.artifacts.filter((a) => a.offChain === 'compacted').map((a) => a.id);
    expect(compacted).toEqual(['m6', 'm7', 'm8', 'm10', 'm11']);
    // The summary stands for what it forgets: its provenance.
    expect(byId(t, 'm20').provenance).toEqual(compacted);
  });

  it('pairs results by tool_call_id and reports the unpaired call and result', () => {
    expect(Object.keys(t.pairing.resultToCall)).toHaveLength(9);
    expect(t.pairing.unpairedCalls).toEqual([{ artifact: 'm30', call_id: 'toolu_08I', line: 1096 }]);
    expect(t.pairing.unpairedResults).toEqual([{ artifact: 'm31', call_id: 'toolu_99Z', line: 1149 }]);
  });

  it('leaves out UI events with one warning per kind, and the malformed event with a warning', () => {
    expect(where(t.diagnostics)).toEqual([
      '34:3 warning skipped-record',
      '61:3 warning skipped-record',
      '73:3 warning skipped-record',
      '915:3 warning invalid-openhands-event',
      '937:3 warning skipped-record',
      '1096:3 warning unpaired-call',
      '1149:3 warning unpaired-result',
    ]);
    const skipped = t.diagnostics.filter((d) => d.code === 'skipped-record').map((d) => d.message);
    expect(skipped[0]).toContain('4 OpenHands events of kind "observation agent_state_changed"');
    expect(skipped[1]).toContain('"action recall"');
    expect(skipped[3]).toContain('"observation null"');
    expectNoQuote(t.diagnostics, ['CANARY-OH-7731', 'private notes']);
  });
});

describe('OpenHands reader: evaluation rows', () => {
  it('reads a row with a `history` of events and keeps run scalars, never the instruction, as meta', () => {
    const t = load(fixture('openhands/eval-row.json'), { file: 'output.json' });
    expect(t.format).toBe('openhands');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm0:system',
      'm1:user',
      'm3:assistant',
      'm4:tool',
      'm5:assistant',
    ]);
    expect(t.meta).toEqual({
      agent_class: 'CodeActAgent',
      openhands_version: '0.40.0',
      model: 'openai/gpt-4o-2024-08-06',
      instance_id: 'acme__reports-12',
      max_iterations: 100,
    });
    // A finish call whose model said nothing: its final thought is the text.
    expect(byId(t, 'm5').content).toBe('Added writeheader().');
    expect(where(t.diagnostics)).toEqual(['46:5 warning skipped-record']);
  });

  it('reads older [action, observation] pairs as their two events, ids m<i>.<half>', () => {
    const t = load(fixture('openhands/eval-pairs.json'), { file: 'pairs.json' });
    expect(t.format).toBe('openhands');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}`)).toEqual([
      'm0.0:user',
      'm1.0:assistant',
      'm1.1:tool',
      'm2.0:assistant',
      'm2.1:tool',
      'm3.0:assistant',
      'm5.0:assistant',
    ]);
    expect(t.pairing.resultToCall).toEqual({ 'm1.1': 'm1.0', 'm2.1': 'm2.0' });
    expect(byId(t, 'm1.1')).toMatchObject({ call_id: 'oh-2', exit_code: 1, is_error: true });
    expect(byId(t, 'm0.0').source).toMatchObject({ line: 10, column: 7 });
    // Null placeholders, and a background output whose action was null, are left out.
    expect(where(t.diagnostics)).toEqual([
      '22:7 warning skipped-record',
      '104:7 warning skipped-record',
      '109:7 warning skipped-record',
    ]);
  });
});

describe('OpenHands reader: rules on inline histories', () => {
  it('keeps only the latest condensation summary current; forgets by id list and by range', () => {
    const history = [
      user(0, 'task'),
      fcRun(1, 'c1', 'r1', 'ls'),
      output(2, 1, 'c1', 'a.py'),
      ev(3, 'agent', { action: 'condensation', args: { forgotten_event_ids: [1, 2], summary: 'first' } }),
      fcRun(4, 'c4', 'r4', 'pwd'),
      output(5, 4, 'c4', '/w'),
      ev(6, 'agent', {
        action: 'condensation',
        args: { forgotten_events_start_id: 3, forgotten_events_end_id: 5, summary: 'second' },
      }),
      ev(7, 'agent', { action: 'condensation', args: { forgotten_event_ids: [], summary: null } }),
    ];
    const t = load(JSON.stringify(history), { file: 'c.json' });
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}:${a.offChain ?? '-'}`)).toEqual([
      'm0:user:-',
      'm1:assistant:compacted',
      'm2:tool:compacted',
      'm3:summary:compacted',
      'm4:assistant:compacted',
      'm5:tool:compacted',
      'm6:summary:-',
    ]);
    expect(byId(t, 'm3').provenance).toEqual(['m1', 'm2']);
    expect(byId(t, 'm6').provenance).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(t.diagnostics).toEqual([]);
  });

  it('groups calls of one response across their interleaved observations, not across a user turn', () => {
    const history = [
      user(0, 'go'),
      fcRun(1, 'a', 'resp-1', 'ls'),
      output(2, 1, 'a', 'x'),
      fcRun(3, 'b', 'resp-1', 'pwd'),
      output(4, 3, 'b', '/w'),
      user(5, 'again'),
      fcRun(6, 'c', 'resp-1', 'ls'),
      output(7, 6, 'c', 'x'),
    ];
    const t = load(JSON.stringify(history), { file: 'g.json' });
    expect(t.artifacts.map((a) => `${a.id}:${(a.tool_calls ?? []).map((c) => c.id).join(',')}`)).toEqual([
      'm0:',
      'm1:a,b',
      'm2:',
      'm4:',
      'm5:',
      'm6:c',
      'm7:',
    ]);
    expect(t.pairing.resultToCall).toEqual({ m2: 'm1', m4: 'm1', m7: 'm6' });
  });

  it('falls back to the JSON of args (without the thought) when the response has no arguments', () => {
    const t = load(JSON.stringify([user(0, 'go'), fcRun(1, 'a', 'r', 'ls'), output(2, 1, 'a', 'x')]), {
      file: 'a.json',
    });
    expect(byId(t, 'm1').tool_calls?.[0]?.arguments).toBe('{"command":"ls"}');
  });

  it('reads exit code -1 (still running) as no exit code; pairs an output by cause alone', () => {
    const history = [
      user(0, 'serve'),
      fcRun(1, 'a', 'r', 'python -m http.server'),
      output(2, 1, null, 'Serving HTTP', { metadata: { exit_code: -1 } }),
    ];
    const t = load(JSON.stringify(history), { file: 'x.json' });
    expect(byId(t, 'm2')).toMatchObject({ call_id: 'a', tool: 'execute_bash' });
    expect(byId(t, 'm2').exit_code).toBeUndefined();
    expect(byId(t, 'm2').is_error).toBeUndefined();
  });

  it('keeps a thought object’s reasoning as an opaque part before the text', () => {
    const history = [
      user(0, 'go'),
      ev(1, 'agent', {
        action: 'run',
        args: { command: 'ls', thought: { text: 'Listing.', reasoning_content: 'hmm' } },
      }),
    ];
    const t = load(JSON.stringify(history), { file: 'r.json' });
    expect(byId(t, 'm1').content).toEqual([
      { type: 'reasoning', reasoning_content: 'hmm' },
      { type: 'text', text: 'Listing.' },
    ]);
  });

  it('leaves out user-side and unknown actions with one warning per kind', () => {
    const history = [
      user(0, 'go'),
      ev(1, 'user', { action: 'run', args: { command: 'ls' } }),
      ev(2, 'user', { action: 'run', args: { command: 'pwd' } }),
      ev(3, 'agent', { action: 'teleport', args: {} }),
      ev(4, 'agent', { cause: 1, observation: 'run', content: 'a.py', extras: {} }),
    ];
    const t = load(JSON.stringify(history, null, 1), { file: 'u.json' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['m0']);
    expect(t.diagnostics.map((d) => `${d.line} ${d.code} ${d.message.split(':')[0]}`)).toEqual([
      '12 skipped-record Left out 2 OpenHands events of kind "user action run" (first here)',
      '32 skipped-record Left out 1 OpenHands event of kind "action teleport" (first here)',
      '40 skipped-record Left out 1 OpenHands event of kind "observation run answering no call" (first here)',
    ]);
  });

  it('reports malformed events and history items as warnings at their line:column, never quoting them', () => {
    const canary = 'CANARY-OH-4410';
    const text = [
      '{"history": [',
      '  {"id": 0, "source": "user", "action": "message", "args": {"content": "task"}},',
      `  {"id": 1, "source": "agent", "action": "message", "args": {"content": ["${canary}"]}},`,
      `  {"id": 2, "source": "agent", "action": "run", "tool_call_metadata": "${canary}", "args": {}},`,
      `  {"id": 3, "source": "agent", "observation": "run", "cause": 2, "content": {"x": "${canary}"}},`,
      `  [{"action": "null"}, {"observation": "null"}, {"observation": "${canary}"}],`,
      `  {"id": 5, "source": "agent", "action": "run", "args": "${canary}"},`,
      `  {"id": 6, "source": "agent", "action": "run", "observation": "run"}`,
      ']}',
    ].join('\n');
    // A three-item pair among the first items: detection declines, the forced reader reports it.
    const t = load(text, { file: 'bad.json', format: 'openhands' });
    expect(t.artifacts.map((a) => a.id)).toEqual(['m0']);
    expect(where(t.diagnostics)).toEqual([
      '3:3 warning invalid-openhands-event',
      '4:3 warning invalid-openhands-event',
      '5:3 warning invalid-openhands-event',
      '6:3 warning invalid-openhands-event',
      '7:3 warning invalid-openhands-event',
      '8:3 warning invalid-openhands-event',
    ]);
    expectNoQuote(t.diagnostics, [canary]);
  });

  it('does not load a document with no history, nor one with no conversation event', () => {
    const noHistory = failure('{"instance_id": "x", "events": []}', { file: 'n.json', format: 'openhands' });
    expect(where(noHistory)).toEqual(['1:1 error invalid-openhands-document']);
    const onlyState = failure(
      JSON.stringify([ev(0, 'environment', { observation: 'agent_state_changed', content: '', extras: {} })]),
      { file: 's.json' },
    );
    expect(onlyState.map((d) => d.code)).toEqual(['empty-transcript', 'skipped-record']);
  });
});

describe('OpenHands detection', () => {
  /** Every other reader fixture and example: JSON documents, and each line of JSONL files. */
  function otherRoots(): [string, unknown][] {
    const roots: [string, unknown][] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'openhands') walk(full);
          continue;
        }
        const text = readFileSync(full, 'utf8');
        const rel = path.relative(ROOT, full);
        const values = entry.name.endsWith('.jsonl') ? text.split('\n') : [text];
        for (const value of values) {
          try {
            roots.push([rel, JSON.parse(value) as unknown]);
          } catch {
            // Not JSON (aider Markdown, malformed lines): nothing a JSON predicate sees.
          }
        }
      }
    };
    walk(path.join(ROOT, 'test/fixtures/readers'));
    walk(path.join(ROOT, 'examples/transcripts'));
    return roots;
  }

  it('says false for every other fixture and example', () => {
    const roots = otherRoots();
    expect(roots.length).toBeGreaterThan(10);
    expect(roots.filter(([, root]) => isOpenHandsDocument(root)).map(([rel]) => rel)).toEqual([]);
  });

  it('says false for SWE-agent trajectories and chat messages, true for the three OpenHands shapes', () => {
    expect(isOpenHandsDocument({ history: [{ role: 'system', content: 's' }] })).toBe(false);
    expect(isOpenHandsDocument({ trajectory: [{ action: 'ls', observation: 'a.py' }] })).toBe(false);
    expect(isOpenHandsDocument([{ action: 'ls', observation: 'a.py', response: 'r' }])).toBe(false);
    expect(isOpenHandsDocument([{ action: 'message', args: {} }])).toBe(false);
    expect(isOpenHandsDocument([])).toBe(false);
    expect(isOpenHandsDocument({ history: [] })).toBe(false);
    for (const name of ['session.json', 'eval-row.json', 'eval-pairs.json']) {
      const text = fixture(`openhands/${name}`);
      expect(isOpenHandsDocument(JSON.parse(text))).toBe(true);
      expect(load(text, { file: name }).format).toBe('openhands');
    }
  });
});
