import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTranscript } from '../../src/io/load-transcript.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/cli');

describe('loadTranscript', () => {
  it('reads and parses a file relative to cwd, naming it as given', async () => {
    const result = await loadTranscript('notes.jsonl', { cwd: FIXTURES });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.transcript.file).toBe('notes.jsonl');
    expect(result.transcript.format).toBe('native');
    expect(result.transcript.artifacts.map((a) => [a.id, a.kind, a.source])).toEqual([
      ['L1', 'system', { file: 'notes.jsonl', line: 1, column: 1 }],
      ['L2', 'user', { file: 'notes.jsonl', line: 2, column: 1 }],
      ['L3', 'assistant', { file: 'notes.jsonl', line: 3, column: 1 }],
    ]);
  });

  it('passes the format override to the reader', async () => {
    const auto = await loadTranscript('support-chat.json', { cwd: FIXTURES });
    expect(auto.ok && auto.transcript.format).toBe('openai');
    const forced = await loadTranscript('support-chat.json', { cwd: FIXTURES, format: 'anthropic' });
    expect(forced.ok ? forced.transcript.format : 'not loaded').not.toBe('openai');
  });

  it('returns the read error of a missing or oversized file', async () => {
    const missing = await loadTranscript('absent.json', { cwd: FIXTURES });
    expect(missing).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'not-found', file: 'absent.json', line: 1, column: 1 }],
    });
    const big = await loadTranscript('notes.jsonl', { cwd: FIXTURES, maxFileBytes: 10 });
    expect(big).toMatchObject({ ok: false, diagnostics: [{ code: 'file-too-large' }] });
  });

  it('returns parse errors with positions and without content', async () => {
    const result = await loadTranscript('truncated.json', { cwd: FIXTURES });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', file: 'truncated.json', line: 1 });
    expect(JSON.stringify(result.diagnostics)).not.toContain('SECRET-CANARY-123');
  });
});
