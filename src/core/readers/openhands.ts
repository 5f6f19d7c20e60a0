// OpenHands trajectory reader. Three shapes hold the same events (`event_to_dict`):
// - a JSON array of events (the UI's trajectory download, `save_trajectory_path`);
// - an evaluation row `{instance_id, instruction, metadata, history: [events], test_result…}`;
// - an older evaluation row whose `history` holds `[action, observation]` pairs
//   (`compatibility_for_eval_history_pairs`): each pair is read as its two events.
// Each event is `{id, source, action, args}` or `{id, source, observation, content, extras,
// cause}`, with `tool_call_metadata` (`tool_call_id`, `function_name`, `model_response`) on the
// events of a function call. What the model saw follows OpenHands' own ConversationMemory:
// - `system` → system; `message` from the user → user, from the agent → assistant text;
// - every other agent action → an assistant turn with one tool call; the actions of one model
//   response (same `model_response.id`) are one assistant turn with several calls;
// - an observation answering a call (by `tool_call_id`, or by `cause` = the action's id) → tool;
// - `finish`/`reject` → assistant text: OpenHands never answers those calls, it sends the text;
// - a condensation → summary; the events it forgets are read but marked `compacted`.
// UI-state and bookkeeping events are left out with one warning per kind (SKIPPED_*, REASONS).
import type { Artifact, Diagnostic, SourcePos, ToolCall } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { ReadContext } from './context.js';
import {
  addForgotten,
  argsArguments,
  assistantText,
  eventKey,
  exitCodeOf,
  isForgotten,
  readCallMeta,
  readThought,
  responseArguments,
  str,
  withImages,
  type CallMeta,
  type Forgotten,
  type OhEvent,
} from './openhands-events.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, safeName, type JsonObject } from './values.js';

const CODE = 'invalid-openhands-event';
const HINT =
  'Each event is {"id", "source", "action", "args"} or {"id", "source", "observation", "content", "extras", "cause"}, as OpenHands saves them.';

const REASONS = {
  ui: 'agent state changes shown by the UI; the model never sees them.',
  placeholder: 'placeholders with no content (an action with no observation, or the reverse).',
  recall: 'recall bookkeeping: the workspace context OpenHands builds from it is not kept in the event.',
  outside: "actions taken outside the model's turns (by the user or the environment).",
  unanswered: 'observations that answer no tool call of this history.',
  request: 'requests to condense the history; the condensation that follows is read.',
  unknown: 'an event type this reader does not know.',
} as const;
type Reason = keyof typeof REASONS;

const SKIPPED_ACTIONS: Record<string, Reason> = {
  change_agent_state: 'ui',
  pause: 'ui',
  resume: 'ui',
  stop: 'ui',
  null: 'placeholder',
  recall: 'recall',
  condensation_request: 'request',
};
const SKIPPED_OBSERVATIONS: Record<string, Reason> = {
  agent_state_changed: 'ui',
  null: 'placeholder',
  recall: 'recall',
  microagent: 'recall',
  workspace_context: 'recall',
};
/** Actions that are calls even without tool_call_metadata (runs without function calling). */
const RUNNABLE = new Set([
  'run',
  'run_ipython',
  'read',
  'write',
  'edit',
  'browse',
  'browse_interactive',
  'delegate',
  'call_tool_mcp',
  'think',
  'task_tracking',
]);
/** Actions that end the run: OpenHands sends their text, never a result for their call. */
const ENDINGS = new Set(['finish', 'reject']);
const ERROR_OBSERVATIONS = new Set(['error', 'user_rejected']);

/** The events of a document: bare, or under `history`; null when neither. */
function historyOf(root: unknown): unknown[] | null {
  if (Array.isArray(root)) return root;
  return isObject(root) && Array.isArray(root['history']) ? root['history'] : null;
}

function isEventLike(v: unknown): boolean {
  if (!isObject(v)) return false;
  const a = typeof v['action'] === 'string';
  const o = typeof v['observation'] === 'string';
  // SWE-agent `trajectory` steps hold both `action` and `observation`; an event holds one.
  return a !== o;
}

/**
 * OpenHands events: the first items (up to 5) are events with `source` and one of `action` /
 * `observation`, or `[action, observation]` pairs of them. Chat messages ({role, content}) and
 * SWE-agent steps ({action, observation}, no source) are not.
 */
export function isOpenHandsDocument(root: unknown): boolean {
  const items = historyOf(root);
  if (!items || items.length === 0) return false;
  let sourced = false;
  for (const item of items.slice(0, 5)) {
    const events = Array.isArray(item) ? item : [item];
    if (events.length === 0 || events.length > 2 || !events.every(isEventLike)) return false;
    if (events.some((e) => isObject(e) && typeof e['source'] === 'string')) sourced = true;
  }
  // Older rows (the resolver's `dataclasses.asdict` events) keep no `source`: the row's own keys
  // tell them from other histories of `action`/`observation` objects.
  return sourced || isRowObject(root);
}

/** An evaluation row's keys beside `history`: `instance_id` or the `instruction` it was given. */
function isRowObject(root: unknown): boolean {
  if (!isObject(root) || !Array.isArray(root['history'])) return false;
  const id = root['instance_id'];
  return typeof id === 'string' || typeof id === 'number' || typeof root['instruction'] === 'string';
}

/**
 * One record of an OpenHands evaluation output (`output.jsonl`, one run per line): a row with
 * OpenHands events under `history`, or a row whose `history` is empty (a run that made none).
 */
export function isOpenHandsRow(value: unknown): boolean {
  if (!isObject(value) || !Array.isArray(value['history'])) return false;
  return value['history'].length === 0 ? isRowObject(value) : isOpenHandsDocument(value);
}

function sourceName(source: unknown): string {
  return typeof source === 'string' ? (safeName(source) ?? 'other') : 'unsourced';
}

interface Draft {
  a: Omit<Artifact, 'tool_calls'> & { tool_calls?: ToolCall[] };
  /** The `id` of the event it was read from. */
  eventId: unknown;
  /** The model response it came from, so later actions of that response join it. */
  responseId?: string;
}

interface Skip {
  at: SourcePos;
  count: number;
  reason: Reason;
}

class Reader {
  readonly drafts: Draft[] = [];
  readonly meta: Record<string, unknown> = {};
  private readonly skipped = new Map<string, Skip>();
  /** Action event id → the id of the call it made, for observations that only name a `cause`. */
  private readonly callOfEvent = new Map<string, string>();
  private lastAssistant: Draft | null = null;
  /** What the condensations read so far forget: a summary stands for these (its provenance). */
  private readonly forgottenSoFar: Forgotten = { ids: new Set(), ranges: [] };

  /**
   * Unsourced histories only: the call the last observation would answer (the events alternate,
   * action then observation), and whether the last message waited for the user's answer.
   */
  private pendingCall: string | undefined;
  private waited = true;

  constructor(
    private readonly ctx: ReadContext,
    private readonly forgotten: Forgotten,
    /** The one condensation whose summary is current (OpenHands keeps only the latest). */
    private readonly currentSummary: OhEvent | null,
    /** No event has a `source` (older rows: `dataclasses.asdict` of each event, ids dropped). */
    private readonly unsourced: boolean,
  ) {}

  /**
   * The source of an event: its own, else (unsourced histories) the agent's for every action but
   * a message, which is the user's when it opens the run or answers a message that waited for a
   * response (`wait_for_response`), as OpenHands' controller alternates them.
   */
  private sourceOf(node: JsonObject, type: string): unknown {
    if (!this.unsourced || node['source'] !== undefined) return node['source'];
    if (type !== 'message') return 'agent';
    const user = this.waited;
    this.waited = !user && node['wait_for_response'] === true;
    return user ? 'user' : 'agent';
  }

  private add(e: OhEvent, fields: Omit<Draft['a'], 'id' | 'source'>, responseId?: string): Draft {
    const off = isForgotten(e.node['id'], this.forgotten) ? ('compacted' as const) : undefined;
    const draft: Draft = {
      a: { id: e.id, offChain: off, ...fields, source: this.ctx.pos(e.node) },
      eventId: e.node['id'],
      responseId,
    };
    this.drafts.push(draft);
    if (fields.kind === 'assistant') this.lastAssistant = draft;
    else if (fields.kind !== 'tool') this.lastAssistant = null;
    return draft;
  }

  private skip(e: OhEvent, kind: string, reason: Reason): void {
    const seen = this.skipped.get(kind) ?? { at: this.ctx.pos(e.node), count: 0, reason };
    seen.count++;
    this.skipped.set(kind, seen);
  }

  private bad(e: OhEvent, problem: string): void {
    this.ctx.warning(CODE, this.ctx.pos(e.node), `This event is left out: ${problem}.`, HINT);
  }

  event(e: OhEvent): void {
    const { node } = e;
    const action = node['action'];
    const observation = node['observation'];
    if (typeof action === 'string' && observation === undefined) this.action(e, action);
    else if (typeof observation === 'string' && action === undefined) this.observation(e, observation);
    else if (action !== undefined && observation !== undefined)
      this.bad(e, 'an event has either an `action` or an `observation`, not both');
    else
      this.bad(
        e,
        `an event must have a string \`action\` or a string \`observation\`; found ${describeValue(action ?? observation)}`,
      );
  }

  private action(e: OhEvent, type: string): void {
    const { node } = e;
    const args = node['args'];
    if (args !== undefined && args !== null && !isObject(args))
      return this.bad(e, `\`args\` must be an object; found ${describeValue(args)}`);
    const a = isObject(args) ? args : args === undefined && this.unsourced ? flatFields(node) : undefined;
    const source = this.sourceOf(node, type);
    const name = safeName(type) ?? '(unnamed)';
    if (type === 'system') return this.system(e, a);
    if (type === 'message') return this.message(e, a, source);
    if (type === 'condensation') return this.condensation(e, a);
    if (type === 'summarize') {
      const summary = str(a, 'summary');
      if (summary?.trim()) this.add(e, { kind: 'summary', content: summary });
      return;
    }
    const skipReason = SKIPPED_ACTIONS[type];
    if (skipReason) return this.skip(e, `action ${name}`, skipReason);
    if (source !== 'agent') return this.skip(e, `${sourceName(source)} action ${name}`, 'outside');
    const meta = readCallMeta(node);
    if (typeof meta === 'string') return this.bad(e, meta);
    if (meta?.model && this.meta['model'] === undefined) this.meta['model'] = meta.model;
    if (ENDINGS.has(type)) return this.ending(e, a, meta);
    if (!meta && !RUNNABLE.has(type)) return this.skip(e, `action ${name}`, 'unknown');
    this.call(e, type, a, meta);
  }

  /**
   * A condensation's summary stands for every event forgotten so far, earlier summaries included
   * (OpenHands' summarizing condensers fold the previous summary in). Only the latest summary is
   * in what the model sees: an earlier one is compacted with the rest.
   */
  private condensation(e: OhEvent, a: JsonObject | undefined): void {
    addForgotten(a, this.forgottenSoFar);
    const summary = str(a, 'summary');
    if (!summary?.trim()) return;
    const covered = this.drafts
      .filter((d) => d.a.kind === 'summary' || isForgotten(d.eventId, this.forgottenSoFar))
      .map((d) => d.a.id);
    this.add(e, {
      kind: 'summary',
      content: summary,
      provenance: covered.length > 0 ? covered : undefined,
      offChain: e === this.currentSummary ? undefined : 'compacted',
    });
  }

  private system(e: OhEvent, a: JsonObject | undefined): void {
    const content = str(a, 'content') ?? str(e.node, 'message');
    if (content === undefined) return this.bad(e, 'a system event must have a string `args.content`');
    for (const key of ['agent_class', 'openhands_version'])
      if (typeof a?.[key] === 'string' && this.meta[key] === undefined) this.meta[key] = a[key];
    this.add(e, { kind: 'system', content });
  }

  private message(e: OhEvent, a: JsonObject | undefined, source: unknown): void {
    if (source !== 'user' && source !== 'agent')
      return this.skip(e, `${sourceName(source)} action message`, 'outside');
    const text = str(a, 'content') ?? str(e.node, 'message');
    if (text === undefined)
      return this.bad(
        e,
        `a message event must have a string \`args.content\`; found ${describeValue(a?.['content'])}`,
      );
    const kind = source === 'user' ? 'user' : 'assistant';
    this.add(e, { kind, content: withImages(text, a) });
  }

  /** finish / reject: the model's text, as OpenHands sends it; the call itself is never answered. */
  private ending(e: OhEvent, a: JsonObject | undefined, meta: CallMeta | null): void {
    if (meta?.responseId && meta.responseId === this.lastAssistant?.responseId) return;
    let content = assistantText(meta, a);
    if (content === '') content = str(a, 'final_thought') ?? readThought(a).text;
    // `finish` is the run's result as the agent states it (issue 31: tag `result`).
    const tags = e.node['action'] === 'finish' ? ['result'] : undefined;
    this.add(e, { kind: 'assistant', content, tags }, meta?.responseId);
  }

  private call(e: OhEvent, type: string, a: JsonObject | undefined, meta: CallMeta | null): void {
    const key = eventKey(e.node['id']);
    // A call with no id of its own gets one from the action's event id, which observations name.
    const id = meta?.callId ?? `oh-${key ?? e.id}`;
    const call: ToolCall = {
      id,
      name: meta?.functionName ?? type,
      arguments: (meta && responseArguments(meta)) ?? argsArguments(a),
    };
    if (key !== undefined) this.callOfEvent.set(key, id);
    if (this.unsourced) this.pendingCall = id;
    const open = this.lastAssistant;
    if (meta?.responseId && open?.responseId === meta.responseId) {
      (open.a.tool_calls ??= []).push(call);
      return;
    }
    this.add(e, { kind: 'assistant', content: assistantText(meta, a), tool_calls: [call] }, meta?.responseId);
  }

  private observation(e: OhEvent, type: string): void {
    const { node } = e;
    const name = safeName(type) ?? '(unnamed)';
    const skipReason = SKIPPED_OBSERVATIONS[type];
    if (skipReason) return this.skip(e, `observation ${name}`, skipReason);
    const content = node['content'];
    if (content !== undefined && content !== null && typeof content !== 'string')
      return this.bad(e, `an observation's \`content\` must be a string; found ${describeValue(content)}`);
    const text = content ?? '';
    if (type === 'condense') return void this.add(e, { kind: 'summary', content: text });
    const meta = readCallMeta(node);
    if (typeof meta === 'string') return this.bad(e, meta);
    const cause = eventKey(node['cause']);
    // Unsourced rows keep no ids: an observation answers the call just before it.
    const byOrder = this.unsourced && cause === undefined ? this.pendingCall : undefined;
    const callId = meta?.callId ?? (cause === undefined ? byOrder : this.callOfEvent.get(cause));
    if (callId === undefined) return this.skip(e, `observation ${name} answering no call`, 'unanswered');
    if (callId === byOrder) this.pendingCall = undefined;
    const extras = isObject(node['extras'])
      ? node['extras']
      : node['extras'] === undefined && this.unsourced
        ? flatFields(node)
        : undefined;
    const exitCode = exitCodeOf(extras);
    const isError = ERROR_OBSERVATIONS.has(type) || (exitCode !== undefined && exitCode !== 0);
    this.add(e, {
      kind: 'tool',
      content: withImages(text, extras),
      tool: meta?.functionName,
      call_id: callId,
      exit_code: exitCode,
      is_error: isError ? true : undefined,
      // The user refused the action (confirmation mode): their decision (issue 31).
      tags: type === 'user_rejected' ? ['decision'] : undefined,
    });
  }

  warnings(file: string): Diagnostic[] {
    return [...this.skipped].map(([kind, { at, count, reason }]) => ({
      severity: 'warning' as const,
      code: 'skipped-record',
      file,
      line: at.line,
      column: at.column,
      message: `Left out ${count} OpenHands event${count === 1 ? '' : 's'} of kind "${kind}" (first here): ${REASONS[reason]}`,
      hint:
        reason === 'unknown'
          ? 'Nothing to do if these events hold no conversation; otherwise report the event type.'
          : 'Nothing to do: these events are not part of what the model was sent.',
    }));
  }
}

/** Keys of the event itself, never of its `args` or `extras`. */
const ENVELOPE = new Set([
  'id',
  'source',
  'cause',
  'timestamp',
  'message',
  'action',
  'observation',
  'content',
  'tool_call_metadata',
  'llm_metrics',
]);

/**
 * The fields of an event saved without `args` / `extras` (older rows: `dataclasses.asdict`, the
 * action's arguments or the observation's extras beside its type), as those objects.
 */
function flatFields(node: JsonObject): JsonObject {
  const fields: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (!ENVELOPE.has(k)) fields[k] = v;
  // A message's text is its `content`, which the envelope keeps for observations.
  if (node['action'] !== undefined && node['content'] !== undefined) fields['content'] = node['content'];
  return fields;
}

/** The history as a flat list of events; an evaluation pair gives its two halves. */
function flatten(items: unknown[], ctx: ReadContext): OhEvent[] {
  const events: OhEvent[] = [];
  items.forEach((item, i) => {
    if (isObject(item)) return void events.push({ node: item, id: `m${i}` });
    if (Array.isArray(item) && item.length === 2 && item.every(isObject)) {
      item.forEach((half, j) => events.push({ node: half as JsonObject, id: `m${i}.${j}` }));
      return;
    }
    ctx.warning(
      CODE,
      ctx.pos(item, ctx.pos(items)),
      `History item ${i} is left out: it must be an event object or an [action, observation] pair; found ${describeValue(item)}.`,
      HINT,
    );
  });
  return events;
}

function rowMeta(root: unknown): Record<string, unknown> {
  if (!isObject(root)) return {};
  const meta: Record<string, unknown> = {};
  const id = root['instance_id'];
  if (typeof id === 'string' || typeof id === 'number') meta['instance_id'] = id;
  // The resolver's rows name their issue instead (`issue: {owner, repo, number}`): its number only.
  const issue = isObject(root['issue']) ? root['issue']['number'] : undefined;
  if (typeof issue === 'number' && Number.isInteger(issue)) meta['issue_number'] = issue;
  const m = isObject(root['metadata']) ? root['metadata'] : undefined;
  const llm = isObject(m?.['llm_config']) ? m['llm_config'] : undefined;
  for (const [key, value] of [
    ['agent_class', m?.['agent_class']],
    ['model', llm?.['model']],
    ['max_iterations', m?.['max_iterations']],
  ] as const)
    if (typeof value === 'string' || typeof value === 'number') meta[key] = value;
  return meta;
}

export function readOpenHands(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: Diagnostic[] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const items = historyOf(doc.value);
  if (!items) {
    ctx.error(
      'invalid-openhands-document',
      ctx.pos(doc.value),
      `An OpenHands trajectory must be an array of events or an object with a \`history\` array; found ${describeValue(doc.value)}.`,
      'Pass the trajectory as OpenHands saved it, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const events = flatten(items, ctx);
  // What condensations forget applies to the whole history, as OpenHands' View does.
  const forgotten: Forgotten = { ids: new Set(), ranges: [] };
  let currentSummary: OhEvent | null = null;
  for (const e of events) {
    if (e.node['action'] !== 'condensation') continue;
    const args = isObject(e.node['args']) ? e.node['args'] : undefined;
    addForgotten(args, forgotten);
    if (str(args, 'summary')?.trim()) currentSummary = e;
  }
  const unsourced = events.length > 0 && events.every((e) => e.node['source'] === undefined);
  const reader = new Reader(ctx, forgotten, currentSummary, unsourced);
  for (const e of events) reader.event(e);
  const artifacts = reader.drafts.map(({ a }) => buildArtifact({ ...a }));
  diagnostics.push(...reader.warnings(file));
  return { artifacts, meta: { ...reader.meta, ...rowMeta(doc.value) }, diagnostics };
}
