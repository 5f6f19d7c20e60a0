// The stabilizer: ten stages in the order of DESIGN §4, each recording its decisions. Pure: the same
// transcript, policy and tokenizer give a byte-identical result.
import type { RE2JS } from 're2js';
import type { EmitFormat } from '../emit/index.js';
import { PiiKeyMissingError, aliasOf, piiStrategyOf } from '../pii/aliases.js';
import type { AliasSettings } from '../pii/aliases.js';
import { checkDetectors, createDetectors, detectorConfig } from '../pii/registry.js';
import { HASH_PLACEHOLDER, NUMBER_PLACEHOLDER, isPerValue } from '../pii/template.js';
import type { Policy } from '../policy/schema.js';
import { DEFAULT_POLICY } from '../policy/default.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Transcript } from '../types.js';
import { applyBudget } from './budget.js';
import { survivesTaskSwitch } from '../scope/task.js';
import { applyCollapse } from './collapse.js';
import { applyCompaction, applyCompactionBase, compactionNeed, insertCompaction } from './compaction.js';
import type { CompactionContext, CompactionOutcome } from './compaction.js';
import { SuffixDedup, applySuperseded } from './dedup.js';
import type { Masker } from './finalize.js';
import { finalOf, maskString, numberValues } from './finalize.js';
import { ledgerEntry } from './ledger.js';
import type { StabilizeMemo } from './memo.js';
import type { TokenCache } from './meter.js';
import { TokenMeter } from './meter.js';
import { normalizeFates } from './normalize.js';
import { orderItems } from './order.js';
import { blockedPiiEvent, unmaskedPiiEvent, verdictEvents } from './verdict.js';
import type { PiiSearch } from './verdict.js';
import { sanitizeTranscript } from '../pii/sanitize-transcript.js';
import { dropThinkingPii } from './thinking.js';
import { emitApis, emitEffects } from '../emit/notes.js';
import { emitOptionsOf } from '../emit/repair.js';
import { computeProtection, recentWindowStart } from './protect.js';
import { historyPositions, overBudget } from './pressure.js';
import { planCut } from './cut-plan.js';
import { isMustKeep } from './fit.js';
import { contentsOnlyTools } from './outcome.js';
import { applyScopeReset, assignScopes } from './scope.js';
import { applySummaries, historySources } from './summaries.js';
import { applyToolOutput } from './tool-output.js';
import type { ContextItem, EventLevel, StabilizeEvent, StabilizeResult, Status } from './types.js';
import type { Work, WorkSet } from './work.js';
import { buildWork, isAlive, textOf } from './work.js';

/** Stages whose removals hold whatever the budget: those artifacts are not part of the history's size. */
const STRUCTURAL = new Set(['normalize', 'scope', 'summaries']);

export interface StabilizeOptions {
  policy: Policy;
  tokenizer: Tokenizer;
  /** Compiled `pii.rules` (re2js). */
  rules?: readonly { name: string; re: RE2JS }[];
  /** Reuse across calls to count each distinct text once. */
  cache?: TokenCache;
  /**
   * A session's memo (memo.ts): token counts, masked texts and dedup features of earlier calls.
   * Same result, lower cost; it supersedes `cache`.
   */
  memo?: StabilizeMemo;
  /** The format the context will be written in (`--emit`); it overrides `policy.target` for the verdict. */
  emit?: EmitFormat;
  /**
   * Only the context and the ledger's decisions are read (the retention replay, once per replayed
   * call): emit notes, events and the verdict are not made, so `status` leaves the verdict out.
   */
  decisionsOnly?: boolean;
  /**
   * The key of `pii.strategy: hash` (HMAC-SHA256 of each value): given by the host, never part of
   * the policy. A policy that hashes throws PiiKeyMissingError without it.
   */
  piiKey?: string;
}

const VISIBLE: Record<Policy['resilience']['notification_level'], ReadonlySet<EventLevel>> = {
  quiet: new Set(['safety']),
  normal: new Set(['safety', 'major']),
  verbose: new Set(['safety', 'major', 'detail']),
};

function major(ws: WorkSet, code: string, count: number, message: string): void {
  if (count > 0) ws.events.push({ level: 'major', code, message });
}

/**
 * The policy's masker. Under a numbered template `aliases` is the numbering table it writes to (a
 * fresh one when absent); under a hashed one `key` is the hash key (docs/pii.md).
 */
export function createMasker(
  policy: Policy,
  rules: readonly { name: string; re: RE2JS }[] = [],
  aliases: AliasSettings = {},
): Masker {
  const alias = aliasOf(policy.pii.replacement, aliases);
  return {
    detectors: createDetectors(detectorConfig(policy.pii, rules)),
    replacement: policy.pii.replacement,
    allow: policy.pii.allow,
    ...(alias ? { alias } : {}),
  };
}

/** What the `pii` check searches with (verdict.ts): every built-in typed detector and the policy's own rules. */
export function piiSearchOf(policy: Policy, rules: readonly { name: string; re: RE2JS }[] = []): PiiSearch {
  return {
    detectors: checkDetectors(detectorConfig(policy.pii, rules)),
    allow: policy.pii.allow,
    replacement: policy.pii.replacement,
  };
}

/**
 * The transcript as every output may show it: PII gone from ids, names, tags, scopes, provenance and
 * meta (sanitize-transcript.ts). stabilizeTranscript applies it itself; a caller that shows the
 * transcript next to the result (lines, `inspect`, `--emit native`) applies it too, and gets the
 * same aliases.
 */
export function sanitizeForPolicy(
  transcript: Transcript,
  policy: Policy,
  rules: readonly { name: string; re: RE2JS }[] = [],
): Transcript {
  return sanitizeTranscript(transcript, piiSearchOf(policy, rules));
}

export function stabilizeTranscript(input: Transcript, opts: StabilizeOptions): StabilizeResult {
  const { policy } = opts;
  const search = piiSearchOf(policy, opts.rules);
  const transcript = sanitizeTranscript(input, search);
  const res = policy.resilience;
  const memo = opts.memo?.for(policy);
  const meter = new TokenMeter(
    opts.tokenizer,
    policy,
    memo?.tokens ?? opts.cache,
    memo?.tokensOver,
    memo?.derived,
  );
  const template = policy.pii.replacement;
  if (template.includes(HASH_PLACEHOLDER) && !opts.piiKey) throw new PiiKeyMissingError();
  // Masked texts hold the aliases of one numbering table: the session's memo keeps both, a run
  // without one gets its own (and a local memo, so that what the numbering pass masked is reused).
  const masker: Masker = {
    ...createMasker(policy, opts.rules, { aliases: memo?.aliases, key: opts.piiKey }),
    ...(memo ? { memo: memo.masked } : isPerValue(template) ? { memo: new Map() } : {}),
  };
  // Numbers go by first occurrence over the whole transcript (artifact order, then position), not
  // by the order the lazy stages happen to mask in: every artifact is masked once, in order, first.
  if (template.includes(NUMBER_PLACEHOLDER)) numberValues(transcript.artifacts, masker);
  const ws = buildWork(transcript, (text) => maskString(text, masker, {}));
  let status: Status = 'ok';

  // 1. normalize
  const norm = normalizeFates(ws, transcript.pairing);
  major(
    ws,
    'unpaired',
    norm.unpairedCalls + norm.unpairedResults,
    `removed ${norm.unpairedCalls} tool calls without results and ${norm.unpairedResults} results without calls`,
  );
  major(ws, 'sidechain', norm.sidechain, `left out ${norm.sidechain} side-chain records`);
  major(
    ws,
    'off_chain',
    norm.offChain,
    `left out ${norm.offChain} records of an abandoned branch or before a compaction boundary`,
  );

  // 2. scope
  const scope = assignScopes(ws);
  // What a task switch never drops: the latest request and a first-user-message task statement.
  const switchSurvivors = survivesTaskSwitch(transcript.artifacts);
  if (scope.ambiguous) {
    status = 'escalated';
    ws.events.push({
      level: 'safety',
      code: 'scope_ambiguous',
      message: `scope reset is ambiguous: ${scope.ambiguous}`,
    });
  } else {
    // Tags protect only while resilience is enabled (protect.ts); so they save from a reset only then.
    const n = applyScopeReset(ws, scope, res.enabled ? res.protected_message_kinds : [], switchSurvivors);
    major(
      ws,
      'scope_reset',
      n,
      `scope reset to task "${scope.task ?? ''}" dropped ${n} artifacts of earlier tasks`,
    );
  }

  // 3. summaries
  const summaries = applySummaries(ws, scope, {
    ttl: policy.summaries.ttl,
    authority: policy.authority,
    history: historySources(transcript.meta),
  });
  for (const s of summaries) {
    if (s.status !== 'valid') {
      ws.events.push({
        level: 'major',
        code: `summary_${s.status}`,
        message: `summary ${s.id} is ${s.status}: ${s.reasons.join(', ')}`,
        id: s.id,
      });
    }
  }

  // 4. pii: applied lazily to what can reach the context (finalize.ts); the result is the same.
  // 8. protect is computed here, because stages 5-7 may only touch unprotected artifacts.
  computeProtection(ws, {
    enabled: res.enabled,
    protectedTools: res.protected_tools,
    protectedKinds: res.protected_message_kinds,
    keepRecent: policy.keep_recent,
  });

  // A protected tool whose results are all file or document contents protects nothing (outcome.ts):
  // say so, since the policy author meant it to. The built-in list names read tools on purpose (a
  // failed read is an outcome), so only the tools a policy adds are reported.
  if (res.enabled) {
    const builtIn = new Set(DEFAULT_POLICY.resilience.protected_tools);
    const added = res.protected_tools.filter((t) => !builtIn.has(t));
    for (const tool of contentsOnlyTools(ws, added)) {
      ws.events.push({
        level: 'major',
        code: 'policy',
        message: `resilience.protected_tools lists ${tool}, but its results are file or document contents, not command outcomes: they compete on budget like any other output`,
      });
    }
  }

  // 5. tool output: older outputs over the limit, only when the history does not fit (issue 27).
  const pressure = overBudget(ws, policy.budget, (w) => finalOf(w, masker, meter).tokens);
  const recentStart = recentWindowStart(ws, policy.keep_recent);
  // The stable cut's grid (budget.ts): each artifact's start in tokens of the history as recorded,
  // masked, so a recording masked when written cuts where the live session did. Only under pressure.
  const stablePositions =
    pressure && policy.stable_prefix.enabled
      ? historyPositions(ws, (w) => finalOf(w, masker, meter).tokens)
      : [];
  const stableStep = Math.max(1, Math.floor(policy.budget * (1 - policy.stable_prefix.low_water)));
  // An older output larger than the whole budget can never go out whole (seed 004 scenario 3): it is
  // cut at once, wherever it is, and the cut plan does not count it, so it never pushes the
  // conversation before it out.
  const huge = (w: Work): boolean =>
    pressure &&
    w.a.kind === 'tool' &&
    !w.protectedBy.includes('open_loop') &&
    stablePositions.length > 0 &&
    (stablePositions[w.index + 1] ?? 0) - (stablePositions[w.index] ?? 0) > policy.budget;
  const plan =
    stablePositions.length > 0
      ? planCut({
          positions: stablePositions,
          must: ws.items.map(isMustKeep),
          out: ws.items.map((w) => STRUCTURAL.has(w.removed?.stage ?? '') || huge(w)),
          budget: policy.budget,
          step: stableStep,
        })
      : undefined;
  // Cleanup (older verbose outputs, stale results, copies) only among what came before the freeze.
  const freeze = plan ? plan.freeze : ws.items.length;
  // Older than the recent window as it is now: an output leaves it when a new turn starts.
  const tool = applyToolOutput(
    ws,
    {
      maxTokens: policy.tool_output.max_tokens,
      keepFields: policy.tool_output.keep_fields,
      protectedTools: res.protected_tools,
      ...(plan ? { dropOver: stableStep } : {}),
      mayCut: (w) =>
        huge(w) ||
        (pressure && w.index < freeze && w.index < recentStart && !w.protectedBy.includes('open_loop')),
    },
    meter,
    (text) => maskString(text, masker, {}),
    (w) => finalOf(w, masker, meter),
  );
  major(
    ws,
    'tool_output_masked',
    tool.fieldMasked,
    `masked ${tool.fieldMasked} JSON tool outputs to ${policy.tool_output.keep_fields.join(', ')}`,
  );
  major(
    ws,
    'tool_output_excerpted',
    tool.excerpted,
    `cut ${tool.excerpted} protected tool outputs over ${policy.tool_output.max_tokens} tokens to excerpts of their head and tail`,
  );
  major(
    ws,
    'verbose_tool_output',
    tool.dropped,
    `dropped ${tool.dropped} tool outputs over ${policy.tool_output.max_tokens} tokens`,
  );

  // 6. superseded results; duplicates are compared over what can still reach the context, as the
  // budget stage widens it (dedup.ts, SuffixDedup).
  // With room to spare the history goes out unchanged (issue 27): no stale result or copy is removed.
  const superseded = res.enabled && pressure ? applySuperseded(ws, freeze) : 0;
  major(
    ws,
    'superseded',
    superseded,
    `dropped ${superseded} results superseded by a later run of the same command`,
  );
  const dedup =
    policy.dedup.enabled && pressure
      ? new SuffixDedup(
          ws,
          policy.dedup.similarity,
          (w) => textOf(finalOf(w, masker, meter).content),
          memo?.dedup,
          freeze,
        )
      : undefined;

  // 7. collapse
  if (res.enabled && res.truncation_mode === 'aggressive') {
    const n = applyCollapse(ws, (text) => maskString(text, masker, {}));
    major(ws, 'retry_collapse', n, `collapsed ${n} failed retries`);
    // A call of an earlier task stayed only for its protected result; once that result is collapsed,
    // the reset applies to it as to the rest of that task (stabilizing again would drop it).
    if (!scope.ambiguous) {
      const late = applyScopeReset(ws, scope, res.protected_message_kinds, switchSurvivors);
      major(
        ws,
        'scope_reset',
        late,
        `dropped ${late} artifacts of earlier tasks whose protected results were collapsed`,
      );
    }
  }

  // Compaction (docs/compaction.md): a compaction summary in the transcript stands for what it covers,
  // and the budget holds room back for a new or refreshed one when the conversation does not fit.
  const compaction: CompactionContext | undefined =
    policy.compaction?.enabled === true
      ? {
          ws,
          base: applyCompactionBase(ws, summaries),
          rules: {
            budget: policy.budget,
            maxTokens: policy.compaction.max_tokens,
            requestChars: policy.compaction.request_chars,
          },
          masker,
          meter,
        }
      : undefined;

  // 9. budget
  const budget = applyBudget(
    ws,
    {
      budget: policy.budget,
      aggressive: res.enabled && res.truncation_mode === 'aggressive',
      keepRecent: policy.keep_recent,
      maxTokens: policy.tool_output.max_tokens,
      ...(compaction ? { reserve: compactionNeed(compaction) } : {}),
      ...(policy.stable_prefix.enabled
        ? {
            stableStep,
            positions: stablePositions,
          }
        : {}),
    },
    masker,
    meter,
    dedup,
  );
  // The budget's drops of older turns become one summary, when it fits (compaction.ts). Before the
  // thinking blocks leave: that only shrinks what is kept, so the room it counts is never too large.
  let compacted: CompactionOutcome | undefined;
  if (compaction) {
    compacted = applyCompaction(
      compaction,
      scope,
      { ttl: policy.summaries.ttl, authority: policy.authority, history: historySources(transcript.meta) },
      summaries,
    );
    if (compacted.log) {
      const log = compacted.log;
      ws.events.push({
        level: 'major',
        code: log.refreshed_from ? 'compaction_refreshed' : 'compaction',
        message: `compacted ${compacted.compacted} artifacts into ${log.id} (${log.tokens} tokens${log.refreshed_from ? `, refreshing ${log.refreshed_from}` : ''})`,
        id: log.id,
      });
    } else if (compacted.skipped) {
      ws.events.push({ level: 'major', code: 'compaction_skipped', message: compacted.skipped });
    }
  }

  major(
    ws,
    'deduplicated',
    dedup?.removed ?? 0,
    `removed ${dedup?.removed ?? 0} duplicate or near-duplicate artifacts`,
  );
  if (budget.status !== 'ok' && status === 'ok') status = budget.status;
  if (budget.status === 'escalated') status = 'escalated';
  major(
    ws,
    'aggressive_chatter',
    budget.chatter,
    `dropped ${budget.chatter} old assistant messages (aggressive mode)`,
  );
  const budgetDropped = budget.dropped - (compacted?.compacted ?? 0);
  major(
    ws,
    'budget',
    budgetDropped,
    `dropped ${budgetDropped} artifacts that did not fit the budget of ${policy.budget} tokens`,
  );
  major(
    ws,
    'placeholders',
    budget.placeholders,
    `replaced ${budget.placeholders} results in protected units by placeholders to fit the budget`,
  );
  major(
    ws,
    'degraded',
    budget.degraded,
    `dropped ${budget.degraded} should-keep artifacts (oldest evidence first) so that what must be kept fits the budget`,
  );
  major(
    ws,
    'excerpted',
    budget.excerpted,
    `cut ${budget.excerpted} protected artifacts to excerpts of their head and tail to fit the budget`,
  );

  // Thinking blocks that hold PII leave where the API allows it (thinking.ts): part of stage 4,
  // done once the budget has decided what stays, because it depends on which turn is the last.
  const thinking = dropThinkingPii(ws, masker);
  major(ws, 'pii_thinking', thinking.dropped, `left out ${thinking.dropped} thinking blocks holding PII`);
  if (thinking.unmaskable.length > 0) {
    status = 'escalated';
    ws.events.push({
      level: 'safety',
      code: 'pii_unmaskable',
      message: `the thinking of the open tool loop holds PII: a signed block can be neither masked nor left out there (the API wants it back unchanged)`,
      id: thinking.unmaskable[0] as string,
    });
  }

  // 10. order
  const kept = orderItems(
    ws.items.filter(isAlive).map((w) => ({ w, kind: w.a.kind, index: w.index })),
    policy.order,
  );
  let context: ContextItem[] = kept.map(({ w }) => {
    const f = finalOf(w, masker, meter);
    const item: ContextItem = {
      id: w.a.id,
      kind: w.a.kind,
      tokens: f.tokens,
      content: f.content,
      line: w.a.source.line,
    };
    if (w.a.role !== undefined) item.role = w.a.role;
    if (w.a.tool !== undefined) item.tool = w.a.tool;
    if (w.a.call_id !== undefined) item.call_id = w.a.call_id;
    if (w.a.call_ids !== undefined) item.call_ids = w.a.call_ids;
    if (f.toolCalls && f.toolCalls.length > 0) item.tool_calls = f.toolCalls;
    if (w.a.is_error === true) item.is_error = true;
    if (w.changed?.reason === 'pair_placeholder') item.placeholder = true;
    if (w.changed?.action === 'excerpted') item.excerpt = true;
    return item;
  });
  if (compacted?.item) context = insertCompaction(context, compacted.item, policy.order);
  const ledger = ws.items.map((w) => ledgerEntry(w, masker, meter));
  const used = context.reduce((s, c) => s + c.tokens, 0);
  const resultWith = (events: StabilizeEvent[]): StabilizeResult => ({
    transcript: transcript.file,
    status,
    budget: { limit: policy.budget, used },
    context,
    ledger,
    summaries,
    events,
  });
  if (opts.decisionsOnly) return resultWith([]);
  // What the emitters change for the request(s) the context is written as: parts converted or left
  // out, call ids renamed (the Responses emitter's own notes for a Responses request), a placeholder
  // user turn put first (its text masked like any other; a `repaired` event per repaired request).
  const repair = emitOptionsOf(policy, (t) => maskString(t, masker, {}));
  const { notes, events: emitted } = emitEffects(
    context,
    emitApis(transcript.format, policy.target, opts.emit),
    repair,
  );
  ws.events.push(...emitted);
  for (const e of ledger) {
    const n = notes.get(e.id);
    if (n) e.emit = n.map((note) => maskString(note, masker, {}));
  }
  // One detail event per decision: built only when the policy shows them (`verbose`), since a
  // session of a million records would otherwise hold a million messages only to filter them out.
  const visible = VISIBLE[res.notification_level];
  for (const e of visible.has('detail') ? ledger : []) {
    if (e.action === 'kept') continue;
    ws.events.push({
      level: 'detail',
      code: `${e.action}:${e.reason}`,
      message: `${e.id} (line ${e.line}) ${e.action}: ${e.reason}${e.detail ? ` — ${e.detail}` : ''}`,
      id: e.id,
    });
  }
  const protectedCount = ws.items.filter((w) => isAlive(w) && w.protectedBy.length > 0).length;
  ws.events.push({
    level: 'detail',
    code: 'protected_preserved',
    message: `${protectedCount} protected artifacts preserved`,
  });

  // 11. verdict: a context that cannot be sent is no `ok`, whatever the stages managed.
  const verdict = verdictEvents(context, transcript, policy.target, opts.emit, repair);
  const unmasked = unmaskedPiiEvent(
    context,
    memo ? { ...search, memo: memo.piiFound } : search,
    new Set(thinking.unmaskable),
  );
  if (unmasked) verdict.push(unmasked);
  // pii.strategy block: a context that holds PII is not sent (the runtime throws ContextBlockedError).
  const blocked = piiStrategyOf(policy.pii) === 'block' ? blockedPiiEvent(context, ledger) : undefined;
  if (blocked) verdict.push(blocked);
  if (verdict.length > 0) status = 'escalated';
  ws.events.push(...verdict);

  const out = resultWith(ws.events.filter((e) => visible.has(e.level)));
  if (compacted?.log) out.compaction = [compacted.log];
  return out;
}
