import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../../src/core/text/line-index.js';

describe('LineIndex', () => {
  it('maps offsets to 1-based line and column', () => {
    const idx = new LineIndex('ab\ncd\n\nx');
    expect(idx.position(0)).toEqual({ line: 1, column: 1 });
    expect(idx.position(2)).toEqual({ line: 1, column: 3 }); // the LF itself ends line 1
    expect(idx.position(3)).toEqual({ line: 2, column: 1 });
    expect(idx.position(6)).toEqual({ line: 3, column: 1 });
    expect(idx.position(7)).toEqual({ line: 4, column: 1 });
    expect(idx.position(8)).toEqual({ line: 4, column: 2 }); // end of text
    expect(idx.lineCount).toBe(4);
  });

  it('counts CRLF as one line break and a lone CR as none', () => {
    const idx = new LineIndex('a\r\nb\rc');
    expect(idx.position(1)).toEqual({ line: 1, column: 2 });
    expect(idx.position(3)).toEqual({ line: 2, column: 1 });
    expect(idx.position(5)).toEqual({ line: 2, column: 3 });
  });

  it('counts columns in UTF-16 code units', () => {
    expect(new LineIndex('😀x').position(2)).toEqual({ line: 1, column: 3 });
  });

  it('clamps offsets outside the text', () => {
    const idx = new LineIndex('ab\nc');
    expect(idx.position(-5)).toEqual({ line: 1, column: 1 });
    expect(idx.position(99)).toEqual({ line: 2, column: 2 });
    expect(new LineIndex('').position(0)).toEqual({ line: 1, column: 1 });
  });

  it('agrees with counting line breaks by hand (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '\r\n') }), fc.nat(), (text, n) => {
        const offset = n % (text.length + 1);
        const before = text.slice(0, offset);
        const line = before.split('\n').length;
        const column = offset - (before.lastIndexOf('\n') + 1) + 1;
        expect(new LineIndex(text).position(offset)).toEqual({ line, column });
      }),
    );
  });
});
