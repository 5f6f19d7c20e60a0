// aider appends a session each time it starts, even when it is closed without a word: such a
// session (a heading, perhaps aider's start-up lines) has no message. In a file of several
// sessions it is skipped with one note for the file (issue 31); only a file of nothing but empty
// sessions is the error `empty-transcript`.
import { describe, expect, it } from 'vitest';
import { readSessions, readTranscript } from '../../../src/core/readers/index.js';
import { aiderHistory } from './aider-history.js';

const FILE = 'history.md';

const EMPTY = new Set([1, 3, 7, 12, 13, 20, 21, 22, 23, 24, 25, 30]);
const TEXT = aiderHistory(30, EMPTY);

describe('aider: empty sessions of a multi-session history', () => {
  it('are skipped with one note that counts and lists them; the others keep their numbers', () => {
    const read = readSessions(TEXT, { file: FILE });
    expect(read.count).toBe(30);
    const kept = Array.from({ length: 30 }, (_, i) => i + 1).filter((n) => !EMPTY.has(n));
    expect(read.sessions.map((s) => s.name)).toEqual(kept.map((n) => `${FILE}#${n}`));
    expect(read.sessions.every((s) => s.result.ok)).toBe(true);
    const notes = read.sessions.flatMap((s) =>
      s.result.ok ? s.result.transcript.diagnostics.filter((d) => d.code === 'empty-sessions') : [],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ severity: 'warning', file: FILE, line: 1, column: 1 });
    expect(notes[0]?.message).toBe(
      '12 of 30 sessions are empty (no message) and were skipped: 1, 3, 7, 12, 13, 20, 21, 22, 23, 24, …',
    );
    const first = read.sessions[0];
    expect(first?.result.ok && first.result.transcript.diagnostics[0]?.code).toBe('empty-sessions');
  });

  it('counts with thousands separators', () => {
    const empty = new Set(Array.from({ length: 1133 }, (_, i) => i + 1).filter((n) => n % 7 !== 0));
    const read = readSessions(aiderHistory(1133, empty), { file: FILE });
    const first = read.sessions[0];
    const note = first?.result.ok ? first.result.transcript.diagnostics[0] : undefined;
    expect(note?.message).toMatch(
      /^972 of 1,133 sessions are empty \(no message\) and were skipped: 1, 2, 3,/,
    );
    expect(read.sessions).toHaveLength(161);
  });

  it('--session last is the last session with a message; an empty one asked for is read as it is', () => {
    expect(readSessions(TEXT, { file: FILE, session: 'last' }).sessions.map((s) => s.name)).toEqual([
      `${FILE}#29`,
    ]);
    const last = readTranscript(TEXT, { file: FILE });
    expect(last.ok && last.transcript.meta['session']).toBe(29);
    // Session 3 is a heading alone: nothing to read.
    const third = readSessions(TEXT, { file: FILE, session: 3 }).sessions[0];
    expect(third?.name).toBe(`${FILE}#3`);
    expect(third?.result.ok).toBe(false);
    if (third && !third.result.ok)
      expect(third.result.diagnostics.map((d) => d.code)).toEqual(['empty-transcript']);
  });

  it('a file of empty sessions only is one empty-transcript error; one empty session alone too', () => {
    const all = readSessions(aiderHistory(4, new Set([1, 2, 3, 4])), { file: FILE });
    expect(all.sessions.map((s) => s.name)).toEqual([FILE]);
    const result = all.sessions[0]?.result;
    expect(result?.ok).toBe(false);
    if (result && !result.ok) {
      expect(result.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['error empty-transcript']);
      expect(result.diagnostics[0]?.message).toContain('none of its 4 sessions holds a message');
    }
    const single = readSessions('# aider chat started at 2024-11-04 09:12:45\n\n', { file: FILE });
    expect(single.sessions[0]?.result.ok).toBe(false);
  });

  it('a single session keeps being read as it is, even with no message', () => {
    const startOnly = '# aider chat started at 2024-11-04 09:12:45\n\n> Aider v0.62.1  \n';
    const one = readSessions(startOnly, { file: FILE });
    expect(one.sessions.map((s) => [s.name, s.result.ok])).toEqual([[FILE, true]]);
  });
});
