// Context pressure measured from a stabilizer run, for the gate (seed 003: "a numeric
// context-pressure value in range 0.0 to 1.0 before each major action", host-owned, never guessed
// from characters). A stabilizer that trims keeps every context under its budget, so "context
// tokens ÷ budget" sits near 1.0 once a session is long and would halt every trimming agent. What
// trimming cannot make room for is the must-keep tier (system and policy, the task statement, the
// latest request, scope markers, the open tool loop, pinned artifacts) and the summaries standing
// for what was already cut: when that alone fills the budget, the agent is about to work with a
// context that no longer holds what it needs. So pressure = must-keep tokens ÷ budget, and 1.0 when
// the run escalated (the policy could not be honoured at all).
import { MUST_KEEP_PROTECTIONS } from '../stabilize/fit.js';
import type { LedgerEntry, StabilizeResult } from '../stabilize/types.js';
import { pressureLevel } from './gate.js';
import type { GuardianThresholds, PressureLevel } from './gate.js';

export interface ContextPressure {
  /** 0.0–1.0, rounded to 3 decimals: must-keep tokens ÷ budget, 1 when escalated. */
  value: number;
  /** The value against the thresholds in force (the level of the rounded value). */
  level: PressureLevel;
  /** Tokens of the must-keep tier and the kept summaries (a must-keep artifact cut to an excerpt counts whole). */
  mustKeepTokens: number;
  /** The policy's budget (result.budget.limit). */
  budget: number;
  /** The run escalated: the value is 1 whatever the tokens. */
  escalated: boolean;
}

/** Own protections: a call's `pair:<id>` says only that it carries a protected result. */
function own(entry: LedgerEntry | undefined): string[] {
  return (entry?.protected_by ?? []).filter((p) => !p.startsWith('pair:'));
}

function mustOwn(entry: LedgerEntry | undefined): boolean {
  return own(entry).some((p) => MUST_KEEP_PROTECTIONS.has(p));
}

/**
 * The must-keep tier as the stabilizer's budget stage sees it (fit.ts isMustKeep): an artifact
 * with a must-keep protection of its own, or the call of a must-keep result; plus every summary in
 * the context (history already compacted: it cannot be trimmed further without losing it).
 */
export function mustKeepTokens(result: StabilizeResult): number {
  const byId = new Map(result.ledger.map((e) => [e.id, e]));
  let sum = 0;
  for (const item of result.context) {
    const entry = byId.get(item.id);
    const must =
      item.kind === 'summary' ||
      mustOwn(entry) ||
      (entry?.protected_by ?? []).some((p) => p.startsWith('pair:') && mustOwn(byId.get(p.slice(5))));
    if (!must) continue;
    // Cut to an excerpt to fit the budget (the last resort before escalating): what it needs is its
    // whole size, which is what tells the host that the budget no longer holds it.
    const cut = entry?.action === 'excerpted' && entry.reason === 'excerpt';
    sum += cut ? (entry.tokens_before ?? item.tokens) : item.tokens;
  }
  return sum;
}

/** The pressure of one stabilizer run against `thresholds` (assumed valid: gate.ts thresholdProblems). */
export function contextPressure(result: StabilizeResult, thresholds: GuardianThresholds): ContextPressure {
  const tokens = mustKeepTokens(result);
  const budget = result.budget.limit;
  const escalated = result.status === 'escalated';
  const raw = escalated ? 1 : budget > 0 ? tokens / budget : tokens > 0 ? 1 : 0;
  const value = Math.round(Math.min(1, Math.max(0, raw)) * 1000) / 1000;
  return {
    value,
    level: pressureLevel(value, thresholds),
    mustKeepTokens: tokens,
    budget,
    escalated,
  };
}
