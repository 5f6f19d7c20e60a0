// The validation suite (DESIGN §5). It re-derives everything from the input transcript and the
// stabilized context and never trusts the stages' own bookkeeping: token counts are recounted,
// protection and summary validity are recomputed, PII is searched with every built-in detector,
// and the request the context becomes is checked against the target API's rules.
import { isStandaloneOutput } from '../emit/standalone.js';
import type { RE2JS } from 're2js';
import type { EmitFormat } from '../emit/index.js';
import { piiStrategyOf } from '../pii/aliases.js';
import { checkDetectors, detectorConfig } from '../pii/registry.js';
import { replayGuardian } from '../guardian/replay.js';
import type { Policy } from '../policy/schema.js';
import { warningCheckSeverity } from '../policy/schema.js';
import { TokenMeter } from '../stabilize/meter.js';
import type { TokenCache } from '../stabilize/meter.js';
import type { StabilizeResult } from '../stabilize/types.js';
import { scopesOf } from '../stabilize/scope.js';
import type { Scope } from '../stabilize/scope.js';
import { historySources, turnNumbers } from '../stabilize/summaries.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Artifact, Transcript } from '../types.js';
import { checkBudget } from './budget.js';
import { checkFreshResults } from './fresh.js';
import { checkNonempty, checkRecency, checkTask } from './conversation.js';
import { Locator } from './locate.js';
import { checkOrder } from './order.js';
import { checkPii } from './pii.js';
import { checkProtected, isShouldKeep, mustKeep } from './protected.js';
import { checkProvider } from './provider.js';
import { providerApis } from '../emit/provider-rules.js';
import { statusCheck } from './status.js';
import type { CheckResult, ValidateCheckName, Violation } from './types.js';

export interface ValidateOptions {
  policy: Policy;
  tokenizer: Tokenizer;
  rules?: readonly { name: string; re: RE2JS }[];
  cache?: TokenCache;
  /** `--emit`: an API named here is the one the provider check applies (else the policy's target). */
  emit?: EmitFormat;
}

function checkPairing(result: StabilizeResult, where: Locator): Violation[] {
  const out: Violation[] = [];
  const pending = new Map<string, { id: string; line: number }[]>();
  const answered = new Set<string>();
  for (const c of result.context) {
    for (const call of c.tool_calls ?? []) {
      const list = pending.get(call.id) ?? [];
      list.push({ id: c.id, line: c.line });
      pending.set(call.id, list);
    }
    // An output that names no call answers nothing: it is no half of a pair (emit/standalone.ts).
    if (c.kind === 'tool' && !isStandaloneOutput(c)) {
      const list = c.call_id !== undefined ? pending.get(c.call_id) : undefined;
      const owner = list?.shift();
      if (!owner) out.push(where.at(c.id, 'tool result without a call before it in the context'));
      else answered.add(`${owner.id}\u0000${c.call_id}`);
    }
  }
  for (const [callId, list] of pending) {
    for (const owner of list) {
      if (!answered.has(`${owner.id}\u0000${callId}`)) {
        out.push(where.at(owner.id, 'tool call without a result in the context'));
      }
    }
  }
  return out;
}

/** Each artifact's scope after the phase markers before it, and the scope at the end (DESIGN §4 stage 2). */
function scopes(artifacts: readonly Artifact[]): { of: Map<string, Scope>; current: Scope } {
  const { scopes: each, outcome } = scopesOf(artifacts);
  return { of: new Map(artifacts.map((a, i) => [a.id, each[i] ?? {}])), current: outcome };
}

function differs(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a !== b;
}

function checkSummaries(t: Transcript, result: StabilizeResult, policy: Policy, where: Locator): Violation[] {
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
    if (age > ttl) out.push(where.at(c.id, `expired summary kept: age ${age} turns, ttl ${ttl}`));
    const prov = a.provenance ?? [];
    if (prov.length === 0 || prov.some((p) => !kinds.has(p) || p === a.id)) {
      out.push(where.at(c.id, 'summary kept whose provenance is missing'));
    }
    const own = scope.of.get(a.id);
    if (differs(own?.task, scope.current.task) || differs(own?.phase, scope.current.phase)) {
      out.push(where.at(c.id, 'summary kept from another scope than the current one'));
    }
    // Its claimed authority is the role it is delivered with: no higher than its best source.
    const sources = prov.filter((p) => p !== a.id).flatMap((p) => kinds.get(p) ?? []);
    if (a.role !== undefined && rank(a.role) < policy.authority.length && sources.length > 0) {
      if (rank(a.role) < Math.min(...sources.map(rank))) {
        out.push(where.at(c.id, 'summary kept that claims more authority than its sources'));
      }
    }
  }
  return out;
}

function checkLedger(t: Transcript, result: StabilizeResult, where: Locator): Violation[] {
  const out: Violation[] = [];
  const counts = new Map<string, number>();
  for (const e of result.ledger) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
  const inContext = new Set(result.context.map((c) => c.id));
  const removed = new Set(['dropped', 'deduplicated', 'expired']);
  const finalById = new Map(result.ledger.map((e) => [e.id, e]));
  for (const a of t.artifacts) {
    const n = counts.get(a.id) ?? 0;
    if (n !== 1) out.push(where.at(a.id, `has ${n} final ledger decisions; expected exactly one`));
    const e = finalById.get(a.id);
    if (!e) continue;
    const gone = removed.has(e.action) || (e.action === 'collapsed' && e.tokens_after === 0);
    if (gone === inContext.has(a.id)) {
      out.push(
        where.at(
          a.id,
          `ledger says ${e.action} but the artifact is ${inContext.has(a.id) ? '' : 'not '}in the context`,
        ),
      );
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
  const where = new Locator(t);
  const unpaired = new Set([...t.pairing.unpairedResults, ...t.pairing.unpairedCalls].map((u) => u.artifact));
  // Built-in typed detectors whatever the policy enables; digit_run and user rules as it sets them.
  const detectors = checkDetectors(detectorConfig(policy.pii, opts.rules ?? []));
  const sev = (name: keyof Policy['checks']): CheckResult['severity'] =>
    name === 'fresh_results' || name === 'retention'
      ? warningCheckSeverity(policy, name)
      : (policy.checks[name] ?? 'off');
  const run = (
    name: ValidateCheckName,
    severity: CheckResult['severity'],
    f: () => Violation[],
  ): CheckResult => {
    if (severity === 'off') return { name, ok: true, severity, violations: [] };
    const violations = f();
    return { name, ok: violations.length === 0, severity, violations };
  };
  // The must-keep tier only: should-keep evidence and recent turns give way to the budget (stage 9).
  const keep = new Set(
    [...mustKeep(t, policy)].filter(([id, why]) => !unpaired.has(id) && !isShouldKeep(why)).map(([id]) => id),
  );
  return [
    run('budget', sev('budget'), () => checkBudget(t, result, meter, keep, where)),
    run('order', sev('order'), () => checkOrder(result, index, policy.order, where)),
    run('pii', sev('pii'), () =>
      checkPii(
        result,
        detectors,
        policy.pii.allow,
        policy.pii.replacement,
        where,
        piiStrategyOf(policy.pii) === 'block',
      ),
    ),
    run('protected', sev('protected'), () => checkProtected(t, result, policy, unpaired, where)),
    run('pairing', sev('pairing'), () => checkPairing(result, where)),
    run('summaries', sev('summaries'), () => checkSummaries(t, result, policy, where)),
    run('ledger', 'error', () => checkLedger(t, result, where)),
    // Replays host-reported `pressure` through the guardian gate (DESIGN §8); no pressure, no finding.
    run('guardian', sev('guardian'), () => replayGuardian(t, policy.guardian)),
    run('task', sev('task'), () => checkTask(t, result, where)),
    run('recency', sev('recency'), () => checkRecency(t, result, where)),
    run('nonempty', sev('nonempty'), () => checkNonempty(t, result, where)),
    run('provider', sev('provider'), () =>
      checkProvider(t, result, providerApis(t.format, policy.target, opts.emit), where),
    ),
    run('fresh_results', sev('fresh_results'), () => checkFreshResults(t, result, where)),
    statusCheck(result, where),
  ];
}
