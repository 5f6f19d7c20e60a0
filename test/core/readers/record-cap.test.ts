// The record cap (issue 12): memory grows with the number of records far more than with their
// bytes, so a file with more records than the cap is refused before the work that would fill the
// heap, with the first record over the cap as its position.
import { describe, expect, it } from 'vitest';
import { CONTAINERS_PER_RECORD, DEFAULT_MAX_RECORDS } from '../../../src/core/text/jsonl.js';
import { expectNoQuote, failure, load, where } from './helpers.js';

function jsonlLines(n: number): string {
  const lines = ['{"id":"sys","kind":"system","content":"s"}'];
  for (let i = 1; i < n; i++) lines.push(`{"kind":"${i % 2 ? 'user' : 'assistant'}","content":"m${i}"}`);
  return `${lines.join('\n')}\n`;
}

describe('record cap', () => {
  it('reads a JSONL file with exactly the cap of records', () => {
    expect(load(jsonlLines(50), { file: 's.jsonl', maxRecords: 50 }).artifacts).toHaveLength(50);
  });

  it('refuses a JSONL file over the cap at the first record over it (blank lines do not count)', () => {
    const text = jsonlLines(3).replace('\n', '\n\n  \n') + '{"kind":"user","content":"m4"}\n';
    const diagnostics = failure(text, { file: 's.jsonl', maxRecords: 3 });
    // Records on lines 1, 4, 5; the fourth record is on line 6.
    expect(where(diagnostics)).toEqual(['6:1 error too-many-records']);
    expect(diagnostics[0]?.message).toContain('more than 3 records');
    expect(diagnostics[0]?.hint).toContain('--max-records');
  });

  it('applies to JSONL without the extension (detected by its lines)', () => {
    expect(where(failure(jsonlLines(5), { file: 'session.log', maxRecords: 4 }))).toEqual([
      '5:1 error too-many-records',
    ]);
  });

  it('refuses a JSON array with more elements than the cap, at the first element over it', () => {
    const messages = [
      { role: 'system', content: 's' },
      ...Array.from({ length: 4 }, (_, i) => ({ role: 'user', content: `secret-${i}` })),
    ];
    const text = JSON.stringify(messages, null, 2);
    const diagnostics = failure(text, { file: 'chat.json', maxRecords: 4 });
    // '[' then four lines per message: the fifth element opens on line 2 + 4 * 4.
    expect(where(diagnostics)).toEqual(['18:3 error too-many-records']);
    expect(diagnostics[0]?.message).toContain('more than 4 elements');
    expectNoQuote(diagnostics, ['secret-']);
  });

  it('counts the elements of nested arrays too (content parts)', () => {
    const parts = Array.from({ length: 6 }, () => ({ type: 'text', text: 'a' }));
    const text = JSON.stringify([{ role: 'user', content: parts }]);
    expect(where(failure(text, { file: 'chat.json', maxRecords: 5 }))[0]).toMatch(
      /^1:\d+ error too-many-records$/,
    );
  });

  it('refuses an object with more members than the cap, at the first member over it (issue 34)', () => {
    // One object of many keys costs as much as that many records (1M keys: 71 MB of heap).
    const meta = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`secret-${i}`, i]));
    const text = JSON.stringify([{ role: 'user', content: 'hi', meta }]);
    const diagnostics = failure(text, { file: 'chat.json', maxRecords: 5 });
    expect(where(diagnostics)).toEqual([`1:${text.indexOf('"secret-5"') + 1} error too-many-records`]);
    expect(diagnostics[0]?.message).toContain('more than 5 members');
    expect(diagnostics[0]?.hint).toContain('--max-records');
    expectNoQuote(diagnostics, ['secret-']);
    // An object with exactly the cap of members is read.
    const five = JSON.stringify([{ role: 'user', content: 'hi', meta: { a: 1, b: 2, c: 3, d: 4, e: 5 } }]);
    expect(load(five, { file: 'chat.json', maxRecords: 5 }).artifacts).toHaveLength(1);
  });

  it(`refuses a file of many small arrays once it holds ${CONTAINERS_PER_RECORD} objects and arrays per record of the cap`, () => {
    // Every array is within the cap of 20 elements; together they hold 506 (cap: 320).
    const inner = JSON.stringify(
      Array.from({ length: 5 }, () => Array.from({ length: 19 }, () => ({ a: 1 }))),
    );
    const text = `[${Array.from({ length: 5 }, () => inner).join(',')}]`;
    const diagnostics = failure(text, { file: 'x.json', maxRecords: 20 });
    expect(where(diagnostics)).toHaveLength(1);
    expect(diagnostics[0]?.code).toBe('too-many-records');
    expect(diagnostics[0]?.message).toContain(
      `more than ${20 * CONTAINERS_PER_RECORD} JSON objects and arrays`,
    );
  });

  it('stops a JSONL file at the record that spends the file-wide cap on objects (one error, not one per later line)', () => {
    const parts = Array.from({ length: 19 }, () => ({ type: 'text', text: 'a' }));
    const text = `${Array.from({ length: 20 }, () => JSON.stringify({ kind: 'user', content: parts })).join('\n')}\n`;
    // 21 containers per record (record, content array, 19 parts); the cap of 20 records allows 320,
    // which the sixteenth record passes.
    const diagnostics = failure(text, { file: 's.jsonl', maxRecords: 20 });
    expect(where(diagnostics)).toEqual([expect.stringMatching(/^16:\d+ error too-many-records$/)]);
  });

  it('defaults to DEFAULT_MAX_RECORDS', () => {
    expect(DEFAULT_MAX_RECORDS).toBe(50_000);
    const over = `${'{"kind":"user","content":"a"}\n'.repeat(DEFAULT_MAX_RECORDS + 1)}`;
    expect(where(failure(over, { file: 'big.jsonl' }))).toEqual([
      `${DEFAULT_MAX_RECORDS + 1}:1 error too-many-records`,
    ]);
  });
});
