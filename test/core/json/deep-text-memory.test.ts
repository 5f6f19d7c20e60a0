// Issue 34 item 6: a message of 40 MiB of `[` (two records, under both caps) needed 3.95 GB and
// aborted the run. Every place that looks for JSON inside a transcript's text kept a frame per
// open bracket: the PII masker's literal scanner (json-literals.ts) and JSON.parse in the stages
// (V8 keeps its frames outside the heap, so a heap limit does not catch it). Measured in a child
// process (deep-text-memory.child.ts): the peak RSS those calls add, against the text's size.
// Before the bound, 4 MiB added 678 MB (162 bytes per byte) and took 56 s. A shell tool's
// arguments that are not JSON were split into words a character at a time (a string piece per
// character: 4 MiB added 750 MB); words are built a run at a time now.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureChild } from '../../support/measure-child.js';

const CHILD = fileURLToPath(new URL('./deep-text-memory.child.ts', import.meta.url));

interface Measure {
  bytes: number;
  added: number;
  calls: number;
}

function measure(mib: number, shell = false): Promise<Measure> {
  return measureChild<Measure>(CHILD, [String(mib), ...(shell ? ['shell'] : [])]);
}

describe('JSON inside a text nested deeper than the readers allow', () => {
  it('is read as plain text without memory growing with its brackets', async () => {
    const m = await measure(4);
    expect(m.calls).toBe(7);
    // A pass that copies the text once would add its size; a frame per bracket adds 40+ times it.
    expect(m.added).toBeLessThan(2 * m.bytes);
  }, 60_000);

  it('a shell tool’s arguments of 4 MiB are split into words without a piece per character', async () => {
    const m = await measure(4, true);
    expect(m.calls).toBe(2);
    // The canonical form of `'[[[…'` is `\[\[\[…`, twice the text (about 12x in all, with the words and the joined form); a piece per character was 130x.
    expect(m.added).toBeLessThan(20 * m.bytes);
  }, 60_000);
});
