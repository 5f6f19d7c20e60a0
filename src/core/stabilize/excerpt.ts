// Excerpts: protected evidence that does not fit is cut, never dropped (DESIGN §4 stage 9, seed 002
// "a recovery warning, not a silent drop"). What a reader of a command's output needs most is kept
// first: its last lines (the exit status, the final error), then every line that names an error,
// then the head and the rest of the tail alternately. Each gap becomes one marker line saying how
// many tokens were left out, so the model knows the output is incomplete and by how much.

/** Lines that carry a command's outcome; kept before the plain head and tail. */
const EVIDENCE =
  /error|exception|traceback|fatal|panic|\bfail(s|ed|ure|ing)?\b|assert|denied|refused|not found|exit(ed)? (with )?(code|status)|non-zero|[×✗✘]|^\s*E\s{2,}/i;

/** The least an excerpt shows of the output itself, in tokens. */
const MIN_SHOWN = 8;

/** Lines in a row too long for the room left, after which the excerpt stops looking. */
const MAX_MISSES = 64;

/** Lines taken from the very end before anything else: the outcome is usually there. */
const TAIL_FIRST = 3;

export interface Excerpt {
  text: string;
  /** Tokens of the original text that the excerpt leaves out. */
  omitted: number;
}

export function elisionMarker(tokens: number): string {
  return `[... ${tokens} tokens left out ...]`;
}

/** A marker as it appears in an excerpt; a text that holds one was cut before (idempotence). */
const MARKER_RE = /\[\.\.\. \d+ tokens left out \.\.\.\]/;

export function isExcerpt(text: string): boolean {
  return MARKER_RE.test(text);
}

/** The order in which lines are offered to the excerpt. */
function priorityOrder(lines: readonly string[]): number[] {
  const n = lines.length;
  const order: number[] = [];
  const taken = new Uint8Array(n);
  const take = (i: number): void => {
    if (i >= 0 && i < n && !taken[i]) {
      taken[i] = 1;
      order.push(i);
    }
  };
  let tail = n - 1;
  while (tail >= 0 && lines[tail]?.trim() === '') tail--;
  for (let k = 0; k < TAIL_FIRST && tail - k >= 0; k++) take(tail - k);
  for (let i = n - 1; i >= 0; i--) if (EVIDENCE.test(lines[i] ?? '')) take(i);
  // Then the head and the tail, one line each in turn: the command and its first output, and what
  // led up to the end.
  for (let head = 0, back = tail; head <= back;) {
    take(head++);
    if (head <= back) take(back--);
  }
  for (let i = 0; i < n; i++) take(i);
  return order;
}

/**
 * The excerpt of the kept lines. What was left out is the text's tokens less those of the lines
 * shown; each gap's marker gets its share by length. Counting every gap exactly would tokenize the
 * whole output again, and lines the excerpt never considered are not counted at all.
 */
function render(lines: readonly string[], kept: Uint8Array, shownTokens: number, total: number): Excerpt {
  const gaps: { at: number; chars: number }[] = [];
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (kept[i]) {
      out.push(lines[i] as string);
      i++;
      continue;
    }
    let j = i;
    let chars = 0;
    let blank = true;
    for (; j < lines.length && !kept[j]; j++) {
      chars += (lines[j] as string).length + 1;
      if (blank && (lines[j] as string).trim() !== '') blank = false;
    }
    // A gap of blank lines only is not worth a marker.
    if (!blank) {
      gaps.push({ at: out.length, chars });
      out.push('');
    }
    i = j;
  }
  const omitted = Math.max(0, total - shownTokens);
  const allChars = gaps.reduce((sum, g) => sum + g.chars, 0) || 1;
  let given = 0;
  gaps.forEach((g, k) => {
    const n = k === gaps.length - 1 ? omitted - given : Math.round((omitted * g.chars) / allChars);
    given += n;
    out[g.at] = elisionMarker(n);
  });
  return { text: out.join('\n'), omitted };
}

/** A text with no usable line breaks (minified JSON, one long log line): head and tail by characters. */
function cutChars(text: string, target: number, total: number, count: (s: string) => number): Excerpt {
  const perToken = text.length / Math.max(total, 1);
  let room = Math.max(0, target - count(elisionMarker(total)) - 2);
  for (;;) {
    const chars = Math.floor(room * perToken);
    const head = Math.floor(chars * 0.4);
    const tailChars = chars - head;
    const left = text.slice(0, head);
    const right = tailChars > 0 ? text.slice(text.length - tailChars) : '';
    const omitted = Math.max(0, total - count(left) - count(right));
    const cut = [left, elisionMarker(omitted), right].filter((s) => s !== '').join('\n');
    if (count(cut) <= target || room === 0) return { text: cut, omitted };
    room = Math.floor(room * 0.8);
  }
}

/**
 * `text` cut to at most `target` tokens (as `count` measures them), or null when it fits already.
 * Deterministic: the same text, target and tokenizer give the same excerpt.
 */
export function excerptText(text: string, target: number, count: (s: string) => number): Excerpt | null {
  const total = count(text);
  if (total <= target) return null;
  // An excerpt must show some of the output besides its marker, or it is no evidence at all.
  if (target < count(elisionMarker(total)) + MIN_SHOWN) return null;
  const lines = text.split('\n');
  const kept = new Uint8Array(lines.length);
  // Lines are counted only when the excerpt considers them: most of a long output never is.
  const lineTokens = new Int32Array(lines.length).fill(-1);
  const tokensOfLine = (i: number): number => {
    let n = lineTokens[i] as number;
    if (n < 0) lineTokens[i] = n = count(lines[i] as string);
    return n;
  };
  // A line break costs at most one token (BPE often merges it): an estimate on the safe side.
  const markerCost = count(elisionMarker(total)) + 1;
  const added: number[] = [];
  let estimate = 0;
  let shown = 0;
  let gaps = lines.length > 0 ? 1 : 0;
  let misses = 0;
  for (const i of priorityOrder(lines)) {
    // No room left for any line, or the last lines offered were all too long: stop looking.
    if (target - estimate - gaps * markerCost < 2 || misses >= MAX_MISSES) break;
    const cost = tokensOfLine(i) + 1;
    const left = i > 0 && !kept[i - 1];
    const right = i < lines.length - 1 && !kept[i + 1];
    const gapDelta = left && right ? 1 : !left && !right ? -1 : 0;
    if (estimate + cost + (gaps + gapDelta) * markerCost > target) {
      misses++;
      continue;
    }
    misses = 0;
    kept[i] = 1;
    added.push(i);
    estimate += cost;
    shown += cost - 1;
    gaps += gapDelta;
  }
  if (added.length === 0) return cutChars(text, target, total, count);
  // The estimate counts lines one by one; BPE across line breaks can differ a little. Give back the
  // lines added last until the excerpt measures within the target.
  for (;;) {
    const ex = render(lines, kept, shown, total);
    if (count(ex.text) <= target) return ex;
    const last = added.pop();
    if (last === undefined || added.length === 0) return cutChars(text, target, total, count);
    kept[last] = 0;
    shown -= lineTokens[last] as number;
  }
}
