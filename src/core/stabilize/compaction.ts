// Compaction (issue 17, `compaction.enabled`): the turns the budget stage had to drop are replaced by
// ONE summary built from them deterministically (requests, decisions, files, commands, last errors,
// open questions), capped at `compaction.max_tokens` and always within the budget. A compaction
// summary already in the transcript (tag `compaction`, e.g. a host's model summary recorded into the
// history) stands for what it covers; when more turns must go, it is refreshed with their delta.
// Pure: the same work set gives the same text. Rules and format: docs/compaction.md.
import { parseJsonText } from '../json/text.js';
import { firstErrorLine } from './collapse.js';
import type { CommandKeys } from './families.js';
import type { Masker } from './finalize.js';
import { finalOf, maskString } from './finalize.js';
import type { TokenMeter } from './meter.js';
import type { ScopeOutcome } from './scope.js';
import type { SummaryRules } from './summaries.js';
import { turnNumbers, validateSummary } from './summaries.js';
import type { CompactionLog, ContextItem, SummaryLog } from './types.js';
import type { Fate, Work, WorkSet } from './work.js';
import { isAlive, isFailure, isProtected, remove, textOf } from './work.js';
import { sectionOf, sectionRanks } from './order.js';

/** The tag that marks a summary as a compaction summary (ours, or a host's model summary of one). */
export const COMPACTION_TAG = 'compaction';
/** Ledger reason of an artifact compacted into a summary; the summary's id is in the detail. */
export const COMPACTED_INTO = 'compacted_into';
/** Ledger reason of a compaction summary replaced by a later or refreshed one. */
export const SUMMARY_SUPERSEDED = 'summary_superseded';

export interface CompactionRules {
  budget: number;
  maxTokens: number;
  requestChars: number;
}

/** Kinds whose content the summary describes; other kinds dropped for budget stay dropped. */
const COMPACTABLE = new Set(['user', 'assistant', 'tool']);

export function isCompactionSummary(w: Work): boolean {
  return w.a.kind === 'summary' && (w.a.tags ?? []).includes(COMPACTION_TAG);
}

function compactedFate(into: string): Fate {
  return {
    stage: 'budget',
    action: 'collapsed',
    reason: COMPACTED_INTO,
    detail: `compacted into ${into}`,
  };
}

/** An assistant with its results, or a lone artifact: compacted whole or not at all (pairing). */
function unitOf(w: Work): Work[] {
  const head = w.owner ?? w;
  return [head, ...head.results];
}

/**
 * Before the budget: of the live compaction summaries, the latest is the base; an earlier one whose
 * sources it covers is superseded by it. What the base covers leaves the context (it stands for it),
 * unit by unit, unless something in the unit is protected. Returns the base.
 */
export function applyCompactionBase(ws: WorkSet, logs: SummaryLog[]): Work | undefined {
  const live = ws.items.filter((w) => isAlive(w) && isCompactionSummary(w));
  const base = live[live.length - 1];
  if (!base) return undefined;
  const covered = new Set(base.a.provenance ?? []);
  for (const old of live.slice(0, -1)) {
    if (!(old.a.provenance ?? []).every((id) => covered.has(id))) continue;
    supersede(old, base.a.id, logs);
  }
  for (const w of ws.items) {
    if (!isAlive(w) || !covered.has(w.a.id) || !COMPACTABLE.has(w.a.kind)) continue;
    const unit = unitOf(w).filter(isAlive);
    if (unit.some((m) => isProtected(m) || !covered.has(m.a.id))) continue;
    for (const m of unit) remove(m, compactedFate(base.a.id));
  }
  return base;
}

function supersede(old: Work, by: string, logs: SummaryLog[]): void {
  // Replacing the budget's drop of a base: the refreshed summary took its place.
  if (droppedForBudget(old)) delete old.removed;
  remove(old, {
    stage: 'summaries',
    action: 'expired',
    reason: SUMMARY_SUPERSEDED,
    detail: `superseded by compaction summary ${by}`,
  });
  const log = logs.find((l) => l.id === old.a.id);
  if (log) {
    log.status = 'expired';
    log.reasons = ['superseded'];
  }
}

// ---------------------------------------------------------------------------------------------
// The deterministic text

type SectionKey =
  'earlier' | 'requests' | 'replies' | 'decisions' | 'files' | 'commands' | 'errors' | 'questions';

interface Section {
  key: SectionKey;
  title: string;
  nouns: [string, string];
  lines: string[];
  /** Lines left out to fit, counted from the oldest. */
  omitted: number;
}

/** Display order. */
const DISPLAY: readonly SectionKey[] = [
  'earlier',
  'requests',
  'replies',
  'decisions',
  'files',
  'commands',
  'errors',
  'questions',
];
/** What goes first when the text is over its cap: least important first, oldest line first. */
// Older requests go first: the latest request is protected and stays verbatim, and what the older
// ones led to is in the decisions, errors and open questions.
const DROP_ORDER: readonly SectionKey[] = [
  'replies',
  'requests',
  'commands',
  'earlier',
  'files',
  'questions',
  'errors',
  'decisions',
];
/** Title, and the noun of the "left out" note (singular, plural). */
const TITLES: Record<SectionKey, [string, string, string]> = {
  earlier: ['Earlier summary', 'earlier summary line', 'earlier summary lines'],
  requests: ['Requests', 'request', 'requests'],
  replies: ['Replies', 'reply', 'replies'],
  decisions: ['Decisions', 'decision', 'decisions'],
  files: ['Files touched', 'file', 'files'],
  commands: ['Commands', 'command', 'commands'],
  errors: ['Last error per command', 'error', 'errors'],
  questions: ['Open questions', 'question', 'questions'],
};

const HEADER = /^Summary of earlier turns? [^\n]*compacted by context-stability[^\n]*(?:\n|$)/;
const DECISION = /^(?:decision|decided|we decided|i decided|we agreed|agreed)\b/i;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'command_line'];
const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'target_file', 'notebook_path'];
const PATCH_PATH = /^(?:\*\*\* (?:Add|Update|Delete) File: |\+\+\+ b\/)(.+)$/gm;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string, chars: number): string {
  const t = oneLine(text);
  return t.length <= chars ? t : `${t.slice(0, Math.max(1, chars - 1)).trimEnd()}…`;
}

function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.?!])\s+/)
    .map(oneLine)
    .filter((s) => s.length > 0);
}

function parseArgs(args: string): Record<string, unknown> | undefined {
  const t = args.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = parseJsonText(t);
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function commandOf(
  args: Record<string, unknown> | undefined,
  raw: string,
  family: string | undefined,
): string | undefined {
  if (args) {
    for (const key of COMMAND_KEYS) {
      const v = args[key];
      if (typeof v === 'string') return v;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
    }
    return undefined;
  }
  // Plain-text arguments of a shell tool are the command (families.ts gives them a `tool:head` family).
  return family !== undefined && family.includes(':') && raw.trim() !== '' ? raw : undefined;
}

function pathsOf(args: Record<string, unknown> | undefined): string[] {
  if (!args) return [];
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
  }
  for (const v of Object.values(args)) {
    if (typeof v !== 'string') continue;
    for (const m of v.matchAll(PATCH_PATH)) out.push((m[1] as string).trim());
  }
  return out;
}

function outcomeOf(r: Work | undefined): string {
  if (!r) return 'no result';
  if (r.a.exit_code !== undefined) return `exit ${r.a.exit_code}`;
  return isFailure(r) ? 'error' : 'ok';
}

/**
 * The user's open questions: sentences ending in `?` in a user message that no assistant message
 * with text followed before the next user message. The assistant's questions are answered by the
 * user's next message by definition, so they are never open.
 */
function answered(ws: WorkSet, user: Work): boolean {
  for (let i = user.index + 1; i < ws.items.length; i++) {
    const a = (ws.items[i] as Work).a;
    if (a.kind === 'user') return false;
    if (a.kind === 'assistant' && textOf(a.content).trim() !== '') return true;
  }
  return false;
}

interface Extracted {
  sections: Map<SectionKey, string[]>;
}

function extract(
  ws: WorkSet,
  items: readonly Work[],
  turns: readonly number[],
  mask: (s: string) => string,
  chars: number,
): Extracted {
  const requests: string[] = [];
  const replies: string[] = [];
  const decisions: string[] = [];
  const questions: string[] = [];
  const commands: string[] = [];
  const files = new Map<string, Set<string>>();
  const errors = new Map<string, { line: string; later: boolean }>();
  const resultOf = (owner: Work, callId: string): Work | undefined =>
    owner.results.find((r) => r.a.call_id === callId || (r.a.call_ids ?? []).includes(callId));
  for (const w of items) {
    const turn = turns[w.index] ?? 0;
    const text = mask(textOf(w.content));
    if (w.a.kind === 'user' && text.trim() !== '') {
      requests.push(`turn ${turn}: ${shorten(text, chars)}`);
      if (!answered(ws, w))
        for (const s of sentences(text))
          if (s.endsWith('?')) questions.push(`turn ${turn}: ${shorten(s, chars)}`);
    }
    if (w.a.kind === 'user' || w.a.kind === 'assistant') {
      if ((w.a.tags ?? []).includes('decision') && text.trim() !== '')
        decisions.push(`turn ${turn}: ${shorten(text, chars)}`);
      else {
        const all = sentences(text);
        const said = all.filter((s) => DECISION.test(s));
        for (const s of said) decisions.push(`turn ${turn}: ${shorten(s, chars)}`);
        // What the assistant said, by its first sentence: the delta a later reader needs when the
        // reply made no decision (seed 000: older turns become deltas, not nothing).
        const first = all.find((s) => !DECISION.test(s));
        if (w.a.kind === 'assistant' && first !== undefined && said.length === 0)
          replies.push(`turn ${turn}: ${shorten(first, chars)}`);
      }
    }
    for (const c of w.toolCalls ?? []) {
      const masked = mask(c.arguments);
      const args = parseArgs(masked);
      const keys: CommandKeys | undefined = ws.families.get(c);
      const r = resultOf(w, c.id);
      const command = commandOf(args, masked, keys?.family);
      const paths = pathsOf(args);
      for (const p of paths) {
        const tools = files.get(p) ?? new Set<string>();
        tools.add(c.name);
        files.set(p, tools);
      }
      if (command !== undefined)
        commands.push(`turn ${turn}: ${c.name} \`${shorten(command, chars)}\` → ${outcomeOf(r)}`);
      else if (paths.length === 0) commands.push(`turn ${turn}: ${c.name} → ${outcomeOf(r)}`);
    }
    if (w.a.kind === 'tool') {
      const family = w.family ?? w.a.tool ?? 'tool';
      if (isFailure(w)) {
        const line = firstErrorLine(mask(textOf(w.content)));
        errors.set(family, { line: shorten(line, chars), later: false });
      } else {
        const e = errors.get(family);
        if (e) e.later = true;
      }
    }
  }
  const sections = new Map<SectionKey, string[]>([
    ['requests', requests],
    ['replies', replies],
    ['decisions', decisions],
    ['files', [...files].map(([p, tools]) => `${shorten(p, chars)} (${[...tools].join(', ')})`)],
    ['commands', commands],
    ['errors', [...errors].map(([f, e]) => `${f}: ${e.line}${e.later ? ' (a later run succeeded)' : ''}`)],
    ['questions', questions],
  ]);
  return { sections };
}

function render(header: string, sections: readonly Section[]): string {
  const out = [header];
  for (const key of DISPLAY) {
    const s = sections.find((x) => x.key === key);
    if (!s || (s.lines.length === 0 && s.omitted === 0)) continue;
    // Replies are the first to go and the least to miss: a section that lost them all is left out.
    if (key === 'replies' && s.lines.length === 0) continue;
    out.push(`${s.title}:`);
    const noun = s.nouns[s.omitted === 1 ? 0 : 1];
    if (key === 'earlier' && s.omitted > 0) out.push(`… ${s.omitted} ${noun} left out`);
    for (const l of s.lines) out.push(key === 'earlier' ? l : `- ${l}`);
    if (key !== 'earlier' && s.omitted > 0) out.push(`- … ${s.omitted} more ${noun}`);
  }
  return out.join('\n');
}

/**
 * The text within `cap` tokens (as the context counts it: message overhead included), dropping the
 * least important lines first; undefined when even the header and the "left out" notes do not fit.
 */
function fitText(
  header: string,
  sections: Section[],
  cap: number,
  meter: TokenMeter,
): { text: string; tokens: number; omitted: number } | undefined {
  const cost = (text: string): number => meter.artifact({ content: text });
  let text = render(header, sections);
  let tokens = cost(text);
  while (tokens > cap) {
    // Drop about as many lines as the excess needs (each line's own count), then recount exactly.
    let excess = tokens - cap;
    let progressed = false;
    for (const key of DROP_ORDER) {
      const s = sections.find((x) => x.key === key);
      while (s && s.lines.length > 0 && excess > 0) {
        excess -= Math.max(1, meter.count(s.lines.shift() as string));
        s.omitted++;
        progressed = true;
      }
      if (excess <= 0) break;
    }
    if (!progressed) return undefined;
    text = render(header, sections);
    tokens = cost(text);
  }
  return { text, tokens, omitted: sections.reduce((n, s) => n + s.omitted, 0) };
}

function turnSpan(ids: readonly string[], ws: WorkSet, turns: readonly number[]): string {
  const nums = ids.flatMap((id) => {
    const w = ws.byId.get(id);
    return w ? [turns[w.index] ?? 0] : [];
  });
  if (nums.length === 0) return 'turns';
  const lo = Math.min(...nums);
  const hi = Math.max(...nums);
  return lo === hi ? `turn ${lo}` : `turns ${lo}–${hi}`;
}

function uniqueId(ws: WorkSet, covers: readonly string[]): string {
  const stem = `compaction-${covers[0] ?? ''}-${covers[covers.length - 1] ?? ''}`;
  let id = stem;
  for (let n = 2; ws.byId.has(id); n++) id = `${stem}-${n}`;
  return id;
}

/** What a compaction run works with: the policy's rules, the masker and meter of the stage. */
export interface CompactionContext {
  ws: WorkSet;
  /** The latest compaction summary of the transcript (applyCompactionBase). */
  base: Work | undefined;
  rules: CompactionRules;
  masker: Masker;
  meter: TokenMeter;
}

function droppedForBudget(w: Work): boolean {
  return w.removed?.stage === 'budget' && w.removed.reason === 'budget';
}

/** A base the budget had no room for is still refreshed: it stands for what it covers. */
function refreshable(base: Work | undefined): Work | undefined {
  return base && (isAlive(base) || droppedForBudget(base)) ? base : undefined;
}

/** What a summary describes: user, assistant and tool artifacts nothing protects. */
function compactable(w: Work): boolean {
  return COMPACTABLE.has(w.a.kind) && !isProtected(w);
}

interface Built {
  id: string;
  covers: string[];
  text: string;
  tokens: number;
  omitted: number;
}

/** The summary of `items` (and of the base it refreshes), within `cap` tokens; undefined if none fits. */
function buildSummary(cx: CompactionContext, items: readonly Work[], cap: number): Built | undefined {
  const { ws, masker, meter, rules } = cx;
  const refresh = refreshable(cx.base);
  const turns = turnNumbers(ws.items.map((w) => w.a));
  const mask = (text: string): string => maskString(text, masker, {});
  const index = (id: string): number => ws.byId.get(id)?.index ?? -1;
  const covers = [...new Set([...(refresh?.a.provenance ?? []), ...items.map((w) => w.a.id)])].sort(
    (x, y) => index(x) - index(y),
  );
  const extracted = extract(ws, items, turns, mask, rules.requestChars);
  const sections: Section[] = DISPLAY.map((key) => {
    const [title, one, many] = TITLES[key];
    const earlier = refresh
      ? mask(textOf(refresh.content))
          .replace(HEADER, '')
          .split('\n')
          .filter((l) => l.trim() !== '')
      : [];
    const lines = key === 'earlier' ? earlier : (extracted.sections.get(key) ?? []);
    return { key, title, nouns: [one, many], lines, omitted: 0 };
  });
  const header = `Summary of earlier ${turnSpan(covers, ws, turns)} (${covers.length} artifacts compacted by context-stability${refresh ? `; refreshes ${refresh.a.id}` : ''}):`;
  const fitted = cap > 0 ? fitText(mask(header), sections, cap, meter) : undefined;
  return fitted ? { id: uniqueId(ws, covers), covers, ...fitted } : undefined;
}

/**
 * For the budget stage (budget.ts `reserve`): the tokens a summary of `dropped` would add to the
 * context. A refreshed base already counts as a summary there, so only the growth is asked for.
 */
export function compactionNeed(cx: CompactionContext): (dropped: readonly Work[]) => number {
  return (dropped) => {
    const items = dropped.filter(compactable);
    if (items.length === 0) return 0;
    const built = buildSummary(cx, items, cx.rules.maxTokens);
    if (!built) return 0;
    const base = refreshable(cx.base);
    const baseTokens = base && isAlive(base) ? finalOf(base, cx.masker, cx.meter).tokens : 0;
    return Math.max(0, built.tokens - baseTokens);
  };
}

export interface CompactionOutcome {
  item?: ContextItem;
  log?: CompactionLog;
  /** Why nothing was compacted although the budget dropped conversation artifacts. */
  skipped?: string;
  compacted: number;
}

/**
 * After the budget: the unprotected user, assistant and tool artifacts it dropped for budget become
 * one summary (refreshing the base when there is one), if a summary fits in what is left of the
 * budget (the room the budget held back for it, plus the base's own tokens, which it replaces).
 */
export function applyCompaction(
  cx: CompactionContext,
  scope: ScopeOutcome,
  summaryRules: SummaryRules,
  logs: SummaryLog[],
): CompactionOutcome {
  const { ws, masker, meter, rules } = cx;
  // The budget drops a tool call and its results together (one unit), so every member is here too.
  const candidates = ws.items.filter((w) => droppedForBudget(w) && compactable(w));
  if (candidates.length === 0) return { compacted: 0 };
  const refresh = refreshable(cx.base);
  const used = ws.items.filter(isAlive).reduce((sum, w) => sum + finalOf(w, masker, meter).tokens, 0);
  const freed = refresh && isAlive(refresh) ? finalOf(refresh, masker, meter).tokens : 0;
  const cap = Math.min(rules.maxTokens, rules.budget - used + freed);
  const built = buildSummary(cx, candidates, cap);
  if (!built) {
    return {
      compacted: 0,
      skipped: `no room for a compaction summary of ${candidates.length} artifacts (${Math.max(0, cap)} tokens left in the budget); they stay dropped`,
    };
  }

  // Validated like any summary (summaries.ts): its sources exist, its scope is the current one.
  const turns = turnNumbers(ws.items.map((w) => w.a));
  const currentTurn = turns[turns.length - 1] ?? 0;
  const first = ws.byId.get(built.covers[0] as string);
  const summary: Work = {
    a: {
      id: built.id,
      kind: 'summary',
      content: built.text,
      tags: [COMPACTION_TAG],
      provenance: built.covers,
      created_at: currentTurn,
      source: first?.a.source ?? { file: '', line: 1, column: 1 },
    },
    index: ws.items.length,
    content: built.text,
    toolCalls: undefined,
    protectedBy: [],
    results: [],
    ...(scope.task !== undefined ? { task: scope.task } : {}),
    ...(scope.phase !== undefined ? { phase: scope.phase } : {}),
  };
  const check = validateSummary(summary, ws, scope, summaryRules, turns, currentTurn);
  if (check.status !== 'valid') {
    return {
      compacted: 0,
      skipped: `the compaction summary would not be valid (${check.reasons.join(', ')}); the artifacts stay dropped`,
    };
  }

  // The budget's drop was provisional: the summary stands for these artifacts now.
  for (const w of candidates) w.removed = compactedFate(built.id);
  if (refresh) supersede(refresh, built.id, logs);
  const item: ContextItem = {
    id: built.id,
    kind: 'summary',
    tokens: built.tokens,
    content: built.text,
    line: summary.a.source.line,
  };
  const log: CompactionLog = {
    id: built.id,
    covers: built.covers,
    tokens: built.tokens,
    created_at: currentTurn,
    scope: {
      ...(scope.task !== undefined ? { task: scope.task } : {}),
      ...(scope.phase !== undefined ? { phase: scope.phase } : {}),
    },
    status: check.status,
    lines_left_out: built.omitted,
  };
  if (refresh) log.refreshed_from = refresh.a.id;
  return { item, log, compacted: candidates.length };
}

/**
 * The summary goes first in the `summaries` section: it stands for the oldest turns, and it has no
 * place in the transcript's chronology (the `order` check ranks it before every transcript summary).
 */
export function insertCompaction(
  context: ContextItem[],
  item: ContextItem,
  order: readonly string[],
): ContextItem[] {
  const ranks = sectionRanks(order);
  const rank = ranks.get('summaries') ?? 0;
  const at = context.findIndex((c) => (ranks.get(sectionOf(c.kind)) ?? 0) >= rank);
  const out = [...context];
  out.splice(at === -1 ? out.length : at, 0, item);
  return out;
}
