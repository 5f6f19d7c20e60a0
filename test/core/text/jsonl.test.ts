import { describe, expect, it } from 'vitest';
import { checkRecordSize, MAX_RECORD_CHARS, splitJsonl } from '../../../src/core/text/jsonl.js';

describe('splitJsonl', () => {
  it('numbers records by file line and skips blank and whitespace-only lines', () => {
    expect(splitJsonl('{"a":1}\n\n  \t\n{"b":2}\n')).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
    ]);
  });

  it('strips CRLF line ends, keeps a last line without line end', () => {
    expect(splitJsonl('{"a":1}\r\n\r\n{"b":2}')).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 3, text: '{"b":2}' },
    ]);
  });

  it('keeps leading and trailing spaces so columns inside a record match the file', () => {
    expect(splitJsonl('  {"a":1} \n')).toEqual([{ line: 1, text: '  {"a":1} ' }]);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitJsonl('')).toEqual([]);
    expect(splitJsonl('\n\r\n  \n')).toEqual([]);
  });

  it('leaves a record with a lone CR inside intact (decodeInput rejects those earlier)', () => {
    expect(splitJsonl('{"a":\r1}\n')).toEqual([{ line: 1, text: '{"a":\r1}' }]);
  });
});

describe('checkRecordSize', () => {
  it('accepts a record of exactly MAX_RECORD_CHARS characters', () => {
    expect(MAX_RECORD_CHARS).toBe(1_048_576);
    expect(checkRecordSize({ line: 3, text: 'x'.repeat(MAX_RECORD_CHARS) }, 'a.jsonl')).toBeNull();
  });

  it('reports a bigger record at its line without quoting it', () => {
    const text = `"SECRET-CANARY-123${'x'.repeat(MAX_RECORD_CHARS)}"`;
    expect(checkRecordSize({ line: 7, text }, 'logs/a.jsonl')).toEqual({
      severity: 'error',
      code: 'record-too-large',
      file: 'logs/a.jsonl',
      line: 7,
      column: 1,
      message: `The record on this line has ${text.length} characters, more than the limit of 1048576 (1 MiB).`,
      hint: 'Split the record or shorten its content (for example truncate large tool outputs before recording them).',
    });
  });
});
