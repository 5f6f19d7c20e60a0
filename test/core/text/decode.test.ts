import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeInput, firstInvalidUtf8 } from '../../../src/core/text/decode.js';
import { fcOptions } from '../../support/fc.js';

const CANARY = 'SECRET-CANARY-123';
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? utf8(p) : p)));

function fails(input: Uint8Array) {
  const r = decodeInput(input, { file: 'in/t.json' });
  if (r.ok) throw new Error('expected a failure');
  expect(r.error.severity).toBe('error');
  expect(r.error.file).toBe('in/t.json');
  expect(r.error.message).not.toContain('CANARY');
  expect(r.error.hint).not.toContain('CANARY');
  expect(r.error.hint).not.toBe('');
  return r.error;
}

const short = (e: { code: string; line: number; column: number }) => `${e.code} ${e.line}:${e.column}`;

describe('decodeInput: accepted input', () => {
  it('decodes plain UTF-8 and reports no BOM and no CRLF', () => {
    expect(decodeInput(bytes('{"a": "é😀"}\n'), { file: 'f' })).toEqual({
      ok: true,
      text: '{"a": "é😀"}\n',
      hadBom: false,
      crlf: false,
    });
  });

  it('strips a UTF-8 BOM', () => {
    expect(decodeInput(bytes([0xef, 0xbb, 0xbf], '{}'), { file: 'f' })).toEqual({
      ok: true,
      text: '{}',
      hadBom: true,
      crlf: false,
    });
  });

  it('accepts CRLF and mixed LF/CRLF line ends and leaves them in the text', () => {
    expect(decodeInput(bytes('a\r\nb\r\n'), { file: 'f' })).toEqual({
      ok: true,
      text: 'a\r\nb\r\n',
      hadBom: false,
      crlf: true,
    });
    expect(decodeInput(bytes('a\nb\r\nc'), { file: 'f' })).toMatchObject({ ok: true, crlf: true });
  });

  it('accepts empty input (readInput decides whether empty is an error)', () => {
    expect(decodeInput(new Uint8Array(0), { file: 'f' })).toEqual({
      ok: true,
      text: '',
      hadBom: false,
      crlf: false,
    });
  });
});

describe('decodeInput: lone CR', () => {
  it('reports the first CR not followed by LF at its position', () => {
    const e = fails(bytes(`{"a": 1,\r\n"b": 2,\r"c": "${CANARY}"}`));
    expect(short(e)).toBe('lone-cr 2:8');
    expect(e.message).toBe(
      'A line ends in a bare carriage return (CR without LF), an old Mac line ending that is not supported.',
    );
    expect(e.hint).toBe(
      'Convert line endings to LF or CRLF (for example with `mac2unix` or your editor’s line-ending setting).',
    );
  });

  it('catches a CR as the very last byte and a CR before CRLF', () => {
    expect(short(fails(bytes('{}\r')))).toBe('lone-cr 1:3');
    expect(short(fails(bytes('a\r\r\n')))).toBe('lone-cr 1:2');
  });
});

describe('decodeInput: invalid UTF-8', () => {
  it('points at the first bad sequence with a UTF-16 column, in the middle of line 3', () => {
    const e = fails(bytes('{\n"a": 1,\n"😀é": "', [0xff], `${CANARY}"}`));
    expect(short(e)).toBe('invalid-utf8 3:9');
    expect(e.message).toBe('Invalid UTF-8 byte sequence at byte offset 21: the file is not valid UTF-8.');
    expect(e.hint).toBe(
      'Re-export the transcript as UTF-8 (for example `iconv -f <encoding> -t UTF-8 in > out`).',
    );
  });

  it('does not count a stripped BOM as a column', () => {
    expect(short(fails(bytes([0xef, 0xbb, 0xbf], 'ab', [0x80])))).toBe('invalid-utf8 1:3');
  });

  it('rejects every ill-formed kind: stray continuation, overlong, surrogate, too large, cut short', () => {
    const cases: [number[], string][] = [
      [[0x80], 'lone continuation byte'],
      [[0xc0, 0xaf], 'overlong 2-byte'],
      [[0xe0, 0x80, 0xaf], 'overlong 3-byte'],
      [[0xf0, 0x80, 0x80, 0xaf], 'overlong 4-byte'],
      [[0xed, 0xa0, 0x80], 'UTF-16 surrogate'],
      [[0xf4, 0x90, 0x80, 0x80], 'above U+10FFFF'],
      [[0xf5, 0x80, 0x80, 0x80], 'invalid lead byte'],
      [[0xe2, 0x82], 'sequence cut by end of file'],
      [[0xe2, 0x28, 0xa1], 'continuation missing'],
    ];
    for (const [bad, what] of cases)
      expect(short(fails(bytes('ok ', bad, ' end'))), what).toBe('invalid-utf8 1:4');
  });

  it('finds the same first bad byte as the platform decoder would stop at (property)', () => {
    const interesting = fc.constantFrom(
      0x00,
      0x41,
      0x7f,
      0x80,
      0xbf,
      0xc0,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0xff,
      0xa0,
      0x9f,
      0x90,
      0x8f,
    );
    const chunk = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }).map((s) => utf8(s)),
      fc.array(interesting, { maxLength: 4 }),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 8 }), (chunks) => {
        const b = Uint8Array.from(chunks.flat());
        const bad = firstInvalidUtf8(b, 0);
        const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
        const valid = (x: Uint8Array) => {
          try {
            strict.decode(x);
            return true;
          } catch {
            return false;
          }
        };
        expect(bad === b.length).toBe(valid(b));
        // Everything before the reported byte is valid, and no longer valid prefix ends there.
        expect(valid(b.subarray(0, bad))).toBe(true);
        if (bad < b.length)
          expect(valid(b.subarray(0, bad + 4 <= b.length ? bad + 4 : b.length))).toBe(false);
      }),
      fcOptions(2000),
    );
  });
});

describe('decodeInput: wide encodings and binary', () => {
  it('names UTF-16 and UTF-32 by their BOM, and BOM-less UTF-16 by its zero bytes, at 1:1', () => {
    const cases: [number[], string][] = [
      [[0xff, 0xfe, 0x7b, 0x00], 'UTF-16LE with a byte-order mark'],
      [[0xfe, 0xff, 0x00, 0x7b], 'UTF-16BE with a byte-order mark'],
      [[0xff, 0xfe, 0x00, 0x00, 0x7b, 0, 0, 0], 'UTF-32LE with a byte-order mark'],
      [[0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x7b], 'UTF-32BE with a byte-order mark'],
      [[0x7b, 0x00, 0x22, 0x00], 'UTF-16LE (no byte-order mark)'],
      [[0x00, 0x7b, 0x00, 0x22], 'UTF-16BE (no byte-order mark)'],
    ];
    for (const [b, name] of cases) {
      const e = fails(Uint8Array.from(b));
      expect(short(e), name).toBe('utf16 1:1');
      expect(e.message).toBe(`The file is encoded as ${name}, not UTF-8.`);
    }
    expect(fails(Uint8Array.from([0xff, 0xfe, 0x7b, 0x00])).hint).toBe(
      'Re-export the transcript as UTF-8 (for example `iconv -f UTF-16LE -t UTF-8 in > out`).',
    );
  });

  it('reports a NUL byte as binary, even before an earlier invalid byte in the first 8000 bytes', () => {
    const e = fails(bytes([0x1f, 0x8b, 0x08, 0x00], CANARY));
    expect(short(e)).toBe('binary 1:4');
    expect(e.message).toBe(
      'The file contains a NUL byte: it looks binary (compressed, an image, or a wrong encoding), not a text transcript.',
    );
    expect(e.hint).toBe('Pass the transcript as uncompressed UTF-8 JSON or JSONL text.');
  });

  it('reports a late NUL byte in valid text as binary at its line', () => {
    const text = `${'x'.repeat(9000)}\n"a\u0000b"`;
    expect(short(fails(bytes(text)))).toBe('binary 2:3');
  });

  it('reports whichever of a late NUL and a lone CR comes first', () => {
    const pad = 'x'.repeat(9000);
    expect(short(fails(bytes(`${pad}\na\rb\u0000`)))).toBe('lone-cr 2:2');
    expect(short(fails(bytes(`${pad}\na\u0000b\r`)))).toBe('binary 2:2');
  });

  it('reports an invalid byte before a late NUL as invalid UTF-8', () => {
    expect(short(fails(bytes('x'.repeat(9000), [0xff], '\u0000')))).toBe('invalid-utf8 1:9001');
  });
});
