// The summary rule of the `retention` check (issue 28, docs/checks.md "retention"). A summary in the
// final context (a compaction summary made in this run, or a summary recorded in the history) stands
// for the turns it replaces, so it must keep what they held that the agent still needs: the user's
// instructions, the decisions, the last error of each command family and the calls still pending.
// The facts are re-derived from the input transcript; the stages' bookkeeping is used only to know
// which artifacts a summary replaces. A fact is lost when neither the summary nor anything else the
// model reads holds it (a fact the context repeats elsewhere was not lost). Pure and deterministic.
import type { RE2JS } from 're2js';
import type { Policy } from '../policy/schema.js';
import { firstErrorLine } from '../stabilize/collapse.js';
import { COMPACTION_TAG } from '../stabilize/compaction.js';
import { commandKeys } from '../stabilize/families.js';
import { maskString } from '../stabilize/finalize.js';
import type { Masker } from '../stabilize/finalize.js';
import type { ContextItem, StabilizeResult } from '../stabilize/types.js';
import { textOf } from '../stabilize/work.js';
import type { Artifact, Transcript } from '../types.js';
import { Locator } from '../validate/locate.js';
import type { Violation } from '../validate/types.js';
import { MIN_LENGTH, argumentValues, artifactText, factPiiMasker, holds } from './facts.js';
import { quotedValue as quoted } from './replay.js';

/** Longer words are blobs (base64, minified code), not identifiers anyone restates. */
const MAX_WORD = 200;
/** Violations listed per replaced artifact; the rest are counted in one note. */
const MAX_PER_ARTIFACT = 3;
/** Inline code longer than this is a snippet; its identifier-like words still count one by one. */
const MAX_CODE = 80;
/** What makes a word an identifier rather than prose: a digit, a path separator, `_`, or an inner dot. */
const MARK = /[0-9/\\_]|[A-Za-z0-9]\.[A-Za-z0-9]/;
/** `and/or`, `yes/no`, `w/o`: prose with a slash. */
const PROSE_PAIR = /^[A-Za-z]{1,3}\/[A-Za-z]{1,3}$/;
const TRIM_HEAD = /^["'([{<*_`]+/;
const TRIM_TAIL = /["')\]}>*_`,.;:!?]+$/;
const INLINE_CODE = /`([^`\n]+)`/g;
/** The sentence openers of a decision (docs/compaction.md "Decisions"): the tool's own vocabulary. */
const DECISION = /^(?:decision|decided|we decided|i decided|we agreed|agreed)\b/i;
/** The first line of a summary the deterministic compaction wrote (recorded or made in this run). */
const DETERMINISTIC = /^Summary of earlier turns? [^\n]*compacted by context-stability/;

/** A value, and where it starts (`at`) in the line a compaction summary writes of it (the cut note). */
type Fact = { value: string; at: number; line: string };

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The identifier-like tokens of a text, in the order met: words (surrounding punctuation trimmed)
 * of MIN_LENGTH..MAX_WORD characters with a digit, `/`, `\`, `_` or an inner dot (`8JX2WO`,
 * `src/a.ts`, `jdoe_42`, `v1.2`), and inline code in backticks. Plain prose words, hyphenated
 * compounds (`sign-in`) and all-caps words never count. `masked` is the text with PII masked: a
 * word counts only if the raw text holds it as well (a replacement marker is no fact).
 */
function identifierFacts(raw: string, masked: string): Fact[] {
  const line = oneLine(masked);
  const out = new Map<string, Fact>();
  const add = (value: string, at: number): void => {
    if (!out.has(value) && raw.includes(value)) out.set(value, { value, at, line });
  };
  let offset = 0;
  for (const word of line.split(' ')) {
    const head = TRIM_HEAD.exec(word)?.[0].length ?? 0;
    const value = word.slice(head).replace(TRIM_TAIL, '');
    const fits = value.length >= MIN_LENGTH && value.length <= MAX_WORD;
    if (fits && MARK.test(value) && !PROSE_PAIR.test(value)) add(value, offset + head);
    offset += word.length + 1;
  }
  for (const m of line.matchAll(INLINE_CODE)) {
    const code = (m[1] as string).trim();
    if (code.length >= MIN_LENGTH && code.length <= MAX_CODE) add(code, m.index + 1);
  }
  return [...out.values()].sort((x, y) => x.at - y.at);
}

/** A failed tool result, as work.ts `isFailure` decides it (taken from the artifact itself). */
function failed(a: Artifact): boolean {
  return (
    a.is_error === true ||
    (a.exit_code !== undefined && a.exit_code !== 0) ||
    (a.tags ?? []).includes('error')
  );
}

/** A text as the model reads it, and with its whitespace collapsed (as compaction writes lines). */
type Read = { raw: string; flat: string };
const readOf = (raw: string): Read => ({ raw, flat: oneLine(raw) });

/** True when the text holds the value raw or JSON-escaped (facts.ts `holds`), or with spaces collapsed. */
const reads = (text: Read, value: string): boolean =>
  holds(text.raw, value) || holds(text.flat, oneLine(value));

/**
 * The check's view of one summary: its label (`the compaction summary X`), its own text (which must
 * name a pending call or a failed family), everything the model reads (the summary and every other
 * context item), and the characters a compaction line keeps when the deterministic compaction wrote it.
 */
interface Reader {
  label: string;
  summary: Read;
  context: Read;
  cut: number | undefined;
}

/** The cut note: the value stands past the characters a compaction line keeps (compaction.ts `shorten`). */
function pastCut(f: Fact, cut: number | undefined): string {
  if (cut === undefined || f.line.length <= cut || f.at + f.value.length <= cut - 1) return '';
  return `; it stands past the first ${cut} characters of that line, where compaction cuts it`;
}

/**
 * Facts of the artifacts one summary replaces, each checked against what the model reads; one
 * violation per lost fact, at the replaced artifact that held it (the first, for a repeated value).
 */
class SummaryCheck {
  private readonly reported = new Set<string>();
  /** Violations per replaced artifact, and what went past MAX_PER_ARTIFACT (one note each). */
  private readonly count = new Map<string, number>();
  private readonly more = new Map<string, { a: Artifact; what: string; n: number }>();
  private readonly out: Violation[] = [];

  constructor(
    private readonly r: Reader,
    private readonly where: Locator,
    private readonly pii: Masker,
  ) {}

  private isPii(value: string): boolean {
    return maskString(value, this.pii, {}) !== value;
  }

  private facts(text: string): Fact[] {
    return identifierFacts(text, maskString(text, this.pii, {})).filter((f) => !this.isPii(f.value));
  }

  private head(a: Artifact, what: string): string {
    return `${this.r.label} replaced this ${what} (line ${a.source.line})`;
  }

  // A pasted file or log in one message would otherwise bury every other finding.
  private report(a: Artifact, what: string, message: string): void {
    const n = (this.count.get(a.id) ?? 0) + 1;
    this.count.set(a.id, n);
    if (n <= MAX_PER_ARTIFACT) this.out.push(this.where.at(a.id, message));
    else this.more.set(a.id, { a, what, n: n - MAX_PER_ARTIFACT });
  }

  private lost(a: Artifact, what: string, facts: readonly Fact[], kind: string): void {
    for (const f of facts) {
      if (this.reported.has(f.value) || reads(this.r.context, f.value)) continue;
      this.reported.add(f.value);
      const note = pastCut(f, this.r.cut);
      this.report(a, what, `${this.head(a, what)} but keeps no ${quoted(f.value)} (${kind})${note}`);
    }
  }

  violations(): Violation[] {
    const notes = [...this.more.values()].map(({ a, what, n }) =>
      this.where.at(a.id, `${this.head(a, what)} and lost ${n} more of its values (not listed)`),
    );
    return [...this.out, ...notes];
  }

  /** Instructions: every identifier of a replaced user message. */
  user(a: Artifact): void {
    this.lost(a, 'user message', this.facts(textOf(a.content)), 'an instruction');
  }

  /** Decisions: a message tagged `decision` whole, else each sentence that opens with a decision. */
  decisions(a: Artifact): void {
    const text = textOf(a.content);
    const said = (a.tags ?? []).includes('decision')
      ? [text]
      : text.split(/\n+|(?<=[.?!])\s+/).filter((s) => DECISION.test(s.trim()));
    for (const s of said) this.lost(a, 'assistant message', this.facts(s), 'a decision');
  }

  /**
   * Pending calls: a call with no result anywhere in the transcript. The summary must name its tool,
   * and its argument values (facts.ts) must be read. (A call whose result exists but left the context
   * is answered: the stabilizer strips such a call from its turn, so nothing pends on it.)
   */
  pending(a: Artifact, answered: ReadonlySet<string>): void {
    for (const call of a.tool_calls ?? []) {
      if (answered.has(`${a.id}\u0000${call.id}`)) continue;
      const head = `${this.head(a, 'assistant turn')}, but the call to ${call.name} is still pending and the summary`;
      if (!reads(this.r.summary, call.name)) {
        this.report(a, 'assistant turn', `${head} does not name it`);
        continue;
      }
      for (const v of argumentValues(call)) {
        if (v.length > MAX_CODE || this.isPii(v) || this.reported.has(v) || reads(this.r.context, v))
          continue;
        this.reported.add(v);
        this.report(a, 'assistant turn', `${head} keeps no ${quoted(v)} of its arguments`);
      }
    }
  }

  /**
   * The last error of a command family: the summary names the family (`bash:npm test`), its command
   * or path (`npm test`) or its tool, and the identifiers of its first error line are read.
   */
  lastError(a: Artifact, tool: string, family: string): void {
    const name = this.isPii(family) ? tool : family;
    const names = [name, name.slice(name.indexOf(':') + 1), tool];
    const what = `failed ${tool} result`;
    if (!names.some((n) => reads(this.r.summary, n))) {
      const message = `${this.head(a, what)} but does not name its command family ${quoted(name)} (the last error of that family)`;
      this.report(a, what, message);
      return;
    }
    const text = textOf(a.content);
    const line = firstErrorLine(maskString(text, this.pii, {}));
    const facts = identifierFacts(text, line).filter((f) => !this.isPii(f.value));
    this.lost(a, what, facts, `from its first error line, the last error of ${quoted(name)}`);
  }
}

/**
 * Per command family (families.ts), the last failed result among the replaced ones, unless a later
 * result of the family succeeded (the error is resolved: compaction marks it "a later run succeeded").
 */
function lastErrors(
  t: Transcript,
  replaced: ReadonlySet<string>,
  byId: ReadonlyMap<string, Artifact>,
): Map<string, { a: Artifact; tool: string }> {
  const out = new Map<string, { a: Artifact; tool: string }>();
  for (const a of t.artifacts) {
    if (a.kind !== 'tool') continue;
    const owner = byId.get(t.pairing.resultToCall[a.id] ?? '');
    const callId = a.call_id ?? a.call_ids?.[0];
    const call = owner?.tool_calls?.find((c) => c.id === callId);
    const tool = call?.name ?? a.tool ?? 'tool';
    const family = call ? commandKeys(call).family : tool;
    if (!failed(a)) out.delete(family);
    else if (replaced.has(a.id)) out.set(family, { a, tool });
  }
  return out;
}

/** The artifacts a summary replaces: a compaction log's `covers`, else the artifact's provenance. */
function coversOf(item: ContextItem, t: Transcript, result: StabilizeResult): string[] | undefined {
  const log = result.compaction?.find((l) => l.id === item.id);
  if (log) return log.covers;
  return t.artifacts.find((a) => a.id === item.id && a.kind === 'summary')?.provenance;
}

function readerOf(
  item: ContextItem,
  t: Transcript,
  r: StabilizeResult,
  policy: Policy,
  context: Read,
): Reader {
  const made = r.compaction?.some((l) => l.id === item.id) === true;
  const recorded = t.artifacts.find((a) => a.id === item.id);
  const compaction = made || (recorded?.tags ?? []).includes(COMPACTION_TAG);
  const summary = readOf(textOf(item.content));
  return {
    label: `the ${compaction ? 'compaction summary' : 'summary'} ${item.id}`,
    summary,
    context,
    cut: made || DETERMINISTIC.test(summary.raw) ? (policy.compaction?.request_chars ?? 160) : undefined,
  };
}

/**
 * The summary rule: for each summary of the final context, the facts of the artifacts it replaces
 * (those of its sources that exist and are not in the context themselves) that the model no longer
 * reads. Values any PII detector matches are no facts and are never quoted. Ordered by line, then message.
 */
export function checkSummaryRetention(
  t: Transcript,
  result: StabilizeResult,
  opts: { policy: Policy; rules?: readonly { name: string; re: RE2JS }[] },
): Violation[] {
  const { policy } = opts;
  const pii = factPiiMasker(policy, opts.rules);
  const where = new Locator(t);
  const live = new Set(result.context.map((c) => c.id));
  const context = readOf(result.context.map(artifactText).join('\n\u0000\n'));
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));
  // `turn\0call id` of every call some result answers (the pairing the readers made).
  const answered = new Set(
    t.artifacts.flatMap((a) => {
      const owner = t.pairing.resultToCall[a.id];
      return owner === undefined ? [] : [a.call_id, ...(a.call_ids ?? [])].map((id) => `${owner}\u0000${id}`);
    }),
  );
  const out: Violation[] = [];
  for (const item of result.context) {
    if (item.kind !== 'summary') continue;
    const covers = coversOf(item, t, result);
    if (!covers) continue;
    // A source still in the context lost nothing; the rest, in transcript order.
    const ids = new Set(covers.filter((id) => byId.has(id) && !live.has(id)));
    const replaced = t.artifacts.filter((a) => ids.has(a.id));
    const check = new SummaryCheck(readerOf(item, t, result, policy, context), where, pii);
    for (const a of replaced) {
      if (a.kind === 'user') check.user(a);
      else if (a.kind === 'assistant') {
        check.decisions(a);
        check.pending(a, answered);
      }
    }
    for (const [family, { a, tool }] of lastErrors(t, ids, byId)) check.lastError(a, tool, family);
    out.push(...check.violations());
  }
  return out.sort((x, y) => x.line - y.line || (x.message < y.message ? -1 : x.message > y.message ? 1 : 0));
}
