// The Messages API rules a request body must keep, or Anthropic answers HTTP 400. The quoted error
// texts are the ones the API answers (as reported in public issues), with our indexes filled in.
import type { AnthropicBlock, AnthropicMessage, AnthropicRequest } from './anthropic.js';
import { anthropicPath, isObject, sortHits, type Loc, type RuleHit } from './rule-hit.js';
import { pushAll } from '../collections.js';

export const ANTHROPIC_RULES = [
  'anthropic-messages-nonempty',
  'anthropic-role',
  'anthropic-first-message-user',
  'anthropic-empty-content',
  'anthropic-empty-text',
  'anthropic-block-type',
  'anthropic-block-shape',
  'anthropic-tool-result-first',
  'anthropic-tool-use-answered',
  'anthropic-tool-result-matches-use',
  'anthropic-tool-use-ids-unique',
  'anthropic-thinking-unchanged',
] as const;
export type AnthropicRule = (typeof ANTHROPIC_RULES)[number];

/** Block types each role may send (the Messages API's content block params). */
export const ANTHROPIC_BLOCK_TYPES: Readonly<Record<'user' | 'assistant', readonly string[]>> = {
  user: ['text', 'image', 'document', 'search_result', 'tool_result', 'container_upload'],
  assistant: [
    'text',
    'thinking',
    'redacted_thinking',
    'tool_use',
    'server_tool_use',
    'web_search_tool_result',
    'web_fetch_tool_result',
    'code_execution_tool_result',
    'bash_code_execution_tool_result',
    'text_editor_code_execution_tool_result',
    'tool_search_tool_result',
    'mcp_tool_use',
    'mcp_tool_result',
    'container_upload',
  ],
};
/** Block types a tool_result's own content may hold. */
export const TOOL_RESULT_CONTENT_TYPES: readonly string[] = ['text', 'image', 'document', 'search_result'];

/** `answer` is the API's error text; `paraphrase` when we do not know its exact words. */
export function anthropicHit(
  rule: AnthropicRule,
  at: Loc[],
  words: string,
  answer: string,
  paraphrase = false,
): RuleHit {
  const where = at[0] ? `${anthropicPath(at[0])}: ` : '';
  const said = paraphrase ? answer : `"${answer}"`;
  return { rule, message: `${where}${words} (Anthropic answers 400: ${said})`, at };
}
const hit = anthropicHit;

function blocksOf(m: AnthropicMessage): AnthropicBlock[] {
  const content: unknown = m.content;
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as AnthropicBlock[]) : [];
}

const validRole = (m: AnthropicMessage | undefined): boolean => m?.role === 'user' || m?.role === 'assistant';

/** Text that is empty or only whitespace, in a block or in a tool_result's content. */
function emptyText(b: AnthropicBlock): string | undefined {
  const texts: unknown[] = [];
  if (b.type === 'text') texts.push(b['text']);
  if (b.type === 'tool_result' && Array.isArray(b['content'])) {
    for (const c of b['content'] as unknown[]) if (isObject(c) && c['type'] === 'text') texts.push(c['text']);
  }
  for (const t of texts) {
    if (t === '') return 'text content blocks must be non-empty';
    if (typeof t === 'string' && t.trim() === '')
      return 'text content blocks must contain non-whitespace text';
  }
  return undefined;
}

/** What a block of an allowed type lacks: the field and the kind of value it needs. */
function missingField(b: AnthropicBlock): [string, string] | undefined {
  const str = (f: string): boolean => typeof b[f] === 'string';
  const nonEmpty = (f: string): boolean => typeof b[f] === 'string' && b[f] !== '';
  switch (b.type) {
    case 'text':
      return str('text') ? undefined : ['text', 'a string'];
    case 'image':
    case 'document':
      return isObject(b['source']) ? undefined : ['source', 'an object'];
    case 'tool_use':
      if (!nonEmpty('id')) return ['id', 'a non-empty string'];
      if (!nonEmpty('name')) return ['name', 'a non-empty string'];
      return isObject(b['input']) ? undefined : ['input', 'an object'];
    case 'tool_result': {
      if (!nonEmpty('tool_use_id')) return ['tool_use_id', 'a non-empty string'];
      const c = b['content'];
      return c === undefined || typeof c === 'string' || Array.isArray(c)
        ? undefined
        : ['content', 'a string or an array'];
    }
    case 'thinking':
      if (!str('thinking')) return ['thinking', 'a string'];
      return str('signature') ? undefined : ['signature', 'a string'];
    case 'redacted_thinking':
      return str('data') ? undefined : ['data', 'a string'];
    default:
      return undefined;
  }
}

function checkMessage(m: AnthropicMessage, i: number, last: boolean): RuleHit[] {
  const out: RuleHit[] = [];
  const blocks = blocksOf(m);
  if (blocks.length === 0 && !(last && m.role === 'assistant')) {
    out.push(
      hit(
        'anthropic-empty-content',
        [{ message: i }],
        `${m.role} message has no content`,
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      ),
    );
  }
  const allowed = ANTHROPIC_BLOCK_TYPES[m.role];
  blocks.forEach((b, j) => {
    const at = [{ message: i, block: j }];
    const type = isObject(b) && typeof b.type === 'string' ? b.type : undefined;
    if (type === undefined || !allowed.includes(type)) {
      out.push(
        hit(
          'anthropic-block-type',
          at,
          `a ${type ?? 'untyped'} block is not allowed in ${m.role === 'assistant' ? 'an' : 'a'} ${m.role} message`,
          `${anthropicPath(at[0] as Loc)}.type: the block type must be one of ${allowed.join(', ')}`,
          true,
        ),
      );
      return;
    }
    if (type === 'tool_result' && Array.isArray(b['content'])) {
      const inner = (b['content'] as unknown[]).map((c) => (isObject(c) ? c['type'] : undefined));
      const bad = inner.find((t) => typeof t !== 'string' || !TOOL_RESULT_CONTENT_TYPES.includes(t));
      if (inner.some((t) => typeof t !== 'string' || !TOOL_RESULT_CONTENT_TYPES.includes(t))) {
        out.push(
          hit(
            'anthropic-block-type',
            at,
            `the tool_result holds a ${typeof bad === 'string' ? bad : 'untyped'} block`,
            `a tool_result's content must be ${TOOL_RESULT_CONTENT_TYPES.join(', ')} blocks`,
            true,
          ),
        );
      }
    }
    const missing = missingField(b);
    if (missing) {
      out.push(
        hit(
          'anthropic-block-shape',
          at,
          `the ${type} block's \`${missing[0]}\` is not ${missing[1]}`,
          `${anthropicPath(at[0] as Loc)}.${missing[0]}: Field required`,
          true,
        ),
      );
    }
    const empty = emptyText(b);
    if (empty !== undefined) {
      out.push(
        hit('anthropic-empty-text', at, `${type} block with empty or blank text`, `messages: ${empty}`),
      );
    }
  });
  return out;
}

/**
 * One turn as the API sees it: it combines consecutive messages of one role into a single turn, so
 * the tool rules apply to the combined turn. `at[k]` is where block k of the turn is in the request.
 */
interface Turn {
  role: 'user' | 'assistant';
  blocks: AnthropicBlock[];
  at: Loc[];
}

function turnsOf(messages: readonly AnthropicMessage[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    if (!validRole(m)) return;
    const last = turns[turns.length - 1];
    const turn = last && last.role === m.role ? last : { role: m.role, blocks: [], at: [] };
    if (turn !== last) turns.push(turn);
    blocksOf(m).forEach((b, j) => {
      turn.blocks.push(b);
      turn.at.push({ message: i, block: j });
    });
  });
  return turns;
}

function toolUses(t: Turn | undefined): Map<string, Loc> {
  const ids = new Map<string, Loc>();
  if (t?.role !== 'assistant') return ids;
  t.blocks.forEach((b, k) => {
    if (b.type === 'tool_use' && typeof b['id'] === 'string' && !ids.has(b['id']))
      ids.set(b['id'], t.at[k] as Loc);
  });
  return ids;
}

const path = (l: Loc): string => anthropicPath(l);
const messageOf = (l: Loc): string => `messages.${l.message}`;

/** tool_result blocks open the user turn; they answer the previous turn's tool_use blocks, each once. */
function checkResults(turn: Turn, prev: Turn | undefined): RuleHit[] {
  const out: RuleHit[] = [];
  const uses = toolUses(prev);
  const firstOther = turn.blocks.findIndex((b) => b.type !== 'tool_result');
  const answered = new Set<string>();
  turn.blocks.forEach((b, k) => {
    if (b.type !== 'tool_result') return;
    const at = turn.at[k] as Loc;
    if (firstOther !== -1 && k > firstOther) {
      const other = turn.at[firstOther] as Loc;
      out.push(
        hit(
          'anthropic-tool-result-first',
          [at],
          `tool_result block after a ${String(turn.blocks[firstOther]?.type)} block at ${path(other)}: tool_result blocks must come first in the user turn`,
          uses.size > 0
            ? `${messageOf(at)}: Did not find ${uses.size} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`
            : `${messageOf(at)}: tool_result blocks must come first in the user message, before any other block`,
          uses.size === 0,
        ),
      );
    }
    const id = b['tool_use_id'];
    if (typeof id === 'string' && uses.has(id) && !answered.has(id)) return void answered.add(id);
    const again = typeof id === 'string' && answered.has(id);
    out.push(
      hit(
        'anthropic-tool-result-matches-use',
        [at],
        again
          ? `tool_result answers tool_use ${id} a second time`
          : `tool_result answers ${typeof id === 'string' ? `tool_use ${id}, which is` : 'no tool_use id,'} not a tool_use of the previous assistant turn`,
        `${path(at)}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      ),
    );
  });
  return out;
}

/** tool_use blocks answered in the very next user turn, and ids unique in the whole request. */
function checkToolUse(turns: readonly Turn[]): RuleHit[] {
  const out: RuleHit[] = [];
  const seen = new Map<string, Loc>();
  turns.forEach((turn, t) => {
    turn.blocks.forEach((b, k) => {
      if (b.type !== 'tool_use' || typeof b['id'] !== 'string') return;
      const at = turn.at[k] as Loc;
      const first = seen.get(b['id']);
      if (first === undefined) return void seen.set(b['id'], at);
      out.push(
        hit(
          'anthropic-tool-use-ids-unique',
          [at, first],
          `tool_use id ${b['id']} is used again (first at ${path(first)})`,
          `${path(at)}: \`tool_use\` ids must be unique`,
        ),
      );
    });
    if (turn.role === 'user') pushAll(out, checkResults(turn, turns[t - 1]));
    const uses = toolUses(turn);
    if (uses.size === 0) return;
    const next = turns[t + 1];
    const results = new Set(
      next?.role === 'user'
        ? next.blocks.filter((b) => b.type === 'tool_result').map((b) => b['tool_use_id'])
        : [],
    );
    const missing = [...uses].filter(([id]) => !results.has(id));
    if (missing.length === 0) return;
    const list = missing.map(([id]) => id).join(', ');
    const first = missing[0]?.[1] as Loc;
    out.push(
      hit(
        'anthropic-tool-use-answered',
        missing.map(([, at]) => at),
        `tool_use ${list} ${missing.length > 1 ? 'have' : 'has'} no tool_result in the next user turn`,
        `${messageOf(first)}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${list}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      ),
    );
  });
  return out;
}

/** Every Messages API rule the request breaks that can be seen in the request alone, in order. */
export function anthropicRuleHits(req: AnthropicRequest): RuleHit[] {
  const out: RuleHit[] = [];
  const messages = Array.isArray(req.messages) ? req.messages : [];
  if (messages.length === 0) {
    out.push(
      hit(
        'anthropic-messages-nonempty',
        [],
        'the request has no messages',
        'messages: at least one message is required',
      ),
    );
  }
  messages.forEach((m, i) => {
    if (!validRole(m)) {
      out.push(
        hit(
          'anthropic-role',
          [{ message: i }],
          'role must be user or assistant',
          `messages.${i}.role: the role must be user or assistant (system text goes in the top-level system field)`,
          true,
        ),
      );
      return;
    }
    if (i === 0 && m.role !== 'user') {
      out.push(
        hit(
          'anthropic-first-message-user',
          [{ message: 0 }],
          `the first message is an ${m.role} turn`,
          'messages: first message must use the "user" role',
        ),
      );
    }
    pushAll(out, checkMessage(m, i, i === messages.length - 1));
  });
  pushAll(out, checkToolUse(turnsOf(messages)));
  return sortHits(out, ANTHROPIC_RULES);
}
