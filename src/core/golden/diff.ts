// The semantic diff of two goldens (DESIGN §6): which artifacts changed fate and why, the token
// and status deltas, checks that changed, and what caused it (policy or tokenizer). Shown before
// the unified diff because it answers "what does this change do" in a few lines.
import { createTwoFilesPatch, formatPatch } from 'diff';
import type { StructuredPatchHunk } from 'diff';
import type { ContextItem, LedgerEntry } from '../stabilize/types.js';
import type { CheckResult } from '../validate/types.js';
import type { Golden } from './golden.js';
import { stableStringify } from './stable-json.js';

export interface Fate {
  action: string;
  reason: string;
  /** Tokens in the stabilized context (the ledger's `tokens_after`). */
  tokens: number;
}

export interface FateChange {
  id: string;
  line: number;
  /** null: the artifact is not in that golden's ledger. */
  before: Fate | null;
  after: Fate | null;
}

export interface CheckState {
  ok: boolean;
  violations: number;
}

export interface CheckChange {
  name: string;
  before: CheckState | null;
  after: CheckState | null;
}

export interface GoldenDiff {
  /**
   * No drift: what the model would see and every verdict are the same (semanticView). The golden
   * files may still differ in metadata (`metadata`).
   */
  equal: boolean;
  /** e.g. 'policy changed', 'tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0' */
  causes: string[];
  /**
   * What differs outside the compared fields, when the texts differ at all: the causes, then
   * `token counts`, `budget limit`, `bookkeeping` (protection, details, PII counts, lines…).
   * Empty when the goldens are identical.
   */
  metadata: string[];
  /** The first artifact (by transcript line) whose fate or content changed; null if none did. */
  first: { id: string; line: number } | null;
  status: { before: string; after: string } | null;
  tokens: { before: number; after: number; delta: number };
  fates: FateChange[];
  /** In both contexts with the same fate, but the item itself (content, kind, calls…) differs. */
  contentChanged: { id: string; line: number }[];
  checks: CheckChange[];
}

export function diffGoldens(expected: Golden, actual: Golden): GoldenDiff {
  const causes: string[] = [];
  if (expected.policy_hash !== actual.policy_hash) causes.push('policy changed');
  const te = expected.tokenizer;
  const ta = actual.tokenizer;
  if (te.name !== ta.name || te.version !== ta.version) {
    const now = te.name === ta.name ? ta.version : `${ta.name} ${ta.version}`;
    causes.push(`tokenizer changed: ${te.name} ${te.version} → ${now}`);
  }
  const fates = fateChanges(expected.ledger, actual.ledger);
  const contentChanged = contentChanges(expected.context, actual.context);
  // A check the golden predates that passes is no drift: upgrading the tool (a new check) does not
  // turn every golden red. A new check with findings is drift, as any verdict change is.
  const compared = withoutNewPassingChecks(expected, actual);
  const equal = stableStringify(semanticView(expected)) === stableStringify(semanticView(compared));
  const identical = stableStringify(expected) === stableStringify(actual);
  const added = actual.checks.filter((c) => !compared.checks.includes(c)).map((c) => c.name);
  return {
    equal,
    causes,
    metadata: identical
      ? []
      : [
          ...metadataChanges(expected, compared, causes),
          ...(added.length > 0 ? [`checks the golden predates: ${added.join(', ')}`] : []),
        ],
    first: firstChange(fates, contentChanged),
    status: expected.status === actual.status ? null : { before: expected.status, after: actual.status },
    tokens: {
      before: expected.budget.used,
      after: actual.budget.used,
      delta: actual.budget.used - expected.budget.used,
    },
    fates,
    contentChanged,
    checks: checkChanges(expected.checks, compared.checks),
  };
}

/** `actual` without the checks `expected` does not list and that found nothing. */
function withoutNewPassingChecks(expected: Golden, actual: Golden): Golden {
  const known = new Set(expected.checks.map((c) => c.name));
  const checks = actual.checks.filter((c) => known.has(c.name) || c.violations.length > 0);
  return checks.length === actual.checks.length ? actual : { ...actual, checks };
}

/**
 * The part of a golden that drift compares (docs/goldens.md): what the model would see and every
 * verdict. Token counts, the budget limit, line numbers, the policy hash, the tokenizer and the
 * ledger's bookkeeping (stage, detail, protection, PII counts, emit notes) are left out: they
 * change with a policy or tokenizer edit that leaves the context as it was.
 */
export function semanticView(golden: Golden): unknown {
  return {
    status: golden.status,
    // Order matters: it is the order the model reads.
    context: golden.context.map(({ tokens: _tokens, line: _line, ...item }) => item),
    fates: golden.ledger.map((e) => ({
      id: e.id,
      action: e.action,
      reason: e.reason,
      ...(e.duplicate_of !== undefined ? { duplicate_of: e.duplicate_of } : {}),
    })),
    summaries: golden.summaries.map((s) => ({ id: s.id, status: s.status, reasons: s.reasons })),
    checks: golden.checks.map((c) => ({
      name: c.name,
      ok: c.ok,
      severity: c.severity,
      violations: c.violations.map((v) => v.id),
    })),
  };
}

function metadataChanges(expected: Golden, actual: Golden, causes: readonly string[]): string[] {
  const out = [...causes];
  const tokensOf = (g: Golden): unknown => [
    g.budget.used,
    g.context.map((c) => c.tokens),
    g.ledger.map((e) => [e.tokens_before, e.tokens_after]),
  ];
  if (stableStringify(tokensOf(expected)) !== stableStringify(tokensOf(actual))) out.push('token counts');
  if (expected.budget.limit !== actual.budget.limit) out.push('budget limit');
  const rest = (g: Golden): unknown => ({
    ...g,
    policy_hash: '',
    tokenizer: null,
    budget: null,
    context: g.context.map((c) => ({ ...c, tokens: 0 })),
    ledger: g.ledger.map((e) => ({ ...e, tokens_before: 0, tokens_after: 0 })),
  });
  if (stableStringify(rest(expected)) !== stableStringify(rest(actual))) out.push('bookkeeping');
  return out;
}

function firstChange(
  fates: readonly FateChange[],
  content: readonly { id: string; line: number }[],
): { id: string; line: number } | null {
  const all = [...fates.map(({ id, line }) => ({ id, line })), ...content].sort(byLineThenId);
  return all[0] ?? null;
}

function fateOf(entry: LedgerEntry | undefined): Fate | null {
  return entry ? { action: entry.action, reason: entry.reason, tokens: entry.tokens_after } : null;
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  // The first entry of an id wins: the ledger holds one final decision per artifact.
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

function byLineThenId(a: { id: string; line: number }, b: { id: string; line: number }): number {
  if (a.line !== b.line) return a.line - b.line;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function fateChanges(before: readonly LedgerEntry[], after: readonly LedgerEntry[]): FateChange[] {
  const was = byId(before);
  const now = byId(after);
  const changes: FateChange[] = [];
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(id);
    const a = now.get(id);
    const fb = fateOf(b);
    const fa = fateOf(a);
    // A change of token count alone is not a change of fate (a tokenizer update).
    if (fb && fa && fb.action === fa.action && fb.reason === fa.reason) continue;
    changes.push({ id, line: (a ?? b)?.line ?? 0, before: fb, after: fa });
  }
  return changes.sort(byLineThenId);
}

function contentChanges(
  before: readonly ContextItem[],
  after: readonly ContextItem[],
): { id: string; line: number }[] {
  const was = byId(before);
  const changed: { id: string; line: number }[] = [];
  for (const item of byId(after).values()) {
    const old = was.get(item.id);
    // Only what the model would read: token counts and lines are metadata (semanticView).
    if (old && stableStringify({ ...old, tokens: 0, line: 0 }) !== stableStringify({ ...item, tokens: 0, line: 0 })) {
      changed.push({ id: item.id, line: item.line });
    }
  }
  return changed.sort(byLineThenId);
}

function stateOf(check: CheckResult | undefined): CheckState | null {
  return check ? { ok: check.ok, violations: check.violations.length } : null;
}

function checkChanges(before: readonly CheckResult[], after: readonly CheckResult[]): CheckChange[] {
  const was = new Map(before.map((c) => [c.name, c]));
  const now = new Map(after.map((c) => [c.name, c]));
  const changes: CheckChange[] = [];
  // Checks keep the order validate() runs them in; checks that disappeared come last.
  for (const name of new Set([...now.keys(), ...was.keys()])) {
    const b = stateOf(was.get(name));
    const a = stateOf(now.get(name));
    if (b && a && b.ok === a.ok && b.violations === a.violations) continue;
    changes.push({ name, before: b, after: a });
  }
  return changes;
}

/**
 * A unified diff of the stored golden (`a/…`) against the one this run produced (`b/…`), with
 * `context` lines around each change (default 3). No timestamps in the headers, so the output
 * is itself stable. Empty when the texts are equal.
 */
export function unifiedGoldenDiff(path: string, expectedText: string, actualText: string, context = 3): string {
  if (expectedText === actualText) return '';
  const headerOptions = { includeIndex: false, includeUnderline: false, includeFileHeaders: true };
  const names = [`a/${path}`, `b/${path}`] as const;
  // Myers' diff costs (lines × edits): a golden changed on every line (a policy edit that moves
  // every token count) took minutes. Past MAX_EDITS it gives up and the diff is made in one pass.
  const minimal = createTwoFilesPatch(names[0], names[1], expectedText, actualText, 'golden', 'actual', {
    context,
    headerOptions,
    maxEditLength: MAX_EDITS,
  });
  if (minimal !== undefined) return minimal;
  return formatPatch(
    {
      oldFileName: names[0],
      newFileName: names[1],
      oldHeader: 'golden',
      newHeader: 'actual',
      hunks: linearHunks(linesOf(expectedText), linesOf(actualText), context),
    },
    headerOptions,
  );
}

/** Line edits the minimal diff may take; more, and the linear diff is used. */
export const MAX_EDITS = 256;

/** Lines with their line end, so that a last line without one differs from the same with one. */
function linesOf(text: string): string[] {
  const lines = text.split('\n').map((l) => `${l}\n`);
  const last = lines.pop() as string;
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/**
 * The edits of a linear diff: the common first and last lines kept, and the lines between
 * compared by position when both sides have as many (a value changed on many lines, as token
 * counts do), else removed and added whole. Not minimal, always correct.
 */
function linearOps(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: ' ', line }));
  const oldMid = a.slice(head, a.length - tail);
  const newMid = b.slice(head, b.length - tail);
  if (oldMid.length === newMid.length) {
    for (let i = 0; i < oldMid.length; ) {
      if (oldMid[i] === newMid[i]) {
        ops.push({ kind: ' ', line: oldMid[i] as string });
        i++;
        continue;
      }
      let j = i;
      while (j < oldMid.length && oldMid[j] !== newMid[j]) j++;
      for (const line of oldMid.slice(i, j)) ops.push({ kind: '-', line });
      for (const line of newMid.slice(i, j)) ops.push({ kind: '+', line });
      i = j;
    }
  } else {
    for (const line of oldMid) ops.push({ kind: '-', line });
    for (const line of newMid) ops.push({ kind: '+', line });
  }
  for (const line of a.slice(a.length - tail)) ops.push({ kind: ' ', line });
  return ops;
}

/** Hunks of `context` lines around each run of edits, as jsdiff's structuredPatch makes them. */
function linearHunks(a: readonly string[], b: readonly string[], context: number): StructuredPatchHunk[] {
  const ops = linearOps(a, b);
  const hunks: StructuredPatchHunk[] = [];
  let current: StructuredPatchHunk | null = null;
  let oldLine = 1;
  let newLine = 1;
  let lastEdit = -Infinity;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as Op;
    if (op.kind !== ' ') {
      if (current === null || k - lastEdit > 2 * context + 1) {
        // The last hunk ends `context` lines after its last edit; a new one opens `context` lines
        // before this edit (fewer at the top of the file).
        if (current !== null) for (const c of ops.slice(lastEdit + 1, lastEdit + 1 + context)) push(current, c);
        const back = Math.min(context, k);
        current = { oldStart: oldLine - back, oldLines: 0, newStart: newLine - back, newLines: 0, lines: [] };
        for (const c of ops.slice(k - back, k)) push(current, c);
        hunks.push(current);
      } else {
        for (const c of ops.slice(lastEdit + 1, k)) push(current, c);
      }
      push(current, op);
      lastEdit = k;
    }
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  if (current !== null) for (const c of ops.slice(lastEdit + 1, lastEdit + 1 + context)) push(current, c);
  return hunks;
}

function push(hunk: StructuredPatchHunk, op: Op): void {
  const ended = op.line.endsWith('\n');
  hunk.lines.push(`${op.kind}${ended ? op.line.slice(0, -1) : op.line}`);
  if (!ended) hunk.lines.push('\\ No newline at end of file');
  if (op.kind !== '+') hunk.oldLines++;
  if (op.kind !== '-') hunk.newLines++;
}
