// Expected artifact and pairing counts of an OpenHands trajectory, computed straight from its raw
// JSON with the rules of docs/formats.md (OpenHands) and no project code: an independent reading
// of the file for the e2e corpus test.
// - history: a bare array of events, or `history` of a run row; a pair [action, observation] is
//   its two events;
// - one artifact per system event, user/agent `message`, condensation with a summary, `condense`
//   observation, finish/reject (unless its model response already has an assistant turn), and
//   per agent call action, except that the calls of one model response (same
//   `model_response.id`, no other non-tool artifact between) share one assistant artifact;
// - one tool artifact per observation that answers a call: by its `tool_call_id`, or by `cause`
//   naming the action's id; UI-state and bookkeeping events count for nothing;
// - a history where no event has a `source` (older rows: the fields of each event side by side,
//   no ids): actions are the agent's, messages alternate user/agent as `wait_for_response` says
//   (the first is the user's), and an observation answers the call just before it;
// - an evaluation output (JSONL, one run per line) is one transcript per row with events; rows
//   with none are skipped (expectOpenHandsRows).
import type { Expected } from './corpus-expectations.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const SKIPPED_ACTIONS = [
  'change_agent_state',
  'pause',
  'resume',
  'stop',
  'null',
  'recall',
  'condensation_request',
];
const SKIPPED_OBSERVATIONS = ['agent_state_changed', 'null', 'recall', 'microagent', 'workspace_context'];
const RUNNABLE = [
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
];

function field(obj: unknown, ...path: (string | number)[]): unknown {
  let v: unknown = obj;
  for (const key of path) {
    if (typeof key === 'number') v = Array.isArray(v) ? v[key] : undefined;
    else v = isObject(v) ? v[key] : undefined;
  }
  return v;
}

/** One transcript per row of an evaluation output (JSONL), rows without conversation left out. */
export function expectOpenHandsRows(text: string): Expected[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => expectOpenHandsDoc(JSON.parse(line) as unknown))
    .filter((e) => e.artifacts > 0);
}

export function expectOpenHands(text: string): Expected {
  return expectOpenHandsDoc(JSON.parse(text) as unknown);
}

function expectOpenHandsDoc(doc: unknown): Expected {
  const history = (Array.isArray(doc) ? doc : field(doc, 'history')) as unknown[];
  const events = history.flatMap((item) => (Array.isArray(item) ? item : [item])).filter(isObject);
  const unsourced = events.length > 0 && events.every((e) => e['source'] === undefined);
  let waited = true;
  let lastCall: string | undefined;

  let artifacts = 0;
  /** Model response id of the open assistant turn; null when the last turn is not a call's. */
  let open: string | null = null;
  const callOfEvent = new Map<string, string>();
  const pending = new Map<string, number>();
  let paired = 0;

  for (const e of events) {
    const action = e['action'];
    const responseId = field(e, 'tool_call_metadata', 'model_response', 'id');
    const rid = typeof responseId === 'string' && responseId !== '' ? responseId : null;
    const metaId = field(e, 'tool_call_metadata', 'tool_call_id');
    if (typeof action === 'string') {
      let source = e['source'];
      if (unsourced && action !== 'message') source = 'agent';
      if (unsourced && action === 'message') {
        source = waited ? 'user' : 'agent';
        waited = source === 'agent' && e['wait_for_response'] === true;
      }
      const summary = field(e, 'args', 'summary');
      const text = typeof summary === 'string' && summary.trim() !== '';
      if (action === 'system' || action === 'summarize' || (action === 'condensation' && text)) {
        artifacts++;
        open = null;
        continue;
      }
      if (action === 'message' && (source === 'user' || source === 'agent')) {
        artifacts++;
        open = null;
        continue;
      }
      if (action === 'condensation' || action === 'message') continue;
      if (SKIPPED_ACTIONS.includes(action) || source !== 'agent') continue;
      if (action === 'finish' || action === 'reject') {
        if (rid === null || rid !== open) artifacts++;
        open = rid;
        continue;
      }
      if (typeof metaId !== 'string' && !RUNNABLE.includes(action)) continue;
      const id = typeof metaId === 'string' ? metaId : `oh-${String(e['id'] ?? artifacts)}`;
      callOfEvent.set(String(e['id']), id);
      lastCall = id;
      pending.set(id, (pending.get(id) ?? 0) + 1);
      if (rid === null || rid !== open) artifacts++;
      open = rid;
      continue;
    }
    const observation = e['observation'];
    if (typeof observation !== 'string' || SKIPPED_OBSERVATIONS.includes(observation)) continue;
    if (observation === 'condense') {
      artifacts++;
      open = null;
      continue;
    }
    const byOrder = unsourced && e['cause'] === undefined ? lastCall : undefined;
    const id = typeof metaId === 'string' ? metaId : (byOrder ?? callOfEvent.get(String(e['cause'])));
    if (id === undefined) continue;
    if (id === byOrder) lastCall = undefined;
    artifacts++;
    if ((pending.get(id) ?? 0) > 0) {
      pending.set(id, (pending.get(id) ?? 0) - 1);
      paired++;
    }
  }
  const unpairedCalls = [...pending.values()].reduce((a, b) => a + b, 0);
  return {
    format: 'openhands',
    artifacts,
    pairedResults: paired,
    unpairedCalls,
    sidechain: 0,
    invalidLines: 0,
  };
}
