// JSON found inside a transcript's texts (tool-call arguments, tool outputs) is untrusted: the
// readers bound the nesting of the file itself, but a string may hold anything up to the file cap.
// V8's JSON.parse keeps a frame per open `[` or `{` and never gives back what it built for an
// unterminated text: 4 MiB of `[` took ~150 MB and 5 s, 40 MiB aborted the run (issue 34). So the
// nesting is checked first, by a scan that allocates nothing, and a deeper text is not JSON.
import { DEFAULT_MAX_DEPTH } from './parse.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when `text` opens more than `maxDepth` arrays and objects at once (brackets inside strings
 * do not count). Linear; allocates nothing. An invalid text may pass: JSON.parse still decides.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string; an escape skips the character after the backslash.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * JSON.parse for a text found inside a transcript: a text nested deeper than `maxDepth` (default
 * 128, the readers' cap) throws a SyntaxError without being parsed, so every caller's existing
 * "not JSON" branch handles it.
 */
export function parseJsonText(text: string, maxDepth: number = DEFAULT_MAX_DEPTH): unknown {
  if (nestedDeeperThan(text, maxDepth)) {
    throw new SyntaxError(`The JSON text is nested deeper than ${maxDepth} levels.`);
  }
  return JSON.parse(text) as unknown;
}
