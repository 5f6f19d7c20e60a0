// The validation suite (DESIGN §5). It re-derives everything from the input transcript and the
// stabilized context and never trusts the stages' own bookkeeping: token counts are recounted,
// protection and summary validity are recomputed, PII is searched with every built-in detector.
import type { RE2JS } from 're2js';
import { findPii } from '../pii/mask.js';
import { jsonTextLeaves } from '../pii/mask-json.js';
import { builtinDetectors, createDetectors } from '../pii/registry.js';
import type { Detector } from '../pii/types.js';
import { replayGuardian } from '../guardian/replay.js';
import type { Policy } from '../policy/schema.js';
import { sectionOf, sectionRanks } from '../stabilize/order.js';
import { TokenMeter } from '../stabilize/meter.js';
import type { TokenCache } from '../stabilize/meter.js';
import type { ContextItem, StabilizeResult } from '../stabilize/types.js';
import { historySources, turnNumbers } from '../stabilize/summaries.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Artifact, Transcript } from '../types.js';
import type { CheckResult, ValidateCheckName, Violation } from './types.js';

export interface ValidateOptions {
  policy: Policy;
  tokenizer: Tokenizer;
  rules?: readonly { name: string; re: RE2JS }[];
  cache?: TokenCache;
}

function texts(item: Pick<ContextItem, 'content' | 'tool_calls'>): string[] {
  const out: string[] = [];
  if (typeof item.content === 'string') out.push(item.content);
  else for (const p of item.content) if (p.type === 'text' && typeof p.text === 'string') out.push(p.text);
  for (const c of item.tool_calls ?? []) out.push(c.arguments);
  return out;
}

function checkBudget(result: StabilizeResult, meter: TokenMeter): Violation[] {
  let total = 0;
  for (const c of result.context) total += meter.artifact({ content: c.content, tool_calls: c.tool_calls });
  if (total <= result.budget.limit) return [];
  return [
    {
      id: '*',
      line: 1,
      message: `the context needs ${total} tokens, over the budget of ${result.budget.limit}`,
    },
  ];
}

function checkOrder(
  result: StabilizeResult,
  index: Map<string, number>,
  order: readonly string[],
): Violation[] {
  const ranks = sectionRanks(order);
  const out: Violation[] = [];
  let prev: { rank: number; index: number; id: string } | undefined;
  for (const c of result.context) {
    const rank = ranks.get(sectionOf(c.kind)) ?? 0;
    const i = index.get(c.id) ?? -1;
    if (prev && (rank < prev.rank || (rank === prev.rank && i < prev.index))) {
      out.push({
        id: c.id,
        line: c.line,
        message:
          rank < prev.rank
            ? `${c.kind} artifact comes after the ${sectionOf(result.context.find((x) => x.id === prev?.id)?.kind ?? 'user')} section; sections must follow ${order.join(' → ')}`
            : `out of chronological order: it comes after ${prev.id}, which is later in the transcript`,
      });
    }
    prev = { rank, index: i, id: c.id };
  }
  return out;
}

function checkPii(
  result: StabilizeResult,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement: string,
): Violation[] {
  const out: Violation[] = [];
  for (const c of result.context) {
    const types = new Set<string>();
    // JSON texts are searched raw and decoded: an escape (`\u0040`) must not hide a value.
    const all = texts(c).flatMap((t) => (t.includes('\\') ? [t, ...(jsonTextLeaves(t) ?? [])] : [t]));
    for (const t of all) for (const m of findPii(t, detectors, allow, replacement)) types.add(m.type);
    // The type only: the value itself must never reach a report.
    if (types.size > 0)
      out.push({
        id: c.id,
        line: c.line,
        message: `unmasked PII in the context: ${[...types].sort().join(', ')}`,
      });
  }
  return out;
}

/** What must be in the context whatever the budget: DESIGN §4 stage 8, recomputed from the input. */
function mustKeep(t: Transcript, policy: Policy): Map<string, string> {
  const need = new Map<string, string>();
  const main = t.artifacts.filter((a) => a.sidechain !== true);
  let currentTask: string | undefined;
  for (const a of main) if (a.kind === 'phase' && a.scope?.task !== undefined) currentTask = a.scope.task;
  const aggressive = policy.resilience.truncation_mode === 'aggressive';
  // An artifact's task is its own scope, else the one the latest phase marker before it set.
  let markerTask: string | undefined;
  const tasks: (string | undefined)[] = [];
  for (const a of main) {
    if (a.kind === 'phase' && a.scope?.task !== undefined) markerTask = a.scope.task;
    const task = a.scope?.task ?? markerTask;
    tasks.push(task);
    const inScope = task === undefined || currentTask === undefined || task === currentTask;
    if (a.kind === 'system' || a.kind === 'policy') need.set(a.id, a.kind);
    else if (a.pin === true) need.set(a.id, 'pinned');
    else if (a.kind === 'task' && inScope) need.set(a.id, 'task');
    else if (policy.resilience.enabled && !aggressive) {
      const tag = (a.tags ?? []).find((x) => policy.resilience.protected_message_kinds.includes(x));
      if (tag !== undefined && inScope) need.set(a.id, `tag:${tag}`);
    }
  }
  // The recent window is taken after the scope reset (DESIGN §4 stage 2): a message of an earlier
  // task before the last switch to the current one is gone unless pinned or tagged protected, or
  // unless one of its tool results is (a call and its results are one unit).
  let lastSwitch = -1;
  tasks.forEach((task, i) => {
    if (task !== tasks[i - 1] && task === currentTask) lastSwitch = i;
  });
  const stays = (a: Artifact): boolean =>
    a.pin === true ||
    (policy.resilience.enabled &&
      (a.tags ?? []).some((x) => policy.resilience.protected_message_kinds.includes(x)));
  const heldCalls = new Set(main.filter(stays).map((a) => t.pairing.resultToCall[a.id]));
  const reset = (a: Artifact, i: number): boolean =>
    i < lastSwitch && tasks[i] !== undefined && tasks[i] !== currentTask && !stays(a) && !heldCalls.has(a.id);
  const recent = main
    .filter((a, i) => (a.kind === 'user' || a.kind === 'assistant') && !reset(a, i))
    .slice(-policy.keep_recent || main.length);
  if (policy.keep_recent > 0) for (const a of recent) if (!need.has(a.id)) need.set(a.id, 'recent');
  return need;
}

function checkProtected(
  t: Transcript,
  result: StabilizeResult,
  policy: Policy,
  unpaired: Set<string>,
): Violation[] {
  const present = new Map(result.context.map((c) => [c.id, c]));
  const out: Violation[] = [];
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));
  for (const [id, why] of mustKeep(t, policy)) {
    const item = present.get(id);
    // An artifact a provider would reject (unpaired) cannot be sent whatever protects it.
    if (unpaired.has(id)) continue;
    const a = byId.get(id) as Artifact;
    if (!item)
      out.push({
        id,
        line: a.source.line,
        message: `protected artifact (${why}) is missing from the context`,
      });
    else if (item.placeholder)
      out.push({
        id,
        line: a.source.line,
        message: `protected artifact (${why}) was replaced by a placeholder`,
      });
  }
  return out;
}

function checkPairing(result: StabilizeResult): Violation[] {
  const out: Violation[] = [];
  const pending = new Map<string, { id: string; line: number }[]>();
  const answered = new Set<string>();
  for (const c of result.context) {
    for (const call of c.tool_calls ?? []) {
      const list = pending.get(call.id) ?? [];
      list.push({ id: c.id, line: c.line });
      pending.set(call.id, list);
    }
    if (c.kind === 'tool') {
      const list = c.call_id !== undefined ? pending.get(c.call_id) : undefined;
      const owner = list?.shift();
      if (!owner)
        out.push({ id: c.id, line: c.line, message: 'tool result without a call before it in the context' });
      else answered.add(`${owner.id}\u0000${c.call_id}`);
    }
  }
  for (const [callId, list] of pending) {
    for (const owner of list) {
      if (!answered.has(`${owner.id}\u0000${callId}`)) {
        out.push({ id: owner.id, line: owner.line, message: 'tool call without a result in the context' });
      }
    }
  }
  return out;
}

type Scope = { task?: string | undefined; phase?: string | undefined };

/** Each artifact's scope after the phase markers before it, and the scope at the end (DESIGN §4 stage 2). */
function scopes(artifacts: readonly Artifact[]): { of: Map<string, Scope>; current: Scope } {
  const of = new Map<string, Scope>();
  let task: string | undefined;
  let phase: string | undefined;
  for (const a of artifacts) {
    const s = a.scope;
    if (a.kind === 'phase' && s && (s.task !== undefined || s.phase !== undefined)) {
      // A marker naming a task states the whole scope (its phase, or none), as in stabilize/scope.ts.
      if (s.task !== undefined) phase = undefined;
      task = s.task ?? task;
      phase = s.phase ?? phase;
    }
    of.set(a.id, { task: s?.task ?? task, phase: s?.phase ?? phase });
  }
  return { of, current: { task, phase } };
}

function differs(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a !== b;
}

function checkSummaries(t: Transcript, result: StabilizeResult, policy: Policy): Violation[] {
  const turns = turnNumbers(t.artifacts);
  const current = turns[turns.length - 1] ?? 0;
  // Sources a stabilized context left out count as existing (`meta.history`, emit/native.ts).
  const kinds = new Map([...historySources(t.meta), ...t.artifacts.map((a) => [a.id, a.kind] as const)]);
  const index = new Map(t.artifacts.map((a, i) => [a.id, i]));
  const scope = scopes(t.artifacts);
  const rank = (kind: string): number => {
    const i = policy.authority.indexOf(kind as Policy['authority'][number]);
    return i === -1 ? policy.authority.length : i;
  };
  const out: Violation[] = [];
  for (const c of result.context) {
    if (c.kind !== 'summary') continue;
    const a = t.artifacts[index.get(c.id) ?? -1];
    if (!a) continue;
    const ttl = a.ttl ?? policy.summaries.ttl;
    const age = current - (a.created_at ?? turns[index.get(c.id) ?? 0] ?? 0);
    if (age > ttl)
      out.push({ id: c.id, line: c.line, message: `expired summary kept: age ${age} turns, ttl ${ttl}` });
    const prov = a.provenance ?? [];
    if (prov.length === 0 || prov.some((p) => !kinds.has(p) || p === a.id)) {
      out.push({ id: c.id, line: c.line, message: 'summary kept whose provenance is missing' });
    }
    const own = scope.of.get(a.id);
    if (differs(own?.task, scope.current.task) || differs(own?.phase, scope.current.phase)) {
      out.push({ id: c.id, line: c.line, message: 'summary kept from another scope than the current one' });
    }
    // Its claimed authority is the role it is delivered with: no higher than its best source.
    const sources = prov.filter((p) => p !== a.id).flatMap((p) => kinds.get(p) ?? []);
    if (a.role !== undefined && rank(a.role) < policy.authority.length && sources.length > 0) {
      if (rank(a.role) < Math.min(...sources.map(rank))) {
        out.push({
          id: c.id,
          line: c.line,
          message: 'summary kept that claims more authority than its sources',
        });
      }
    }
  }
  return out;
}

function checkLedger(t: Transcript, result: StabilizeResult): Violation[] {
  const out: Violation[] = [];
  const counts = new Map<string, number>();
  for (const e of result.ledger) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
  const inContext = new Set(result.context.map((c) => c.id));
  const removed = new Set(['dropped', 'deduplicated', 'expired']);
  const finalById = new Map(result.ledger.map((e) => [e.id, e]));
  for (const a of t.artifacts) {
    const n = counts.get(a.id) ?? 0;
    if (n !== 1)
      out.push({
        id: a.id,
        line: a.source.line,
        message: `has ${n} final ledger decisions; expected exactly one`,
      });
    const e = finalById.get(a.id);
    if (!e) continue;
    const gone = removed.has(e.action) || (e.action === 'collapsed' && e.tokens_after === 0);
    if (gone === inContext.has(a.id)) {
      out.push({
        id: a.id,
        line: a.source.line,
        message: `ledger says ${e.action} but the artifact is ${inContext.has(a.id) ? '' : 'not '}in the context`,
      });
    }
  }
  const known = new Set(t.artifacts.map((a) => a.id));
  for (const id of counts.keys())
    if (!known.has(id))
      out.push({ id, line: 1, message: 'ledger entry for an artifact that is not in the transcript' });
  return out;
}

export function validateResult(t: Transcript, result: StabilizeResult, opts: ValidateOptions): CheckResult[] {
  const { policy } = opts;
  const meter = new TokenMeter(opts.tokenizer, policy, opts.cache);
  const index = new Map(t.artifacts.map((a, i) => [a.id, i]));
  const unpaired = new Set([...t.pairing.unpairedResults, ...t.pairing.unpairedCalls].map((u) => u.artifact));
  // Built-in typed detectors whatever the policy enables; digit_run and user rules as it sets them.
  const detectors = [
    ...builtinDetectors(),
    ...createDetectors({ detectors: [], digit_run: policy.pii.digit_run, rules: opts.rules ?? [] }),
  ];
  const sev = (name: keyof Policy['checks']): CheckResult['severity'] => policy.checks[name];
  const run = (
    name: ValidateCheckName,
    severity: CheckResult['severity'],
    f: () => Violation[],
  ): CheckResult => {
    if (severity === 'off') return { name, ok: true, severity, violations: [] };
    const violations = f();
    return { name, ok: violations.length === 0, severity, violations };
  };
  return [
    run('budget', sev('budget'), () => checkBudget(result, meter)),
    run('order', sev('order'), () => checkOrder(result, index, policy.order)),
    run('pii', sev('pii'), () => checkPii(result, detectors, policy.pii.allow, policy.pii.replacement)),
    run('protected', sev('protected'), () => checkProtected(t, result, policy, unpaired)),
    run('pairing', sev('pairing'), () => checkPairing(result)),
    run('summaries', sev('summaries'), () => checkSummaries(t, result, policy)),
    run('ledger', 'error', () => checkLedger(t, result)),
    // Replays host-reported `pressure` through the guardian gate (DESIGN §8); no pressure, no finding.
    run('guardian', sev('guardian'), () => replayGuardian(t, policy.guardian)),
  ];
}
