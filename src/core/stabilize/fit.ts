// Making what must be kept fit the budget (DESIGN §4 stage 9: the budget is a hard limit). First the
// unprotected results inside protected units become placeholders; then protected evidence is cut to
// excerpts, all of it to one common size (the largest that fits), so that no single output takes the
// whole room. System and policy, the task statement, the latest user request and scope markers are
// never cut: when they and the smallest excerpts cannot fit together, the budget cannot be met, and
// nothing is cut (the run escalates with its evidence whole).
import { excerptText, isExcerpt, leftOutText } from './excerpt.js';
import type { Final } from './finalize.js';
import { keepsOutcome } from './outcome.js';
import type { TokenMeter } from './meter.js';
import type { Work } from './work.js';
import {
  isAlive,
  isPlaceholder,
  isProtected,
  placeholderText,
  remove,
  removeResult,
  textOf,
} from './work.js';
import type { Content } from '../types.js';

/** An excerpt smaller than this no longer shows an outcome: below it the budget is not met. */
export const MIN_EXCERPT_TOKENS = 48;

/** Protections that mean "the model cannot work without this verbatim". */
const WHOLE = new Set(['system', 'policy', 'task', 'task_statement', 'latest_request', 'scope']);
/**
 * The must-keep tier (DESIGN §4 stage 9, issue 27): never dropped. Besides WHOLE, the open tool loop
 * (its results may become excerpts, last of all) and what the author pinned.
 */
const MUST = new Set([...WHOLE, 'open_loop', 'pinned']);
/** The must-keep protections as the ledger's `protected_by` names them (the guardian's pressure reads them). */
export const MUST_KEEP_PROTECTIONS: ReadonlySet<string> = MUST;

/** Own protections, without the `pair:` a call gets from its protected results. */
function ownProtections(w: Work): string[] {
  return w.protectedBy.filter((p) => !p.startsWith('pair:'));
}

/** In the must-keep tier: by its own protection, or as the call of a must-keep result. */
export function isMustKeep(w: Work): boolean {
  if (ownProtections(w).some((p) => MUST.has(p))) return true;
  return w.results.some((r) => isAlive(r) && ownProtections(r).some((p) => MUST.has(p)));
}

/**
 * How far cutting may reach: 0 protected evidence, 1 also the recent turns, 2 also the open tool
 * loop and pinned artifacts (the last resort before escalating).
 */
type CutLevel = 0 | 1 | 2;

export interface FitOutcome {
  /** Tokens of the protected units after fitting. */
  tokens: number;
  placeholders: number;
  excerpted: number;
  /** The least the protected units can take with every cuttable artifact at its smallest excerpt. */
  floor: number;
  /** Should-keep artifacts dropped, oldest evidence first, because the rest did not fit otherwise. */
  dropped: number;
}

/**
 * Unprotected results inside protected units become placeholders, largest first, until the protected
 * part fits: the calls stay valid and no protected evidence is lost.
 */
export function shrinkUnprotected(members: Work[], over: number, tokensOf: (w: Work) => Final): number {
  // A placeholder read back from a stabilized context stays as it is (work.ts, isPlaceholder): which
  // units are must-keep can change between passes (the open loop), and rewording it would change the
  // context the first pass gave. One made in this run (a duplicate's) may still shrink.
  const readBack = (m: Work): boolean => isPlaceholder(m) && m.changed === undefined;
  const candidates = members
    .filter((m) => m.owner && !isProtected(m) && !readBack(m))
    .map((m) => ({ m, tokens: tokensOf(m).tokens }))
    .sort((x, y) => y.tokens - x.tokens || x.m.index - y.m.index);
  let n = 0;
  for (const { m, tokens } of candidates) {
    if (over <= 0) break;
    const before = { content: m.content, changed: m.changed };
    m.content = placeholderText('budget');
    m.changed = {
      stage: 'budget',
      action: 'compressed',
      reason: 'pair_placeholder',
      detail: `budget: replaced by a placeholder because its call in ${m.owner?.a.id ?? '?'} is protected`,
    };
    const saved = tokens - tokensOf(m).tokens;
    // A result shorter than the placeholder stays as it is: replacing it would only cost room.
    if (saved <= 0) {
      m.content = before.content;
      m.changed = before.changed;
      continue;
    }
    over -= saved;
    n++;
  }
  return n;
}

/**
 * What may be cut: protected evidence with text (a tool result may hold images too: they stay, only
 * its text is cut). `withRecent`: the recent turns rank above other evidence; they are cut only when
 * it cannot make room.
 */
function cuttable(w: Work, level: CutLevel): boolean {
  if (!isAlive(w) || !isProtected(w) || w.protectedBy.some((p) => WHOLE.has(p))) return false;
  if (level < 2 && isMustKeep(w)) return false;
  if (level < 1 && w.protectedBy.includes('recent')) return false;
  // An excerpt of the stabilized context this was read from is not cut again: stabilizing a
  // stabilized context must change nothing. (One this run made is cut again from the original.)
  if (w.changed?.action !== 'excerpted' && isExcerpt(textOf(w.content))) return false;
  if (w.a.kind === 'tool') return true;
  if (w.a.kind !== 'user' && w.a.kind !== 'assistant') return false;
  // Signed thinking blocks and media in a message cannot be cut around safely.
  return typeof w.content === 'string' || w.content.every((p) => p.type === 'text');
}

function withText(content: Content, text: string): Content {
  if (typeof content === 'string') return text;
  const first = content.findIndex((p) => p.type === 'text');
  return content.flatMap((p, i) => (p.type !== 'text' ? [p] : i === first ? [{ type: 'text', text }] : []));
}

interface Candidate {
  w: Work;
  cost: number;
  /** The smallest it can be cut to: its framing (tool calls, media) and the least excerpt. */
  floor: number;
}

/**
 * Cut `w`'s text so that the whole artifact costs at most `target.artifact` tokens, or its text alone
 * at most `target.text` (the framing: tool calls, media, overhead, is never cut). The cut is made on
 * the masked text: cutting first could split a value so that the masker no longer recognises it. An
 * excerpt this run made already (at tool_output.max_tokens) is cut again from the original; if no cut
 * fits, it stays as it was.
 */
export function cutTo(
  w: Work,
  target: { artifact: number } | { text: number },
  stage: 'budget' | 'tool_output',
  detail: (why: string, omitted: string) => string,
  tokensOf: (w: Work) => Final,
  meter: TokenMeter,
): boolean {
  const before = { content: w.content, changed: w.changed, piiCarried: w.piiCarried };
  if (w.changed?.action === 'excerpted') {
    w.content = w.a.content;
    w.changed = undefined;
    w.piiCarried = undefined;
  }
  const shown = tokensOf(w);
  const text = textOf(shown.content);
  const framing = shown.tokens - meter.count(text);
  const limit = 'artifact' in target ? target.artifact : target.text + framing;
  let textTarget = limit - framing;
  const why = w.protectedBy.filter((p) => !p.startsWith('pair:')).join(', ') || 'protected';
  for (let attempt = 0; attempt < 4 && textTarget > 0; attempt++) {
    const ex = meter.derive(text, textTarget, () => excerptText(text, textTarget, meter));
    // An excerpt that no longer reads as the outcome it was cut from is no excerpt: read again, it
    // would lose its protection, and stabilizing the stabilized context would drop it.
    if (!ex || !keepsOutcome(w, ex.text)) break;
    w.content = withText(shown.content, ex.text);
    w.piiCarried = shown.pii;
    w.changed = {
      stage,
      action: 'excerpted',
      reason: stage === 'budget' ? 'excerpt' : 'verbose_tool_output',
      detail: detail(why, leftOutText(ex.omitted)),
    };
    const over = tokensOf(w).tokens - limit;
    if (over <= 0) return true;
    textTarget -= over;
  }
  // No excerpt within the target: the artifact stays as it was (an excerpt over its target would be
  // cut again by the next run, and stabilizing a stabilized context must change nothing).
  Object.assign(w, before);
  return false;
}

/** Cut protected evidence in `members` to one common size so that they all fit `limit`. */
function excerptProtected(
  members: Work[],
  limit: number,
  tokensOf: (w: Work) => Final,
  meter: TokenMeter,
  level: CutLevel,
): { excerpted: number; floor: number } {
  const all = members.reduce((s, m) => s + tokensOf(m).tokens, 0);
  const candidates: Candidate[] = members
    .filter((w) => cuttable(w, level))
    .map((w) => {
      const f = tokensOf(w);
      const textTokens = meter.count(textOf(f.content));
      // Framing, tool calls and media: what cutting the text cannot remove.
      const fixed = f.tokens - textTokens;
      return {
        w,
        cost: f.tokens,
        floor: textTokens > MIN_EXCERPT_TOKENS ? fixed + MIN_EXCERPT_TOKENS : f.tokens,
      };
    });
  const room = limit - (all - candidates.reduce((s, c) => s + c.cost, 0));
  const size = (cap: number): number =>
    candidates.reduce((s, c) => s + Math.max(c.floor, Math.min(c.cost, cap)), 0);
  let hi = candidates.reduce((m, c) => Math.max(m, c.cost), 0);
  // Nothing to cut when it fits whole; no cut either when even the smallest excerpts do not fit:
  // the run escalates, and cutting evidence would lose it without meeting the budget.
  const floor = limit - room + size(0);
  if (size(hi) <= room || size(0) > room) return { excerpted: 0, floor };
  // The largest common size that fits.
  let lo = 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size(mid) <= room) lo = mid;
    else hi = mid - 1;
  }
  let n = 0;
  for (const c of candidates.sort((x, y) => x.w.index - y.w.index)) {
    const target = Math.max(c.floor, lo);
    if (c.cost <= target) continue;
    const cut = cutTo(
      c.w,
      { artifact: target },
      'budget',
      (why, omitted) =>
        `protected (${why}) but over the budget: cut to its head and tail, ${omitted} left out`,
      tokensOf,
      meter,
    );
    if (cut) n++;
  }
  return { excerpted: n, floor };
}

/** The least the must-keep tier takes: whole, but for the open loop's results at their smallest excerpt. */
function mustFloor(members: Work[], tokensOf: (w: Work) => Final, meter: TokenMeter): number {
  let sum = 0;
  for (const m of members) {
    const must = isMustKeep(m) || (m.owner !== undefined && isMustKeep(m.owner) && isProtected(m));
    if (!must) continue;
    const f = tokensOf(m);
    if (!cuttable(m, 2)) {
      sum += f.tokens;
      continue;
    }
    const text = meter.count(textOf(f.content));
    sum += text > MIN_EXCERPT_TOKENS ? f.tokens - text + MIN_EXCERPT_TOKENS : f.tokens;
  }
  return sum;
}

/**
 * Drop should-keep artifacts (DESIGN §4 stage 9, two tiers) until the protected units fit `limit`:
 * protected evidence oldest first, then the recent turns oldest first. Must-keep artifacts stay.
 * Each drop is a ledger entry (`degraded`) and makes the status a warning, never a silent loss.
 */
function dropShouldKeep(
  members: Work[],
  limit: number,
  total: () => number,
  recent: boolean,
  grid: FitGrid | undefined,
): number {
  const candidates = members
    .filter(
      (w) =>
        isAlive(w) &&
        ownProtections(w).length > 0 &&
        !isMustKeep(w) &&
        w.protectedBy.includes('recent') === recent,
    )
    .sort((x, y) => x.index - y.index);
  const cell = (w: Work): number => (grid ? Math.floor((grid.positions[w.index] ?? 0) / grid.step) : w.index);
  let n = 0;
  let current: number | undefined;
  for (const w of candidates) {
    // Whole cells of the grid at a time: stop only where a cell ends.
    if (cell(w) !== current && total() <= limit) break;
    current = cell(w);
    if (!isAlive(w)) continue;
    const why = ownProtections(w).join(', ');
    const fate = {
      stage: 'budget' as const,
      action: 'dropped' as const,
      reason: 'degraded',
      detail: `should keep (${why}), but the must-keep tier and newer evidence fill the budget`,
    };
    const owner = w.owner;
    // No longer kept for itself: a result that stays as a placeholder (its call is kept for another
    // result) competes like any unprotected one.
    w.protectedBy = [];
    if (owner) {
      // The call no longer needs keeping for this result; it leaves with it unless kept for itself.
      owner.protectedBy = owner.protectedBy.filter((p) => p !== `pair:${w.a.id}`);
      removeResult(w, fate);
    } else if (w.results.length > 0) {
      // A call and its results leave together, all for the same reason.
      remove(w, fate);
      for (const r of w.results)
        remove(r, { ...fate, detail: `${fate.detail}; went with its call in ${w.a.id}` });
    } else remove(w, fate);
    n++;
  }
  return n;
}

export interface FitGrid {
  /** Each artifact's start in the history, in tokens (pressure.ts historyPositions). */
  positions: readonly number[];
  /** The stable cut's step: drops go by whole steps of history, so the next call keeps its prefix. */
  step: number;
}

/**
 * Fit the protected units into `limit`, in the documented order (docs/protection.md): placeholders for
 * unprotected results; evidence over tool_output.max_tokens cut to that fixed size; older should-keep
 * evidence dropped by whole steps of history (with no grid, stable_prefix off: only after it was cut
 * to a common size); what is left cut to a common size (evidence, then the recent turns); the recent
 * turns dropped by steps; excerpts of the open tool loop; the open loop left out whole. What is over
 * the limit after that is the must-keep tier alone: the run escalates.
 */
export function fitProtected(
  members: Work[],
  limit: number,
  tokensOf: (w: Work) => Final,
  meter: TokenMeter,
  opts: { grid?: FitGrid; maxTokens?: number } = {},
): FitOutcome {
  // An artifact counts while it is alive and protected, or a result held by its protected call.
  const counted = (m: Work): boolean =>
    isAlive(m) && (isProtected(m) || (m.owner !== undefined && isAlive(m.owner) && isProtected(m.owner)));
  const total = (): number => members.filter(counted).reduce((s, m) => s + tokensOf(m).tokens, 0);
  let tokens = total();
  let placeholders = 0;
  let dropped = 0;
  let floor = tokens;
  // Placeholders only when the must-keep tier can fit at all (they never lower its floor): an
  // escalated run keeps its results whole, as it keeps the should-keep units' (budget.ts), so a
  // unit that is the open loop only when read back does not change (restabilize seed 1968358021).
  if (tokens > limit && mustFloor(members.filter(counted), tokensOf, meter) <= limit) {
    placeholders = shrinkUnprotected(members, tokens - limit, tokensOf);
    tokens = total();
  }
  // Dropping evidence only helps when the must-keep tier can fit at all: otherwise the run escalates
  // with its evidence whole, and nothing is lost for nothing.
  const canFit = (): boolean => mustFloor(members.filter(counted), tokensOf, meter) <= limit;
  // Evidence over tool_output.max_tokens first becomes an excerpt of that size: a fixed size, so the
  // same artifact is cut the same way on every call.
  if (tokens > limit && opts.maxTokens !== undefined && canFit()) {
    for (const w of members.filter((m) => counted(m) && cuttable(m, 0))) {
      if (!meter.exceeds(textOf(tokensOf(w).content), opts.maxTokens)) continue;
      cutTo(
        w,
        { text: opts.maxTokens },
        'budget',
        (why, omitted) =>
          `protected (${why}) but over the budget: cut to its head and tail at tool_output.max_tokens, ${omitted} left out`,
        tokensOf,
        meter,
      );
    }
    tokens = total();
  }
  // Without the stable cut's grid (stable_prefix off) every call re-decides anyway: evidence is cut
  // to a common size before any of it is dropped, since an excerpt keeps its error lines.
  if (tokens > limit && opts.grid === undefined) {
    ({ floor } = excerptProtected(members.filter(counted), limit, tokensOf, meter, 0));
    tokens = total();
  }
  // Then older evidence goes, by whole steps of history (stable across calls), then what is left is
  // cut to a common size, then the recent turns go, by steps too.
  if (tokens > limit && canFit()) {
    dropped += dropShouldKeep(members, limit, total, false, opts.grid);
    tokens = total();
  }
  for (const level of [0, 1] as const) {
    if (tokens <= limit) break;
    ({ floor } = excerptProtected(members.filter(counted), limit, tokensOf, meter, level));
    tokens = total();
  }
  if (tokens > limit && canFit()) {
    dropped += dropShouldKeep(members, limit, total, true, opts.grid);
    tokens = total();
  }
  if (tokens > limit) {
    ({ floor } = excerptProtected(members.filter(counted), limit, tokensOf, meter, 2));
    tokens = total();
  }
  // The last resort before escalating: the open loop leaves whole (its calls with their results), when
  // what the model cannot work without (system, constraints, task, latest request) then fits.
  if (tokens > limit) {
    const inLoop = members.filter((m) => isAlive(m) && m.protectedBy.includes('open_loop'));
    // A loop call's other results leave with it: one that is not in the loop itself (with reused
    // call ids it can come before a later turn; then it is a placeholder here) would be orphaned.
    const loop = [...new Set([...inLoop, ...inLoop.flatMap((m) => m.results.filter(isAlive))])];
    const whole = members
      .filter((m) => counted(m) && !loop.includes(m))
      .reduce((sum, m) => sum + tokensOf(m).tokens, 0);
    // Not when the loop holds something pinned, nor when nothing of the conversation would be left.
    const pinned = loop.some((m) => ownProtections(m).some((p) => p !== 'open_loop' && MUST.has(p)));
    const conversation = members.some(
      (m) => counted(m) && !loop.includes(m) && m.a.kind !== 'system' && m.a.kind !== 'policy',
    );
    if (loop.length > 0 && whole <= limit && !pinned && conversation) {
      for (const m of loop) {
        m.protectedBy = [];
        remove(m, {
          stage: 'budget',
          action: 'dropped',
          reason: 'degraded',
          detail:
            'the open tool loop did not fit even as excerpts: left out so that system, task and latest request fit',
        });
      }
      dropped += loop.length;
      tokens = total();
    }
  }
  // Each level re-cuts from the original: count what ends up excerpted, once.
  const excerpted = members.filter(
    (m) => isAlive(m) && m.changed?.action === 'excerpted' && m.changed.stage === 'budget',
  ).length;
  // The least it could take: should-keep artifacts can all be dropped, so at most the must-keep floor.
  const least = Math.min(floor, tokens, mustFloor(members.filter(counted), tokensOf, meter));
  return { tokens, placeholders, excerpted, floor: least, dropped };
}
