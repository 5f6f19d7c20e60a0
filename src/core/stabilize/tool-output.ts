// Stage 5 (tool output): JSON outputs of unprotected tools are masked down to `keep_fields`
// (seed 000: "keep result/status/error only"), and unprotected outputs still over `max_tokens` leave
// the context (seed 001, scenario 3) without orphaning their call.
import { parseJsonText } from '../json/text.js';
import type { Final } from './finalize.js';
import { isExcerpt } from './excerpt.js';
import { cutTo } from './fit.js';
import type { TokenMeter } from './meter.js';
import { isCompacted } from './collapse.js';
import type { Work, WorkSet } from './work.js';
import { isAlive, isPlaceholder, isProtected, removeResult, textOf } from './work.js';

export interface ToolOutputRules {
  maxTokens: number;
  keepFields: readonly string[];
  protectedTools: readonly string[];
  /**
   * Which outputs the limit may cut (issue 27): only older ones, and only when the history does not
   * fit the budget. The open tool loop's results are never cut here, and with room to spare nothing is.
   */
  mayCut: (w: Work) => boolean;
  /**
   * An unprotected output that masking cannot bring under the limit is dropped only when it is over
   * this many tokens too (a step of the stable cut: what a re-cut frees): one that size pushes the
   * conversation out. A smaller one stays whole and leaves with its step of history, so the ids and
   * paths in it stay available as long as the naive trim would keep them.
   */
  dropOver?: number;
}

export interface ToolOutputCounts {
  fieldMasked: number;
  dropped: number;
  excerpted: number;
}

function pick(
  value: unknown,
  keep: readonly string[],
): { value: unknown; removed: number; kept: number } | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    if (!value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) return null;
    let removed = 0;
    let kept = 0;
    const items = value.map((v) => {
      const p = pick(v, keep);
      removed += p?.removed ?? 0;
      kept += p?.kept ?? 0;
      return p?.value ?? v;
    });
    return { value: items, removed, kept };
  }
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let removed = 0;
  let kept = 0;
  for (const key of Object.keys(obj)) {
    if (keep.includes(key)) {
      out[key] = obj[key];
      kept++;
    } else removed++;
  }
  return { value: out, removed, kept };
}

/** The output masked to `keep`, or null when it is not a JSON object (or array of objects) or nothing goes. */
export function maskFields(
  text: string,
  keep: readonly string[],
): { text: string; removed: number; kept: number } | null {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  let parsed: unknown;
  try {
    parsed = parseJsonText(t);
  } catch {
    return null;
  }
  const picked = pick(parsed, keep);
  if (!picked || picked.removed === 0) return null;
  return { text: JSON.stringify(picked.value), removed: picked.removed, kept: picked.kept };
}

/**
 * Masking to `keep_fields` is the first resort for a verbose JSON output (seed 000: "mask tool logs"):
 * a small output is left whole, and a mask that keeps none of the fields is no better than a drop.
 * Sizes are those of the text as shown, PII masked (`shown`): stage 4 comes before stage 5, and the
 * same output masked up front must get the same decision.
 */
export function applyToolOutput(
  ws: WorkSet,
  rules: ToolOutputRules,
  meter: TokenMeter,
  shown: (text: string) => string,
  tokensOf: (w: Work) => Final,
): ToolOutputCounts {
  const counts: ToolOutputCounts = { fieldMasked: 0, dropped: 0, excerpted: 0 };
  for (const w of ws.items) {
    if (w.a.kind !== 'tool' || !isAlive(w) || isCompacted(w) || isPlaceholder(w) || !rules.mayCut(w))
      continue;
    if (!meter.exceeds(shown(textOf(w.content)), rules.maxTokens)) continue;
    if (isProtected(w)) {
      // An excerpt already (a stabilized context read again) stays as it is.
      if (isExcerpt(textOf(w.content))) continue;
      // Protected evidence over the limit stays as an excerpt of the limit's size (seed 004
      // scenario 3: a 12,800-token query result must not push the conversation out).
      if (excerptOutput(w, rules.maxTokens, tokensOf, meter)) counts.excerpted++;
      continue;
    }
    const protectedTool = w.a.tool !== undefined && rules.protectedTools.includes(w.a.tool);
    const masked =
      !protectedTool && typeof w.content === 'string' ? maskFields(w.content, rules.keepFields) : null;
    if (masked && masked.kept > 0 && !meter.exceeds(shown(masked.text), rules.maxTokens)) {
      w.content = masked.text;
      w.changed = {
        stage: 'tool_output',
        action: 'masked',
        reason: 'tool_output_fields',
        detail: `verbose JSON output masked to ${rules.keepFields.join(', ')} (${masked.removed} fields removed)`,
      };
      counts.fieldMasked++;
      continue;
    }
    if (rules.dropOver !== undefined && !meter.exceeds(shown(textOf(w.content)), rules.dropOver)) continue;
    removeResult(w, {
      stage: 'tool_output',
      action: 'dropped',
      reason: 'verbose_tool_output',
      detail: `over tool_output.max_tokens (${rules.maxTokens})${masked && masked.kept > 0 ? ' even when masked to keep_fields' : ''}`,
    });
    counts.dropped++;
  }
  return counts;
}

/** A protected output's text cut to `maxTokens` (the text alone, as the limit is measured). */
function excerptOutput(w: Work, maxTokens: number, tokensOf: (w: Work) => Final, meter: TokenMeter): boolean {
  return cutTo(
    w,
    { text: maxTokens },
    'tool_output',
    (why, omitted) =>
      `protected (${why}) output over tool_output.max_tokens (${maxTokens}): cut to its head and tail, ${omitted} left out`,
    tokensOf,
    meter,
  );
}
