// Every committed bad-input fixture, through the pure pipeline a reader runs: decodeInput, then
// parseJson (per record for .jsonl). Checks the exact diagnostic and that nothing of the input leaks.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/core/types.js';
import { parseJson } from '../../../src/core/json/parse.js';
import { decodeInput } from '../../../src/core/text/decode.js';
import { splitJsonl } from '../../../src/core/text/jsonl.js';
import { CANARY, EMAIL, FIXTURES } from '../../fixtures/bad-input/generate.js';

const DIR = fileURLToPath(new URL('../../fixtures/bad-input/', import.meta.url));

type Outcome = { ok: true; values: unknown[] } | { ok: false; error: Diagnostic };

function run(name: string): Outcome {
  const file = `bad-input/${name}`;
  const decoded = decodeInput(readFileSync(DIR + name), { file });
  if (!decoded.ok) return decoded;
  if (!name.endsWith('.jsonl')) {
    const parsed = parseJson(decoded.text, { file });
    return parsed.ok ? { ok: true, values: [parsed.value] } : parsed;
  }
  const values: unknown[] = [];
  for (const rec of splitJsonl(decoded.text)) {
    const parsed = parseJson(rec.text, { file, firstLine: rec.line });
    if (!parsed.ok) return parsed;
    values.push(parsed.value);
  }
  return { ok: true, values };
}

type Expected = { code: string; line: number; column: number; message: string } | 'ok';

const EXPECTED: Record<string, Expected> = {
  'bom.json': 'ok',
  'crlf.jsonl': 'ok',
  'depth-128.json': 'ok',
  'lone-cr.json': {
    code: 'lone-cr',
    line: 1,
    column: 17,
    message:
      'A line ends in a bare carriage return (CR without LF), an old Mac line ending that is not supported.',
  },
  'invalid-utf8-line3.json': {
    code: 'invalid-utf8',
    line: 3,
    column: 20,
    message: 'Invalid UTF-8 byte sequence at byte offset 40: the file is not valid UTF-8.',
  },
  'utf16le-bom.json': {
    code: 'utf16',
    line: 1,
    column: 1,
    message: 'The file is encoded as UTF-16LE with a byte-order mark, not UTF-8.',
  },
  'utf16be-bom.json': {
    code: 'utf16',
    line: 1,
    column: 1,
    message: 'The file is encoded as UTF-16BE with a byte-order mark, not UTF-8.',
  },
  'utf16le-no-bom.json': {
    code: 'utf16',
    line: 1,
    column: 1,
    message: 'The file is encoded as UTF-16LE (no byte-order mark), not UTF-8.',
  },
  'binary-gzip.json.gz': {
    code: 'binary',
    line: 1,
    column: 4,
    message:
      'The file contains a NUL byte: it looks binary (compressed, an image, or a wrong encoding), not a text transcript.',
  },
  'truncated-object.json': {
    code: 'truncated',
    line: 4,
    column: 60,
    message: 'The file ends inside an object that starts at line 4, column 5: it may have been cut off.',
  },
  'truncated-string.json': {
    code: 'truncated',
    line: 1,
    column: 82,
    message: 'The file ends inside a string that starts at line 1, column 43: it may have been cut off.',
  },
  'truncated-last-record.jsonl': {
    code: 'truncated',
    line: 3,
    column: 52,
    message: 'The record ends inside a string that starts at line 3, column 34: it may have been cut off.',
  },
  'trailing-comma.json': {
    code: 'json-syntax',
    line: 3,
    column: 33,
    message: 'Trailing comma before the end of an object.',
  },
  'single-quotes.json': {
    code: 'json-syntax',
    line: 1,
    column: 10,
    message: 'Single-quoted string: JSON strings are double-quoted.',
  },
  'duplicate-key.json': {
    code: 'duplicate-key',
    line: 3,
    column: 44,
    message: 'Duplicate key at $.messages[1][…]: the object already has a member with this key.',
  },
  'depth-129.json': {
    code: 'too-deep',
    line: 1,
    column: 129,
    message: 'The JSON nests deeper than 128 levels.',
  },
  'nan.json': { code: 'json-syntax', line: 1, column: 11, message: 'NaN and Infinity are not JSON numbers.' },
  'infinity.json': {
    code: 'json-syntax',
    line: 2,
    column: 11,
    message: 'NaN and Infinity are not JSON numbers.',
  },
  'control-char.json': {
    code: 'json-syntax',
    line: 1,
    column: 31,
    message: 'A string contains an unescaped control character (U+0009).',
  },
  'empty.json': {
    code: 'empty',
    line: 1,
    column: 1,
    message: 'The file holds no JSON value: it is empty or only whitespace.',
  },
  'whitespace-only.json': {
    code: 'empty',
    line: 1,
    column: 1,
    message: 'The file holds no JSON value: it is empty or only whitespace.',
  },
  'trailing-garbage.json': {
    code: 'json-syntax',
    line: 2,
    column: 1,
    message: 'Unexpected content after the end of the JSON value.',
  },
};

describe('bad-input fixtures', () => {
  const onDisk = readdirSync(DIR).filter((f) => f !== 'generate.ts');

  it('has an expectation for every fixture file and a file for every expectation', () => {
    expect(onDisk.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(FIXTURES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('committed bytes match the generator (no line-ending or encoding conversion happened)', () => {
    for (const [name, bytes] of Object.entries(FIXTURES)) {
      expect(new Uint8Array(readFileSync(DIR + name)), name).toEqual(bytes);
    }
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name} → ${expected === 'ok' ? 'accepted' : expected.code}`, () => {
      const out = run(name);
      if (expected === 'ok') {
        expect(out.ok).toBe(true);
        return;
      }
      expect(out.ok).toBe(false);
      if (out.ok) return;
      const { error } = out;
      expect({ code: error.code, line: error.line, column: error.column, message: error.message }).toEqual(
        expected,
      );
      expect(error.severity).toBe('error');
      expect(error.file).toBe(`bad-input/${name}`);
      expect(error.hint.length).toBeGreaterThan(10);
      for (const secret of [CANARY, EMAIL, 'jane', 'CANARY']) {
        expect(error.message).not.toContain(secret);
        expect(error.hint).not.toContain(secret);
      }
    });
  }

  it('accepted fixtures decode to the planted content', () => {
    const bom = run('bom.json');
    expect(bom).toEqual({ ok: true, values: [{ role: 'user', content: `${CANARY} ${EMAIL}` }] });
    const crlf = run('crlf.jsonl');
    expect(crlf.ok && crlf.values.length).toBe(2);
    expect(crlf.ok && crlf.values[1]).toEqual({ role: 'assistant', content: EMAIL });
  });
});
