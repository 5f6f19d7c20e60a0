// The Chat Completions rules a request body must keep, or OpenAI answers HTTP 400. The quoted error
// texts are the ones the API answers (as reported in public issues), with our indexes filled in.
import type { OpenAIMessage } from './openai.js';
import { isObject, openaiPath, sortHits, type Loc, type RuleHit } from './rule-hit.js';
import { pushAll } from '../collections.js';

export const OPENAI_RULES = [
  'openai-messages-nonempty',
  'openai-role',
  'openai-content-type',
  'openai-assistant-empty',
  'openai-empty-array',
  'openai-part-type',
  'openai-part-shape',
  'openai-call-ids-unique',
  'openai-tool-answers-call',
  'openai-call-answered',
] as const;
export type OpenAIRule = (typeof OPENAI_RULES)[number];

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** Content part types each role may send. */
export const OPENAI_PART_TYPES: Readonly<Record<string, readonly string[]>> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
};

/** The object-valued field a part of this type carries, and the string fields inside it. */
const PART_FIELDS: Readonly<Record<string, { field: string; strings: readonly string[] }>> = {
  image_url: { field: 'image_url', strings: ['url'] },
  input_audio: { field: 'input_audio', strings: ['data', 'format'] },
  file: { field: 'file', strings: [] },
};

/** `answer` is the API's error text; `paraphrase` when we do not know its exact words. */
function hit(rule: OpenAIRule, at: Loc[], words: string, answer: string, paraphrase = false): RuleHit {
  const where = at[0] ? `${openaiPath(at[0])}: ` : '';
  const said = paraphrase ? answer : `"${answer}"`;
  return { rule, message: `${where}${words} (OpenAI answers 400: ${said})`, at };
}

function quoteList(values: readonly string[]): string {
  const q = values.map((v) => `'${v}'`);
  if (q.length <= 1) return q.join('');
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function isEmpty(content: unknown): boolean {
  return (
    content === null || content === undefined || content === '' || (Array.isArray(content) && !content.length)
  );
}

function checkContent(m: OpenAIMessage, i: number): RuleHit[] {
  const out: RuleHit[] = [];
  const content: unknown = m.content;
  const calls = m.tool_calls !== undefined && m.tool_calls.length > 0;
  if (m.role === 'assistant' && !calls && isEmpty(content)) {
    out.push(
      hit(
        'openai-assistant-empty',
        [{ message: i }],
        'assistant message with neither content nor tool_calls',
        content === null
          ? "Invalid value for 'content': expected a string, got null."
          : 'the assistant message needs content or tool_calls',
        content !== null,
      ),
    );
    return out;
  }
  const nullable = m.role === 'assistant';
  if (typeof content !== 'string' && !Array.isArray(content) && !(nullable && isEmpty(content))) {
    out.push(
      hit(
        'openai-content-type',
        [{ message: i }],
        `${m.role} message content is ${describe(content)}, not a string or an array of parts`,
        `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${describe(content)} instead.`,
      ),
    );
    return out;
  }
  if (Array.isArray(content) && content.length === 0) {
    out.push(
      hit(
        'openai-empty-array',
        [{ message: i }],
        `${m.role} message content is an empty array`,
        `Invalid 'messages[${i}].content': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
      ),
    );
  }
  if (!Array.isArray(content)) return out;
  const allowed = OPENAI_PART_TYPES[m.role] ?? [];
  content.forEach((part: unknown, j) => {
    const at = [{ message: i, block: j }];
    const path = openaiPath(at[0] as Loc);
    const type = isObject(part) && typeof part['type'] === 'string' ? part['type'] : undefined;
    if (type === undefined || !allowed.includes(type)) {
      out.push(
        hit(
          'openai-part-type',
          at,
          `a ${type ?? 'untyped'} part is not allowed in ${m.role === 'assistant' ? 'an' : 'a'} ${m.role} message (allowed: ${allowed.join(', ')})`,
          `Invalid value: '${type ?? ''}'. Supported values are: ${quoteList(allowed)}.`,
        ),
      );
      return;
    }
    const p = part as Record<string, unknown>;
    const bad = (field: string, value: unknown, want: string): void => {
      out.push(
        hit(
          'openai-part-shape',
          at,
          `the ${type} part has no ${want} \`${field}\``,
          value === undefined
            ? `Missing required parameter: '${path}.${field}'.`
            : `Invalid type for '${path}.${field}': expected ${want}, but got ${describe(value)} instead.`,
        ),
      );
    };
    if (type === 'text' || type === 'refusal') {
      if (typeof p[type] !== 'string') bad(type, p[type], 'a string');
      return;
    }
    const spec = PART_FIELDS[type];
    if (!spec) return;
    const inner = p[spec.field];
    if (!isObject(inner)) return bad(spec.field, inner, 'an object');
    for (const s of spec.strings) {
      if (typeof inner[s] !== 'string') bad(`${spec.field}.${s}`, inner[s], 'a string');
    }
  });
  return out;
}

/** Tool messages answer the calls of the assistant message right before their group, each once. */
function checkPairing(messages: readonly OpenAIMessage[]): RuleHit[] {
  const out: RuleHit[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as OpenAIMessage;
    if (m.role === 'tool') {
      out.push(
        hit(
          'openai-tool-answers-call',
          [{ message: i }],
          'tool message does not follow an assistant message with tool_calls',
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        ),
      );
      i++;
      continue;
    }
    const at = i++;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const ids = m.tool_calls.map((c) => c.id);
    const dups = [...new Set(ids.filter((id, k) => ids.indexOf(id) !== k))];
    if (dups.length > 0) {
      out.push(
        hit(
          'openai-call-ids-unique',
          [{ message: at }],
          `assistant message calls ${dups.join(', ')} more than once`,
          'the tool_call ids of one assistant message must be unique',
          true,
        ),
      );
    }
    const pending = new Set(ids);
    const answeredAt = new Map<string, number>();
    while (i < messages.length && (messages[i] as OpenAIMessage).role === 'tool') {
      const id = (messages[i] as OpenAIMessage).tool_call_id;
      if (typeof id === 'string' && pending.delete(id)) answeredAt.set(id, i);
      else {
        const first = typeof id === 'string' ? answeredAt.get(id) : undefined;
        out.push(
          hit(
            'openai-tool-answers-call',
            [{ message: i }],
            first !== undefined
              ? `tool message answers call ${String(id)} again (first answered at messages[${first}])`
              : `tool message answers ${typeof id === 'string' ? `call ${id}, which is` : 'no call id,'} not a call of the assistant message before its group`,
            first !== undefined
              ? `Invalid parameter: Duplicate value for 'tool_call_id' of '${String(id)}', in messages[${first}] and messages[${i}].`
              : "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          ),
        );
      }
      i++;
    }
    if (pending.size > 0) {
      const list = [...pending].join(', ');
      out.push(
        hit(
          'openai-call-answered',
          [{ message: at }],
          `tool call${pending.size > 1 ? 's' : ''} ${list} of the assistant message ${pending.size > 1 ? 'have' : 'has'} no tool message right after it`,
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${list}`,
        ),
      );
    }
  }
  return out;
}

/** Every Chat Completions rule the messages break, in request order. */
export function openaiRuleHits(messages: readonly OpenAIMessage[]): RuleHit[] {
  const out: RuleHit[] = [];
  if (messages.length === 0) {
    out.push(
      hit(
        'openai-messages-nonempty',
        [],
        'the request has no messages',
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      ),
    );
  }
  messages.forEach((m, i) => {
    if (!ROLES.has(m.role)) {
      out.push(
        hit(
          'openai-role',
          [{ message: i }],
          'role must be system, developer, user, assistant or tool',
          'invalid value for the role',
          true,
        ),
      );
      return;
    }
    pushAll(out, checkContent(m, i));
    if (m.tool_calls !== undefined && m.tool_calls.length === 0) {
      out.push(
        hit(
          'openai-empty-array',
          [{ message: i }],
          'tool_calls is an empty array',
          `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
        ),
      );
    }
  });
  pushAll(out, checkPairing(messages));
  return sortHits(out, OPENAI_RULES);
}
