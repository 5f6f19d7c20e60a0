// Stage 9 (budget): protected artifacts first; then valid summaries; then the rest newest-first while
// it fits, and after the first that does not, every older one that still fits (fill by fit). A tool
// call and its results are one unit. Counting is lazy: once nothing is left, everything older is
// dropped without being counted.
import type { SuffixDedup } from './dedup.js';
import type { Final, Masker } from './finalize.js';
import { finalOf } from './finalize.js';
import type { TokenMeter } from './meter.js';
import { fitProtected, isMustKeep, shrinkUnprotected } from './fit.js';
import { recentWindowStart } from './protect.js';
import type { Status } from './types.js';
import type { Work, WorkSet } from './work.js';
import { isAlive, isProtected, remove, textOf } from './work.js';
import { utf8Length } from './meter.js';
import { maxOf, minOf } from '../collections.js';

export interface BudgetRules {
  budget: number;
  aggressive: boolean;
  keepRecent: number;
  /**
   * Compaction (compaction.ts): the tokens a summary of these dropped artifacts would take. The
   * budget holds that much back for it, so the summary always fits.
   */
  reserve?: (dropped: readonly Work[]) => number;
  /**
   * stable_prefix (issue 27): the conversation is cut at points of a fixed grid, `step` tokens of the
   * recorded history apart, so the next call sends the same prefix while it fits. Absent: newest
   * first with fill by fit at every call.
   */
  stableStep?: number;
  /** tool_output.max_tokens: protected evidence over it is cut to that size first under pressure. */
  maxTokens?: number;
  /** Where each artifact starts in the history, in tokens (the grid's coordinates). */
  positions?: readonly number[];
}

export interface BudgetOutcome {
  status: Status;
  protectedTokens: number;
  dropped: number;
  chatter: number;
  placeholders: number;
  excerpted: number;
  /** Should-keep artifacts dropped to fit the must-keep tier (fit.ts). */
  degraded: number;
}

/** One unit of the context: an artifact, or an assistant with tool calls together with their results. */
interface Entry {
  members: Work[];
  last: number;
}

export function buildEntries(ws: WorkSet): Entry[] {
  const entries: Entry[] = [];
  for (const w of ws.items) {
    if (!isAlive(w) || (w.owner && isAlive(w.owner))) continue;
    const members = [w, ...w.results.filter(isAlive)];
    entries.push({
      members,
      last: maxOf(
        members.map((m) => m.index),
        w.index,
      ),
    });
  }
  return entries;
}

function entryTokens(e: Entry, tokensOf: (w: Work) => Final): number {
  let sum = 0;
  for (const m of e.members) sum += tokensOf(m).tokens;
  return sum;
}

function dropEntry(e: Entry, reason: string, detail: string): void {
  for (const m of e.members) remove(m, { stage: 'budget', action: 'dropped', reason, detail });
}

function dropChatter(ws: WorkSet, keepRecent: number): number {
  const start = recentWindowStart(ws, keepRecent);
  let n = 0;
  for (const w of ws.items) {
    if (!isAlive(w) || isProtected(w) || w.a.kind !== 'assistant' || w.index >= start) continue;
    if (w.toolCalls && w.toolCalls.length > 0) continue;
    remove(w, {
      stage: 'budget',
      action: 'dropped',
      reason: 'aggressive_chatter',
      detail: 'assistant chatter older than the recent window (aggressive mode)',
    });
    n++;
  }
  return n;
}

export function applyBudget(
  ws: WorkSet,
  rules: BudgetRules,
  masker: Masker,
  meter: TokenMeter,
  dedup?: SuffixDedup,
): BudgetOutcome {
  const tokensOf = (w: Work): Final => finalOf(w, masker, meter);
  let chatter = rules.aggressive ? dropChatter(ws, rules.keepRecent) : 0;
  const entries = buildEntries(ws);
  // With a stable prefix only the must-keep tier is placed first: should-keep evidence and the recent
  // turns take their place in the history and leave with the cut, by whole steps, so the prefix holds
  // from call to call (issue 27). (Holding the recent turns too was measured worse: a turn that opens
  // a long tool loop then holds its first message and answer while the grid cut drops the middle of
  // the loop, leaving a hole the agent's next call needed; see docs/architecture.md.) Without a stable
  // prefix, everything protected is placed first.
  const held = rules.stableStep !== undefined ? isMustKeep : isProtected;
  const protectedEntries = entries.filter((e) => e.members.some(held));
  const rest = entries.filter((e) => !e.members.some(held));

  let status: Status = 'ok';
  const authorityTokens = ws.items
    .filter((w) => isAlive(w) && (w.a.kind === 'system' || w.a.kind === 'policy'))
    .reduce((s, w) => s + tokensOf(w).tokens, 0);
  const membersOf = (units: Entry[]): Work[] => units.flatMap((e) => e.members);
  let protectedTokens = protectedEntries.reduce((s, e) => s + entryTokens(e, tokensOf), 0);
  let placeholders = 0;
  let excerpted = 0;
  let degraded = 0;
  // Protection never takes the context over the budget: placeholders, then excerpts (fit.ts). The
  // status says what that took, and a safety event why.
  const fit = (units: Entry[]): { tokens: number; status: Status } => {
    const grid =
      rules.stableStep !== undefined && rules.positions && rules.positions.length > 0
        ? { positions: rules.positions, step: rules.stableStep }
        : undefined;
    const f = fitProtected(membersOf(units), rules.budget, tokensOf, meter, {
      ...(grid ? { grid } : {}),
      ...(rules.maxTokens !== undefined ? { maxTokens: rules.maxTokens } : {}),
    });
    placeholders += f.placeholders;
    excerpted += f.excerpted;
    degraded += f.dropped;
    const now: Status =
      f.tokens > rules.budget ? 'escalated' : excerpted > 0 || degraded > 0 ? 'warning' : status;
    reportFit(ws, now, {
      protectedTokens: f.tokens,
      floor: f.floor,
      authorityTokens,
      budget: rules.budget,
      excerpted,
      degraded,
    });
    return { tokens: f.tokens, status: now };
  };
  if (protectedTokens > rules.budget) ({ tokens: protectedTokens, status } = fit(protectedEntries));
  let dropped = 0;
  if (status === 'escalated') {
    // An escalated run keeps its evidence whole (nothing protected is cut or dropped for nothing):
    // with the stable cut, should-keep evidence sits among the rest and stays too.
    for (const e of rest) {
      if (e.members.some(isProtected)) continue;
      dropEntry(e, 'budget', 'no room left after protected artifacts');
      dropped += e.members.length;
    }
    return { status, protectedTokens, dropped, chatter, placeholders, excerpted, degraded };
  }

  let remaining = rules.budget - protectedTokens;
  const isSummary = (e: Entry): boolean => e.members.length === 1 && e.members[0]?.a.kind === 'summary';
  const summaries = rest.filter(isSummary).sort((a, b) => b.last - a.last);
  const keptSummaries: { e: Entry; cost: number }[] = [];
  for (const e of summaries) {
    const cost = entryTokens(e, tokensOf);
    if (cost <= remaining) {
      remaining -= cost;
      keptSummaries.push({ e, cost });
    } else {
      dropEntry(e, 'budget', `needs ${cost} tokens, ${remaining} left`);
      dropped++;
    }
  }
  let summaryTokens = keptSummaries.reduce((sum, k) => sum + k.cost, 0);

  // Newest-first while it fits. Dedup (when on) widens with the part that can still fit: what it
  // removes frees room, which lets older artifacts in, which are then compared in turn.
  let fill: { stop: number; remaining: number; need: number };
  let positions: readonly number[] | undefined;
  for (;;) {
    const current = buildEntries(ws);
    const conversation = current
      .filter((e) => !e.members.some(held) && !isSummary(e))
      .sort((a, b) => b.last - a.last);
    const protectedUnits = current.filter((e) => e.members.some(held));
    let protectedNow = protectedUnits.reduce((sum, e) => sum + entryTokens(e, tokensOf), 0);
    if (protectedNow + summaryTokens > rules.budget) {
      // A duplicate's placeholder can be longer than the short result it replaced: shrink again,
      // then give up summaries (oldest first) before any protected artifact.
      placeholders += shrinkUnprotected(
        membersOf(protectedUnits),
        protectedNow + summaryTokens - rules.budget,
        tokensOf,
      );
      protectedNow = protectedUnits.reduce((sum, e) => sum + entryTokens(e, tokensOf), 0);
      for (let k = keptSummaries.pop(); k; k = keptSummaries.pop()) {
        if (protectedNow + summaryTokens <= rules.budget) {
          keptSummaries.push(k);
          break;
        }
        dropEntry(k.e, 'budget', 'no room left after protected artifacts');
        dropped++;
        summaryTokens -= k.cost;
      }
      if (protectedNow > rules.budget) {
        ({ tokens: protectedNow, status } = fit(protectedUnits));
        if (status === 'escalated') {
          for (const e of conversation) {
            if (e.members.some(isProtected)) continue;
            dropEntry(e, 'budget', 'no room left after protected artifacts');
            dropped += e.members.length;
          }
          break;
        }
      }
    }
    let left = rules.budget - protectedNow - summaryTokens;
    const reserve = rules.reserve ? holdBack(conversation, left, rules.reserve, tokensOf) : 0;
    left -= reserve;
    if (rules.stableStep !== undefined) {
      positions ??= rules.positions ?? positionsOf(ws);
      const step = rules.stableStep;
      const starts = positions;
      let cut = stableCut(conversation, protectedUnits, left + protectedNow, step, starts, tokensOf);
      // The room held back for a compaction summary never pushes should-keep turns out of the context:
      // when it would, the cut is the last grid point before them (still moving forward only) and the
      // summary gets what is left (compaction sizes it to the room).
      const evicted = cut.before.filter((e) => e.members.some(isProtected));
      if (reserve > 0 && evicted.length > 0) {
        const first = Math.min(...evicted.map((e) => entryStart(e, starts)));
        const capped = splitAt(conversation, Math.floor(first / step) * step, starts);
        const fits =
          [...capped.kept, ...protectedUnits].reduce((sum, e) => sum + entryTokens(e, tokensOf), 0) <=
          left + reserve + protectedNow;
        if (fits && !capped.before.some((e) => e.members.some(isProtected))) cut = capped;
      }
      const kept = cut.kept.flatMap((e) => e.members.map((m) => m.index));
      if (dedup && dedup.extendTo(minOf(kept, ws.items.length))) {
        if (rules.aggressive) chatter += dropChatter(ws, rules.keepRecent);
        continue;
      }
      const leave = (e: Entry, why: string): void => {
        const evidence = e.members.filter(isProtected);
        if (evidence.length > 0) {
          const kinds = [
            ...new Set(evidence.flatMap((m) => m.protectedBy.filter((p) => !p.startsWith('pair:')))),
          ];
          for (const m of e.members)
            remove(m, {
              stage: 'budget',
              action: 'dropped',
              reason: 'degraded',
              detail: `should keep (${kinds.join(', ')}), but ${why}`,
            });
          degraded += evidence.length;
        } else dropEntry(e, 'budget', why);
        dropped += e.members.length;
      };
      for (const e of cut.before) leave(e, "older than the context's cut point (stable_prefix)");
      if (degraded > 0 && status === 'ok') {
        status = 'warning';
        reportFit(ws, status, {
          protectedTokens,
          floor: protectedTokens,
          authorityTokens,
          budget: rules.budget,
          excerpted,
          degraded,
        });
      }
      break;
    }
    let stop = conversation.length;
    let need = 0;
    for (let i = 0; i < conversation.length; i++) {
      const cost = entryTokens(conversation[i] as Entry, tokensOf);
      if (cost > left) {
        stop = i;
        need = cost;
        break;
      }
      left -= cost;
    }
    fill = { stop, remaining: left, need };
    const reached = conversation.slice(0, stop + 1).flatMap((e) => e.members.map((m) => m.index));
    const from = minOf(reached, ws.items.length);
    // Older artifacts may still fit where a larger newer one did not (fill by fit, not a cut-off):
    // dedup then looks at all of them, so that no older copy is admitted next to its later one.
    if (!dedup || !dedup.extendTo(stop === conversation.length || left > 0 ? 0 : from)) {
      conversation.slice(stop).forEach((e, k) => {
        if (k === 0) dropEntry(e, 'budget', `needs ${fill.need} tokens, ${fill.remaining} left`);
        else if (left <= 0) dropEntry(e, 'budget', 'older than what fits in the budget');
        else {
          const cost = entryTokens(e, tokensOf);
          if (cost <= left) {
            left -= cost;
            return;
          }
          dropEntry(e, 'budget', `needs ${cost} tokens, ${left} left`);
        }
        dropped += e.members.length;
      });
      break;
    }
    // A duplicate result takes its call along, which can leave an assistant that is chatter now.
    if (rules.aggressive) chatter += dropChatter(ws, rules.keepRecent);
  }
  // A result the budget dropped took its call along too: an assistant left with only its text is
  // chatter now, and stabilizing the context again would drop it.
  if (rules.aggressive) chatter += dropChatter(ws, rules.keepRecent);
  return { status, protectedTokens, dropped, chatter, placeholders, excerpted, degraded };
}

/**
 * Where each artifact starts in the recorded history, in estimated tokens (UTF-8 bytes / 4 of its
 * text and calls, as recorded): fixed once recorded, so a grid over it stays put as the history grows.
 */
function positionsOf(ws: WorkSet): number[] {
  const out: number[] = [];
  let pos = 0;
  for (const w of ws.items) {
    out.push(pos);
    let bytes = utf8Length(textOf(w.a.content));
    for (const c of w.a.tool_calls ?? []) bytes += utf8Length(c.name) + utf8Length(c.arguments);
    pos += Math.ceil(bytes / 4) + 1;
  }
  out.push(pos);
  return out;
}

/** Where an entry starts in the recorded history (its earliest member). */
function entryStart(e: Entry, positions: readonly number[]): number {
  return (
    positions[
      minOf(
        e.members.map((m) => m.index),
        0,
      )
    ] ?? 0
  );
}

/** `conversation` split at grid point `g`: what starts at or after it is kept. */
function splitAt(
  conversation: readonly Entry[],
  g: number,
  positions: readonly number[],
): { kept: Entry[]; before: Entry[] } {
  const kept: Entry[] = [];
  const before: Entry[] = [];
  for (const e of conversation) (entryStart(e, positions) >= g ? kept : before).push(e);
  return { kept, before };
}

/**
 * The stable cut (DESIGN §4 stage 9, "stable across calls"): keep the conversation from the earliest
 * point of a fixed grid (multiples of `step` tokens of the history as recorded) from which it fits
 * `room` with the must-keep units before that point. Between two moves of the cut plan (cut-plan.ts)
 * nothing before the freeze changes size and everything after it is appended as recorded, so this
 * point only moves forward and each request repeats the previous one as a prefix; when the history
 * outgrows the budget it moves on by whole steps, which leaves room below the budget (low water).
 */
function stableCut(
  conversation: readonly Entry[],
  held: readonly Entry[],
  room: number,
  step: number,
  positions: readonly number[],
  tokensOf: (w: Work) => Final,
): { kept: Entry[]; before: Entry[] } {
  const startOf = (e: Entry): number => entryStart(e, positions);
  const units = [
    ...conversation.map((e) => ({ e, held: false })),
    ...held.map((e) => ({ e, held: true })),
  ].map((u) => ({ ...u, start: startOf(u.e), cost: entryTokens(u.e, tokensOf) }));
  units.sort((a, b) => a.start - b.start);
  // Everything from grid point g on, and the must-keep units before it.
  let suffix = units.reduce((sum, u) => sum + u.cost, 0);
  let heldBefore = 0;
  let g = 0;
  let k = 0;
  const end = positions[positions.length - 1] ?? 0;
  for (;;) {
    while (k < units.length && (units[k] as { start: number }).start < g) {
      const u = units[k++] as { held: boolean; cost: number };
      suffix -= u.cost;
      if (u.held) heldBefore += u.cost;
    }
    if (heldBefore + suffix <= room || g > end) break;
    g += step;
  }
  return splitAt(conversation, g, positions);
}

/** What the fill below drops from `conversation` (newest first) with `room` tokens: the same rule. */
function wouldDrop(conversation: readonly Entry[], room: number, tokensOf: (w: Work) => Final): Work[] {
  let left = room;
  let i = 0;
  for (; i < conversation.length; i++) {
    const cost = entryTokens(conversation[i] as Entry, tokensOf);
    if (cost > left) break;
    left -= cost;
  }
  const out: Work[] = [];
  for (let k = i; k < conversation.length; k++) {
    const e = conversation[k] as Entry;
    if (k > i && left > 0) {
      const cost = entryTokens(e, tokensOf);
      if (cost <= left) {
        left -= cost;
        continue;
      }
    }
    out.push(...e.members);
  }
  return out;
}

/**
 * The room to hold back for a compaction summary: what the summary of the artifacts dropped with
 * that room held back needs. Holding more back drops more, which the summary then describes, so
 * this grows to a fixed point (bounded: the summary is capped at compaction.max_tokens).
 */
function holdBack(
  conversation: readonly Entry[],
  room: number,
  need: (dropped: readonly Work[]) => number,
  tokensOf: (w: Work) => Final,
): number {
  let held = 0;
  for (let step = 0; step < 64 && held < room; step++) {
    const dropped = wouldDrop(conversation, room - held, tokensOf);
    if (dropped.length === 0) return held;
    const want = Math.min(need(dropped), Math.max(0, room));
    if (want <= held) return held;
    held = want;
  }
  return held;
}

/** The safety event of a budget that protection alone would exceed. */
function reportFit(
  ws: WorkSet,
  status: Status,
  n: {
    protectedTokens: number;
    floor: number;
    authorityTokens: number;
    budget: number;
    excerpted: number;
    degraded: number;
  },
): void {
  if (status === 'ok') return;
  if (status === 'warning') {
    if (n.degraded > 0)
      ws.events.push({
        level: 'safety',
        code: 'protected_dropped',
        message: `protected artifacts did not fit the budget of ${n.budget} tokens: ${n.degraded} should-keep artifacts dropped, oldest evidence first, so that system, task, latest request and the open tool loop fit (recovery warning; see the ledger's degraded entries)`,
      });
    if (n.excerpted > 0)
      ws.events.push({
        level: 'safety',
        code: 'protected_excerpted',
        message: `protected artifacts did not fit the budget of ${n.budget} tokens: ${n.excerpted} cut to excerpts of their head and tail (recovery warning; see the ledger's excerpted entries)`,
      });
    return;
  }
  const authority = n.authorityTokens > n.budget;
  ws.events.push({
    level: 'safety',
    code: authority ? 'authority_over_budget' : 'protected_over_budget',
    message: authority
      ? `system and policy artifacts alone need ${n.authorityTokens} tokens, over the budget of ${n.budget}: the budget cannot be met without violating authority`
      : `protected artifacts need ${n.protectedTokens} tokens, and what must be kept at least ${n.floor} (system, task statement, latest request and pins whole, the open tool loop at its smallest excerpts; should-keep evidence and recent turns left out), over the budget of ${n.budget}: the budget cannot be met without dropping what must be kept; nothing protected was cut or dropped`,
  });
}
