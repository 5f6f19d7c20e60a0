// The stabilizer's working state: one Work item per input artifact, with its current content, its
// fate so far and its tool-call unit. Stages mutate Work items through the helpers here only.
import type { Artifact, Content, ToolCall, Transcript } from '../types.js';
import { commandKeys } from './families.js';
import type { CommandKeys } from './families.js';
import type { Final } from './finalize.js';
import type { Action, Stage, StabilizeEvent } from './types.js';

export interface Fate {
  stage: Stage;
  action: Action;
  reason: string;
  detail?: string;
  duplicate_of?: string;
}

export interface Work {
  readonly a: Artifact;
  readonly index: number;
  /** Content as it will be emitted (after field masking, collapse or placeholder; before PII masking). */
  content: Content;
  toolCalls: ToolCall[] | undefined;
  /** Set when the artifact leaves the context; the first removal is final. */
  removed?: Fate;
  /** Set when the artifact stays but was changed by a stage other than PII masking. */
  changed?: Fate;
  /** Results kept as a placeholder only because their call's assistant is protected: why they would go. */
  heldBy?: { fate: Fate; content: Content; changed: Fate | undefined };
  protectedBy: string[];
  /** Results: the command family of the call they answer (protection, retry runs). */
  family?: string;
  /** Results: the key under which a later result makes this one stale. */
  supersede?: string;
  /** Results: the assistant whose call they answer. */
  owner?: Work;
  /** Assistants: results answering their calls, in transcript order. */
  results: Work[];
  /** Effective scope after phase markers. */
  task?: string;
  phase?: string;
  /** PII the content held before a stage replaced it with text cut from its masked form (excerpts). */
  piiCarried?: Record<string, number>;
  /** Masked content and exact tokens, for the content and calls they were computed from. */
  final?: { content: Content; toolCalls: ToolCall[] | undefined; value: Final };
}

export interface WorkSet {
  items: Work[];
  byId: Map<string, Work>;
  events: StabilizeEvent[];
  /** Command keys of every tool call, computed once. */
  families: Map<ToolCall, CommandKeys>;
}

/**
 * `maskArgs` masks PII in a call's arguments before its command keys are taken: PII masking comes
 * before supersession (DESIGN §4 stages 4 and 6), and the keys must be those of the arguments the
 * context shows, or stabilizing the context again would group calls differently.
 */
// A session's calls read the same tool calls again: their keys are parsed once per call object.
const keysOfCall = new WeakMap<ToolCall, { args: string; keys: CommandKeys }>();

export function buildWork(transcript: Transcript, maskArgs: (text: string) => string = (t) => t): WorkSet {
  const items: Work[] = transcript.artifacts.map((a, index) => ({
    a,
    index,
    content: a.content,
    toolCalls: a.tool_calls ? [...a.tool_calls] : undefined,
    protectedBy: [],
    results: [],
  }));
  const byId = new Map<string, Work>();
  for (const w of items) byId.set(w.a.id, w);
  const families = new Map<ToolCall, CommandKeys>();
  for (const w of items)
    for (const c of w.toolCalls ?? []) {
      const args = maskArgs(c.arguments);
      const known = keysOfCall.get(c);
      if (known !== undefined && known.args === args) families.set(c, known.keys);
      else {
        const keys = commandKeys({ ...c, arguments: args });
        keysOfCall.set(c, { args, keys });
        families.set(c, keys);
      }
    }
  for (const [resultId, ownerId] of Object.entries(transcript.pairing.resultToCall)) {
    const result = byId.get(resultId);
    const owner = byId.get(ownerId);
    if (!result || !owner) continue;
    result.owner = owner;
    owner.results.push(result);
    const call = owner.toolCalls?.find((c) => c.id === result.a.call_id);
    const keys = call ? families.get(call) : undefined;
    if (keys !== undefined) {
      result.family = keys.family;
      result.supersede = keys.supersede;
    }
  }
  for (const w of items) w.results.sort((x, y) => x.index - y.index);
  return { items, byId, events: [], families };
}

export function isAlive(w: Work): boolean {
  return w.removed === undefined;
}

export function isProtected(w: Work): boolean {
  return w.protectedBy.length > 0;
}

export function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  let out = '';
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') out += (out ? '\n' : '') + part.text;
  }
  return out;
}

export function hasText(w: Work): boolean {
  return textOf(w.content).trim().length > 0;
}

/** A tool result failed: an error flag, a non-zero exit code or an `error` tag. */
export function isFailure(w: Work): boolean {
  return (
    w.a.is_error === true ||
    (w.a.exit_code !== undefined && w.a.exit_code !== 0) ||
    (w.a.tags ?? []).includes('error')
  );
}

export function remove(w: Work, fate: Fate): void {
  if (w.removed) return;
  w.removed = fate;
}

const REASON_WORDS: Record<string, string> = {
  verbose_tool_output: 'verbose output over the tool_output.max_tokens limit',
  duplicate: 'duplicate of a later result',
  near_duplicate: 'near-duplicate of a later result',
  superseded: 'superseded by a later result of the same command',
  retry_run: 'failed attempt collapsed into a retry summary',
  budget: 'over the context budget',
};

const PLACEHOLDER_PREFIX = '[tool result omitted: ';

export function placeholderText(reason: string, detail?: string): string {
  const words = REASON_WORDS[reason] ?? reason.replace(/_/g, ' ');
  return `${PLACEHOLDER_PREFIX}${words}${detail ? `; ${detail}` : ''}]`;
}

/**
 * A result already replaced by a placeholder, in this run or in the stabilized context it was read
 * from. Stages leave it as it is: it is no verbose output, no copy and no stale result, and a second
 * placeholder would only reword it (stabilizing a stabilized context must change nothing).
 */
export function isPlaceholder(w: Work): boolean {
  if (w.changed?.reason === 'pair_placeholder') return true;
  const c = w.content;
  return w.a.kind === 'tool' && typeof c === 'string' && c.startsWith(PLACEHOLDER_PREFIX) && c.endsWith(']');
}

/**
 * Take a tool result out of the context without orphaning its call (DESIGN §4 stage 9): when the
 * assistant that made the call must stay (it is protected), the result becomes a short placeholder;
 * otherwise the call leaves the assistant too, and an assistant left with no text and no calls goes.
 */
export function removeResult(result: Work, fate: Fate): void {
  if (result.removed) return;
  const owner = result.owner;
  if (owner && isAlive(owner) && isProtected(owner)) {
    if (isPlaceholder(result)) return;
    result.heldBy = { fate, content: result.content, changed: result.changed };
    result.content = placeholderText(fate.reason, fate.duplicate_of ? `see ${fate.duplicate_of}` : undefined);
    result.changed = {
      stage: fate.stage,
      action: 'compressed',
      reason: 'pair_placeholder',
      detail: `${fate.reason}${fate.detail ? `: ${fate.detail}` : ''}; replaced by a placeholder because its call in ${owner.a.id} is kept`,
      ...(fate.duplicate_of ? { duplicate_of: fate.duplicate_of } : {}),
    };
    return;
  }
  remove(result, fate);
  if (!owner || !owner.toolCalls || owner.removed) return;
  const ids = new Set(result.a.call_ids ?? (result.a.call_id !== undefined ? [result.a.call_id] : []));
  const stillAnswered = new Set(
    owner.results.filter((r) => r !== result && isAlive(r)).flatMap((r) => r.a.call_ids ?? [r.a.call_id]),
  );
  const callsBefore = owner.toolCalls.length;
  owner.toolCalls = owner.toolCalls.filter((c) => !ids.has(c.id) || stillAnswered.has(c.id));
  if (owner.toolCalls.length === 0 && !hasText(owner)) {
    remove(owner, {
      stage: fate.stage,
      action: 'dropped',
      reason: 'pair_unit',
      detail: `its only tool calls' results were removed (${result.a.id}: ${fate.reason})`,
    });
  } else if (owner.toolCalls.length < callsBefore) {
    // The assistant stays without that call: the ledger must not call it kept verbatim.
    owner.changed ??= {
      stage: fate.stage,
      action: 'compressed',
      reason: 'pair_unit',
      detail: `its tool call left with its result ${result.a.id} (${fate.reason})`,
    };
  }
}

/**
 * A placeholder stands in for a result only while its assistant is protected. Aggressive collapse can
 * lift that protection afterwards: the results it held then leave as they would have, or stabilizing
 * the context again would remove them.
 */
export function releaseHeld(ws: WorkSet): number {
  let released = 0;
  for (const w of ws.items) {
    const held = w.heldBy;
    if (!held || !isAlive(w) || !w.owner || !isAlive(w.owner) || isProtected(w.owner)) continue;
    w.content = held.content;
    w.changed = held.changed;
    w.heldBy = undefined;
    removeResult(w, held.fate);
    released++;
  }
  return released;
}

/** Take an assistant with tool calls out together with every result of its calls. */
export function removeUnit(owner: Work, fate: Fate): void {
  remove(owner, fate);
  for (const r of owner.results) {
    remove(r, {
      stage: fate.stage,
      action: 'dropped',
      reason: 'pair_unit',
      detail: `went with its call in ${owner.a.id}`,
    });
  }
}
