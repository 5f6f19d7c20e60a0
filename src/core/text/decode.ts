import type { Diagnostic } from '../types.js';
import { diagnostic } from '../diagnostics.js';
import { LineIndex } from './line-index.js';

export interface DecodeOptions {
  /** The path as the user gave it; used only in diagnostics. */
  file: string;
}

export type DecodeResult =
  | {
      ok: true;
      /** The decoded text without BOM; line ends are left as they were (LF or CRLF). */
      text: string;
      hadBom: boolean;
      /** True when at least one line ends in CRLF. */
      crlf: boolean;
    }
  | { ok: false; error: Diagnostic };

// git's heuristic: a NUL byte early in the file means "binary". Checked before UTF-8 validity so
// that a zip or gzip file is reported as binary, not as a stray invalid byte.
const BINARY_SNIFF_BYTES = 8000;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

const UTF8_HINT = 'Re-export the transcript as UTF-8 (for example `iconv -f <encoding> -t UTF-8 in > out`).';

/**
 * UTF-8 bytes -> string. Strips a UTF-8 BOM. Accepts LF and CRLF. Rejects a UTF-16/UTF-32 BOM or
 * BOM-less UTF-16 (`utf16`), NUL bytes (`binary`), invalid UTF-8 (`invalid-utf8`, at the
 * line:column of the first bad sequence) and a CR not followed by LF (`lone-cr`).
 */
export function decodeInput(bytes: Uint8Array, opts: DecodeOptions): DecodeResult {
  const { file } = opts;
  const wide = detectWideEncoding(bytes);
  if (wide) {
    return fail(
      diagnostic(
        'error',
        'utf16',
        { file, line: 1, column: 1 },
        `The file is encoded as ${wide}, not UTF-8.`,
        `Re-export the transcript as UTF-8 (for example \`iconv -f ${wide.split(' ')[0]} -t UTF-8 in > out\`).`,
      ),
    );
  }

  const hadBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const start = hadBom ? 3 : 0;

  const earlyNul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0, start);
  if (earlyNul !== -1) return fail(binaryDiagnostic(file, bytePosition(bytes, start, earlyNul)));

  let text: string;
  try {
    text = fatalDecoder.decode(bytes.subarray(start));
  } catch {
    const bad = firstInvalidUtf8(bytes, start);
    const at = bytePosition(bytes, start, bad);
    return fail(
      diagnostic(
        'error',
        'invalid-utf8',
        { file, ...at },
        `Invalid UTF-8 byte sequence at byte offset ${bad}: the file is not valid UTF-8.`,
        UTF8_HINT,
      ),
    );
  }

  const nul = text.indexOf('\0');
  const loneCr = findLoneCr(text);
  if (nul !== -1 && (loneCr === -1 || nul < loneCr)) {
    return fail(binaryDiagnostic(file, new LineIndex(text).position(nul)));
  }
  if (loneCr !== -1) {
    return fail(
      diagnostic(
        'error',
        'lone-cr',
        { file, ...new LineIndex(text).position(loneCr) },
        'A line ends in a bare carriage return (CR without LF), an old Mac line ending that is not supported.',
        'Convert line endings to LF or CRLF (for example with `mac2unix` or your editor’s line-ending setting).',
      ),
    );
  }

  return { ok: true, text, hadBom, crlf: text.includes('\r\n') };
}

function fail(error: Diagnostic): DecodeResult {
  return { ok: false, error };
}

function binaryDiagnostic(file: string, at: { line: number; column: number }): Diagnostic {
  return diagnostic(
    'error',
    'binary',
    { file, ...at },
    'The file contains a NUL byte: it looks binary (compressed, an image, or a wrong encoding), not a text transcript.',
    'Pass the transcript as uncompressed UTF-8 JSON or JSONL text.',
  );
}

/** Names a UTF-16/32 encoding recognised by its BOM or, without BOM, by zero bytes between ASCII ones. */
function detectWideEncoding(b: Uint8Array): string | null {
  const [b0, b1, b2, b3] = [b[0], b[1], b[2], b[3]];
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return 'UTF-32BE with a byte-order mark';
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00 && b.length >= 4) {
    return 'UTF-32LE with a byte-order mark';
  }
  if (b0 === 0xff && b1 === 0xfe) return 'UTF-16LE with a byte-order mark';
  if (b0 === 0xfe && b1 === 0xff) return 'UTF-16BE with a byte-order mark';
  if (b.length >= 4) {
    if (b0 !== 0 && b1 === 0 && b2 !== 0 && b3 === 0) return 'UTF-16LE (no byte-order mark)';
    if (b0 === 0 && b1 !== 0 && b2 === 0 && b3 !== 0) return 'UTF-16BE (no byte-order mark)';
  }
  return null;
}

function findLoneCr(text: string): number {
  let i = text.indexOf('\r');
  while (i !== -1) {
    if (text.charCodeAt(i + 1) !== 0x0a) return i;
    i = text.indexOf('\r', i + 2);
  }
  return -1;
}

/**
 * Byte offset where the first ill-formed UTF-8 sequence starts (WHATWG / Unicode rules:
 * no overlongs, no surrogates, nothing above U+10FFFF). Called only after the native decoder
 * rejected the bytes, so a bad sequence exists.
 */
export function firstInvalidUtf8(b: Uint8Array, from: number): number {
  const n = b.length;
  let i = from;
  while (i < n) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    const second = b[i + 1];
    if (second === undefined || second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const cont = b[i + k];
      if (cont === undefined || cont < 0x80 || cont > 0xbf) return i;
    }
    i += need + 1;
  }
  return n;
}

/** Line and UTF-16 column of a byte offset; `start` is where line 1 begins (after a BOM). */
function bytePosition(b: Uint8Array, start: number, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = start;
  let i = b.indexOf(0x0a, start);
  while (i !== -1 && i < offset) {
    line++;
    lineStart = i + 1;
    i = b.indexOf(0x0a, i + 1);
  }
  // Bytes before `offset` on this line are valid UTF-8 (except in the binary sniff, where an
  // approximate column is good enough), so their decoded length is the column.
  return { line, column: lenientDecoder.decode(b.subarray(lineStart, offset)).length + 1 };
}
