// Expected artifact and pairing counts of a corpus file, computed straight from its raw JSON
// with the rules of DESIGN §2 — deliberately without any project code, so the e2e test compares
// the CLI against an independent reading of the file.

export interface Expected {
  format: 'openai' | 'anthropic' | 'claude-code';
  artifacts: number;
  pairedResults: number;
  unpairedCalls: number;
  sidechain: number;
  /** JSONL lines that are not JSON at all: these must surface as error diagnostics. */
  invalidLines: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Tool calls and results in order: `call` pushes an id, `result` consumes a pending one. */
type PairEvent = { call: string } | { result: string[] };

function pairCounts(events: PairEvent[]): { paired: number; unpairedCalls: number } {
  const pending = new Map<string, number>();
  let paired = 0;
  for (const e of events) {
    if ('call' in e) {
      pending.set(e.call, (pending.get(e.call) ?? 0) + 1);
      continue;
    }
    const id = e.result.find((candidate) => (pending.get(candidate) ?? 0) > 0);
    if (id !== undefined) {
      pending.set(id, (pending.get(id) ?? 0) - 1);
      paired++;
    }
  }
  const unpairedCalls = [...pending.values()].reduce((a, b) => a + b, 0);
  return { paired, unpairedCalls };
}

function openaiMessages(doc: unknown): Json[] {
  if (Array.isArray(doc)) return doc as Json[];
  const d = doc as Json;
  return (d['messages'] ?? d['traj'] ?? d['history'] ?? d['trajectory']) as Json[];
}

function expectOpenai(doc: unknown): Expected {
  const messages = openaiMessages(doc);
  const events: PairEvent[] = [];
  for (const m of messages) {
    for (const call of (m['tool_calls'] as Json[] | undefined) ?? [])
      events.push({ call: call['id'] as string });
    if (m['role'] === 'tool') {
      const ids = (m['tool_call_ids'] as string[] | undefined) ?? [m['tool_call_id'] as string];
      events.push({ result: ids });
    }
  }
  const { paired, unpairedCalls } = pairCounts(events);
  return {
    format: 'openai',
    artifacts: messages.length,
    pairedResults: paired,
    unpairedCalls,
    sidechain: 0,
    invalidLines: 0,
  };
}

/** Artifacts one Anthropic-style message becomes, and its pairing events. */
function anthropicMessage(role: unknown, content: unknown): { artifacts: number; events: PairEvent[] } {
  if (!Array.isArray(content)) return { artifacts: 1, events: [] };
  const blocks = content as Json[];
  const events: PairEvent[] = [];
  for (const b of blocks) {
    if (b['type'] === 'tool_use') events.push({ call: b['id'] as string });
    if (b['type'] === 'tool_result') events.push({ result: [b['tool_use_id'] as string] });
  }
  const results = blocks.filter((b) => b['type'] === 'tool_result').length;
  if (role !== 'user' || results === 0) return { artifacts: 1, events };
  // Each tool_result is its own artifact; what else the message holds forms one user artifact.
  const rest = blocks.filter(
    (b) => b['type'] !== 'tool_result' && !(b['type'] === 'text' && b['text'] === ''),
  );
  return { artifacts: results + (rest.length > 0 ? 1 : 0), events };
}

function expectAnthropic(doc: Json): Expected {
  const system = doc['system'];
  let artifacts = (typeof system === 'string' ? system !== '' : Array.isArray(system) && system.length > 0)
    ? 1
    : 0;
  const events: PairEvent[] = [];
  for (const m of doc['messages'] as Json[]) {
    const one = anthropicMessage(m['role'], m['content']);
    artifacts += one.artifacts;
    events.push(...one.events);
  }
  const { paired, unpairedCalls } = pairCounts(events);
  return {
    format: 'anthropic',
    artifacts,
    pairedResults: paired,
    unpairedCalls,
    sidechain: 0,
    invalidLines: 0,
  };
}

/** A Claude Code record that carries a usable message: object content blocks or a string. */
function usableMessage(record: Json): Json | undefined {
  const message = record['message'];
  if (!isObject(message)) return undefined;
  const content = message['content'];
  if (typeof content === 'string') return message;
  if (Array.isArray(content) && content.every((b) => isObject(b) && typeof b['type'] === 'string'))
    return message;
  return undefined;
}

function expectClaudeCode(text: string): Expected {
  let artifacts = 0;
  let sidechain = 0;
  let invalidLines = 0;
  const events: PairEvent[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      invalidLines++;
      continue;
    }
    if (!isObject(record)) continue;
    let count = 0;
    if (record['type'] === 'summary' && typeof record['summary'] === 'string') count = 1;
    if (record['type'] === 'user' || record['type'] === 'assistant') {
      const message = usableMessage(record);
      if (message) {
        const one = anthropicMessage(record['type'], message['content']);
        count = one.artifacts;
        events.push(...one.events);
      }
    }
    artifacts += count;
    if (record['isSidechain'] === true) sidechain += count;
  }
  const { paired, unpairedCalls } = pairCounts(events);
  return { format: 'claude-code', artifacts, pairedResults: paired, unpairedCalls, sidechain, invalidLines };
}

/** `relPath` is relative to the corpus root; its first folder names the format. */
export function expectedFor(relPath: string, text: string): Expected {
  const folder = relPath.split('/')[0];
  if (folder === 'claude-code') return expectClaudeCode(text);
  const doc = JSON.parse(text) as unknown;
  if (folder === 'anthropic-messages') return expectAnthropic(doc as Json);
  return expectOpenai(doc);
}
