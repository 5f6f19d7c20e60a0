// Small scanning helpers shared by the detectors. Character tests work on UTF-16 code units so
// that offsets stay the ones the rest of the pipeline uses.

/** Runs a global regex over `text` from `from`, calling `onMatch` for every non-empty match. */
export function forEachMatch(
  re: RegExp,
  text: string,
  from: number,
  onMatch: (m: RegExpExecArray) => void,
): void {
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    onMatch(m);
  }
}

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isAsciiAlnum(code: number): boolean {
  return isDigit(code) || isAsciiLetter(code);
}

/** Digit at `index`, false outside the text. */
export function digitAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && isDigit(text.charCodeAt(index));
}

/** ASCII letter or digit at `index`, false outside the text. */
export function alnumAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && isAsciiAlnum(text.charCodeAt(index));
}

/** `text[i]` is the letter of a backslash escape (`\n`, `\t`…): an odd run of backslashes before it. */
export function escapeLetterAt(text: string, i: number): boolean {
  if (!'nrtbf'.includes(text[i] ?? '')) return false;
  let slashes = 0;
  while (i - 1 - slashes >= 0 && text.charCodeAt(i - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1;
}

/**
 * The `size` characters before `start` (one more, for a lookbehind), without a word the window's
 * start cuts: `Arvid_` cut to `id_`, `hotel` to `tel` would read as context words.
 */
export function windowBefore(text: string, start: number, size: number): string {
  let from = Math.max(0, start - size - 1);
  while (
    from > 0 &&
    from < start &&
    isAsciiAlnum(text.charCodeAt(from - 1)) &&
    isAsciiAlnum(text.charCodeAt(from))
  )
    from++;
  return text.slice(from, start);
}
