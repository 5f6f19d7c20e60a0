// Excerpts: protected evidence that does not fit is cut, never dropped (DESIGN §4 stage 9, seed 002
// "a recovery warning, not a silent drop"). What a reader of a command's output needs most is kept
// first: its last lines (the exit status, the final error), then every line that names an error,
// then the head and the rest of the tail alternately. Each gap becomes one marker line saying how
// many lines and characters were left out (issue 32): what a reader can use, say to read them again
// with `sed -n`, and known without tokenizing text that is not sent.

/** Lines that carry a command's outcome; kept before the plain head and tail. */
const EVIDENCE =
  /error|exception|traceback|fatal|panic|\bfail(s|ed|ure|ing)?\b|assert|denied|refused|not found|exit(ed)? (with )?(code|status)|non-zero|[×✗✘]|^\s*E\s{2,}/i;

/** The least an excerpt shows of the output itself, in tokens. */
const MIN_SHOWN = 8;

/** Lines in a row too long for the room left, after which the excerpt stops looking. */
const MAX_MISSES = 64;

/** Lines taken from the very end before anything else: the outcome is usually there. */
const TAIL_FIRST = 3;

/** What an excerpt leaves out: whole lines (0 when it cut inside a line) and characters (UTF-16 units). */
export interface LeftOut {
  lines: number;
  chars: number;
}

export interface Excerpt {
  text: string;
  /** What of the original text the excerpt leaves out, line breaks included. */
  omitted: LeftOut;
}

/** How a marker and a ledger detail say what was left out: `12 lines, 840 characters`. */
export function leftOutText(gap: LeftOut): string {
  const chars = `${gap.chars} character${gap.chars === 1 ? '' : 's'}`;
  return gap.lines > 0 ? `${gap.lines} line${gap.lines === 1 ? '' : 's'}, ${chars}` : chars;
}

export function elisionMarker(gap: LeftOut): string {
  return `[... ${leftOutText(gap)} left out ...]`;
}

/**
 * A marker as it appears in an excerpt; a text that holds one was cut before (idempotence). The
 * token-count marker of earlier versions still counts: recordings and goldens hold it.
 */
const MARKER_RE = /\[\.\.\. (?:\d+ tokens|(?:\d+ lines?, )?\d+ characters?) left out \.\.\.\]/;

export function isExcerpt(text: string): boolean {
  return MARKER_RE.test(text);
}

/** What `excerptText` needs of a token counter: exact counts, and "over n?" that may stop early. */
export interface ExcerptMeter {
  count(text: string): number;
  exceeds(text: string, limit: number): boolean;
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
 * The excerpt of the kept lines: each gap of lines left out becomes one marker saying how many
 * lines and characters it held (a gap of blank lines only is left out without one).
 */
function render(lines: readonly string[], kept: Uint8Array): Excerpt {
  const out: string[] = [];
  const omitted: LeftOut = { lines: 0, chars: 0 };
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
      // Each line goes with one line break: the one after it, or before it at the end of the text.
      chars += (lines[j] as string).length + 1;
      if (blank && (lines[j] as string).trim() !== '') blank = false;
    }
    omitted.lines += j - i;
    omitted.chars += chars;
    if (!blank) out.push(elisionMarker({ lines: j - i, chars }));
    i = j;
  }
  return { text: out.join('\n'), omitted };
}

/** A text with no usable line breaks (minified JSON, one long log line): head and tail by characters. */
function cutChars(text: string, target: number, meter: ExcerptMeter, markerCost: number): Excerpt {
  // Characters per token, measured on the head the excerpt draws from: the rest is never counted.
  const sample = text.slice(0, Math.min(text.length, Math.max(1024, target * 16)));
  const perToken = sample.length / Math.max(meter.count(sample), 1);
  let room = Math.max(0, target - markerCost - 2);
  for (;;) {
    const chars = Math.floor(room * perToken);
    const head = Math.floor(chars * 0.4);
    const tailChars = chars - head;
    const left = text.slice(0, head);
    const right = tailChars > 0 ? text.slice(text.length - tailChars) : '';
    const omitted = { lines: 0, chars: text.length - left.length - right.length };
    const cut = [left, elisionMarker(omitted), right].filter((s) => s !== '').join('\n');
    if (!meter.exceeds(cut, target) || room === 0) return { text: cut, omitted };
    room = Math.floor(room * 0.8);
  }
}

/**
 * `text` cut to at most `target` tokens (as `meter` counts them), or null when it fits already.
 * Only what the excerpt may show is counted: the lines it considers, and the text as far as
 * "over the target" needs. Deterministic: the same text, target and tokenizer give the same excerpt.
 */
export function excerptText(text: string, target: number, meter: ExcerptMeter): Excerpt | null {
  if (!meter.exceeds(text, target)) return null;
  const lines = text.split('\n');
  // The longest marker this text can need, and the line break before it (at most one token: BPE
  // often merges it): an estimate on the safe side.
  const markerCost = meter.count(elisionMarker({ lines: lines.length, chars: text.length })) + 1;
  // An excerpt must show some of the output besides its marker, or it is no evidence at all.
  if (target < markerCost - 1 + MIN_SHOWN) return null;
  const kept = new Uint8Array(lines.length);
  // Lines are counted only when the excerpt considers them: most of a long output never is.
  const lineTokens = new Int32Array(lines.length).fill(-1);
  const tokensOfLine = (i: number): number => {
    let n = lineTokens[i] as number;
    if (n < 0) lineTokens[i] = n = meter.count(lines[i] as string);
    return n;
  };
  const added: number[] = [];
  let estimate = 0;
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
    gaps += gapDelta;
  }
  if (added.length === 0) return cutChars(text, target, meter, markerCost);
  // The estimate counts lines one by one; BPE across line breaks can differ a little. Give back the
  // lines added last until the excerpt measures within the target.
  for (;;) {
    const ex = render(lines, kept);
    if (!meter.exceeds(ex.text, target)) return ex;
    const last = added.pop();
    if (last === undefined || added.length === 0) return cutChars(text, target, meter, markerCost);
    kept[last] = 0;
  }
}
