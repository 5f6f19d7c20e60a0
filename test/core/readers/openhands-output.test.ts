// OpenHands evaluation output (`output.jsonl`, one run per line, issue 31): one transcript per
// row, named FILE#N, from one parse of the file; a row with no event is skipped with one note.
import { describe, expect, it } from 'vitest';
import { detectFormat, readSessions, readTranscript } from '../../../src/core/readers/index.js';
import type { Transcript } from '../../../src/core/types.js';
import { fixture, where } from './helpers.js';

const FILE = 'runs/output.jsonl';
const OUTPUT = fixture('openhands/output.jsonl');
const ROWS = OUTPUT.trimEnd().split('\n');

function loaded(r: ReturnType<typeof readSessions>['sessions'][number] | undefined): Transcript {
  if (!r?.result.ok) throw new Error(`${r?.name ?? 'no session'} did not load`);
  return r.result.transcript;
}

function rows(t: Transcript): string[] {
  return t.artifacts.map(
    (a) =>
      `${a.id} ${a.kind}${a.tool_calls ? ` calls ${a.tool_calls.map((c) => `${c.id}/${c.name}`).join(',')}` : ''}${a.call_id ? ` -> ${a.call_id}` : ''} ${a.source.line}`,
  );
}

describe('OpenHands evaluation output (JSONL, one run per line)', () => {
  it('is detected as openhands JSONL, whatever the extension', () => {
    expect(detectFormat(OUTPUT, FILE)).toEqual({ format: 'openhands', container: 'jsonl' });
    expect(detectFormat(OUTPUT, 'runs/output.json')).toEqual({ format: 'openhands', container: 'jsonl' });
    // JSONL of other records is not claimed.
    expect(detectFormat('{"history": []}\n{"history": []}\n', FILE)).toBeNull();
  });

  const all = readSessions(OUTPUT, { file: FILE });

  it('reads one transcript per row, FILE#N, skipping the empty row with one note', () => {
    expect(all.count).toBe(3);
    expect(all.sessions.map((s) => s.name)).toEqual([`${FILE}#1`, `${FILE}#3`]);
    const first = loaded(all.sessions[0]);
    const note = first.diagnostics.find((d) => d.code === 'empty-sessions');
    expect(note).toMatchObject({ severity: 'warning', file: FILE, line: 1, column: 1 });
    expect(note?.message).toBe('1 of 3 rows is empty (no message) and was skipped: 2.');
    expect(loaded(all.sessions[1]).diagnostics.map((d) => d.code)).not.toContain('empty-sessions');
  });

  it('reads a row with the lines of the whole file and its run meta', () => {
    const first = loaded(all.sessions[0]);
    expect(first.file).toBe(`${FILE}#1`);
    expect(first.format).toBe('openhands');
    expect(first.meta).toMatchObject({
      instance_id: 'acme__widgets-101',
      agent_class: 'CodeActAgent',
      model: 'gpt-4o',
      session: 1,
      sessions: 3,
    });
    expect(rows(first)).toEqual([
      'm0 system 1',
      'm1 user 1',
      'm2 assistant calls call_1/execute_bash 1',
      'm3 tool -> call_1 1',
      'm4 assistant 1',
    ]);
    expect(first.artifacts.every((a) => a.source.file === `${FILE}#1`)).toBe(true);
    expect(first.pairing.unpairedCalls).toEqual([]);
  });

  it('reads an older row: fields beside the type, no source, no ids (the resolver output)', () => {
    const third = loaded(all.sessions[1]);
    expect(third.meta).toMatchObject({ issue_number: 7, session: 3, sessions: 3 });
    expect(rows(third)).toEqual([
      'm0 user 3',
      'm1 assistant calls oh-m1/run 3',
      'm2 tool -> oh-m1 3',
      'm3 assistant calls oh-m3/run_ipython 3',
      'm4 tool -> oh-m3 3',
      'm5 assistant 3',
    ]);
    const call = third.artifacts[1];
    expect(call?.content).toBe('Create the file.');
    expect(JSON.parse(call?.tool_calls?.[0]?.arguments ?? '{}')).toMatchObject({ command: 'touch LICENSE' });
    expect(call?.tool_calls?.[0]?.arguments).not.toContain('thought');
    expect(third.artifacts[2]?.exit_code).toBe(0);
    expect(third.artifacts[5]?.content).toBe('The licence file is there.');
    expect(third.pairing.unpairedCalls).toEqual([]);
    expect(third.pairing.unpairedResults).toEqual([]);
    // Each row's columns are those of its own line.
    const at = ROWS[2]?.indexOf('{"content": "Please add a licence file."') ?? -1;
    expect(third.artifacts[0]?.source.column).toBe(at + 1);
  });

  it('--session picks one row; last is the last that holds a message; an empty row asked for is an error', () => {
    const two = readSessions(OUTPUT, { file: FILE, session: 2 });
    expect(two.sessions.map((s) => s.name)).toEqual([`${FILE}#2`]);
    const failed = two.sessions[0]?.result;
    expect(failed?.ok).toBe(false);
    if (failed && !failed.ok) expect(where(failed.diagnostics)).toEqual(['1:1 error empty-transcript']);
    expect(readSessions(OUTPUT, { file: FILE, session: 'last' }).sessions.map((s) => s.name)).toEqual([
      `${FILE}#3`,
    ]);
    const out = readSessions(OUTPUT, { file: FILE, session: 4 }).sessions;
    expect(out.map((s) => s.name)).toEqual([FILE]);
    if (out[0] && !out[0].result.ok)
      expect(out[0].result.diagnostics.map((d) => d.code)).toEqual(['session-out-of-range']);
    // readTranscript reads the last row with a message under the name it is given.
    const last = readTranscript(OUTPUT, { file: FILE });
    expect(last.ok && last.transcript.meta['issue_number']).toBe(7);
  });

  it('--input-format openhands reads the JSONL too', () => {
    const forced = readSessions(OUTPUT, { file: FILE, format: 'openhands' });
    expect(forced.sessions.map((s) => s.name)).toEqual([`${FILE}#1`, `${FILE}#3`]);
  });

  it('a one-row file keeps its plain name', () => {
    const one = readSessions(`${ROWS[0] ?? ''}\n`, { file: FILE });
    expect(one.sessions.map((s) => s.name)).toEqual([FILE]);
    expect(loaded(one.sessions[0]).meta['session']).toBeUndefined();
    const json = readSessions(ROWS[2] ?? '', { file: 'runs/row.json' });
    expect(json.sessions.map((s) => s.name)).toEqual(['runs/row.json']);
    expect(loaded(json.sessions[0]).artifacts).toHaveLength(6);
  });

  it('a file whose every row is empty is one empty-transcript error', () => {
    const empty = readSessions(`${ROWS[1] ?? ''}\n${ROWS[1] ?? ''}\n`, { file: FILE });
    expect(empty.sessions.map((s) => s.name)).toEqual([FILE]);
    const result = empty.sessions[0]?.result;
    expect(result?.ok).toBe(false);
    if (result && !result.ok) {
      expect(where(result.diagnostics)).toEqual(['1:1 error empty-transcript']);
      expect(result.diagnostics[0]?.message).toContain('none of its 2 rows holds a message');
    }
  });

  it('a line that is not JSON is its own row, an error at its line; the other rows load', () => {
    const text = `${ROWS[0] ?? ''}\n{"instance_id": "x", "history": [\n${ROWS[2] ?? ''}\n`;
    const read = readSessions(text, { file: FILE });
    expect(read.sessions.map((s) => [s.name, s.result.ok])).toEqual([
      [`${FILE}#1`, true],
      [`${FILE}#2`, false],
      [`${FILE}#3`, true],
    ]);
    const bad = read.sessions[1]?.result;
    if (bad && !bad.ok) {
      expect(bad.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity}`)).toEqual([`${FILE}#2:2 error`]);
      expect(bad.diagnostics[0]?.message).not.toContain('instance_id');
    }
    expect(loaded(read.sessions[2]).artifacts[0]?.source.line).toBe(3);
  });
});
