// Canary PII for the leak test (pii-canary.test.ts): one value of every default detector type per
// planted field, the transcripts of every format with a canary in every field the readers keep,
// a policy whose invalid values hold canaries, and the search that finds a canary (or a
// distinctive piece of one) in any output, naming the field it was planted in, never the value.
//
// Every planted field gets a site number i; its canaries carry the code C = 100 + i (email
// `canary.leak.c<C>@…`, phone `+44 20 7946 0<C>`, SSN `078-05-1<C>`, card `4539 1488 3<C>…`,
// IBAN `GBxx WEST 1234 569<C>…`, IP `203.0.113.<i>`, a GitHub token whose body holds <C>), so a
// hit in an output names its format and field family.

export const CANARY_TYPES = ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'] as const;
export type CanaryType = (typeof CANARY_TYPES)[number];
export const FORMATS = ['native', 'openai', 'anthropic', 'claude-code', 'native-invalid', 'policy'] as const;
export type Fmt = (typeof FORMATS)[number];

export interface Site {
  index: number;
  format: Fmt;
  family: string;
}

const SITES: Site[] = [];
/** Every planted field, in planting order (site i at [i - 1]). */
export const ALL_SITES: readonly Site[] = SITES;

function site(format: Fmt, family: string): number {
  const index = SITES.length + 1;
  if (index > 255) throw new Error('too many sites: the IPv4 canary holds the index in one octet');
  SITES.push({ index, format, family });
  return index;
}

export function siteOf(index: number): Site | undefined {
  return SITES[index - 1];
}

// Assembled at run time: the source holds no literal token.
const SECRET_STEM = ['Cq7w', 'Zk4p', 'Rn2x'].join('');

function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

function ibanCheck(country: string, bban: string): string {
  const digits = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of digits) rem = (rem * 10 + Number(ch)) % 97;
  return String(98 - rem).padStart(2, '0');
}

const group4 = (s: string): string => s.replace(/(.{4})(?=.)/g, '$1 ');

/** The canaries of site i, one per detector type. */
export function canaries(i: number): Record<CanaryType, string> {
  const c = String(100 + i);
  const card = `453914883${c}467`;
  const bban = `WEST1234569${c}7654`;
  return {
    email: `canary.leak.c${c}@example.org`,
    phone: `+44 20 7946 0${c}`,
    ssn: `078-05-1${c}`,
    credit_card: group4(card + luhnDigit(card)),
    iban: group4(`GB${ibanCheck('GB', bban)}${bban}`),
    ip_address: `203.0.113.${i}`,
    secret: `ghp_${SECRET_STEM}${c}${'x7Yq'.repeat(6)}`,
  };
}

const WORDS =
  'amber basil cedar delta ember fjord grove harbor iris juniper kelp lotus maple nutmeg olive pine';

/** Three words unique to site i: masked payloads must not be (near) duplicates, or dedup drops them. */
function tag(i: number): string {
  const words = WORDS.split(' ');
  return [i >> 8, (i >> 4) & 15, i & 15].map((d) => words[d]).join(' ');
}

/** Every canary of site i in one string (separators no detector joins across). */
export function payload(i: number): string {
  return `${tag(i)}: ${CANARY_TYPES.map((t) => canaries(i)[t]).join(' | ')}`;
}

/** A new site of `format`/`family`, and its payload. */
const plant = (format: Fmt, family: string): string => payload(site(format, family));

/** Stands for `@` written as the JSON escape `\u0040` (replaced once the JSON text is written). */
const AT = '~AT~';
const escapeAt = (json: string): string => json.replaceAll(AT, '\\u0040');
/** JSON text of `value` (tool arguments and outputs are JSON inside JSON). */
const js = (value: unknown): string => escapeAt(JSON.stringify(value));

/** A JSON object with a canary as values, as keys, nested, in a list and with `@` escaped. */
function jw(f: Fmt, family: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const p = plant(f, family);
  return {
    ...extra,
    query: p,
    [plant(f, `${family}: key`)]: { contact: p, list: [p] },
    escaped: p.replace('@', AT),
  };
}

export interface Fixture {
  format: Fmt;
  file: string;
  text: string;
}

function native(): Fixture {
  const f = 'native' as const;
  const scope = { task: plant(f, 'scope.task'), phase: plant(f, 'scope.phase') };
  const tags = [plant(f, 'tags'), 'decision'];
  const tool = plant(f, 'tool name');
  const [callA, callB] = [1, 2].map(() => plant(f, 'tool_calls[].id / call_id'));
  const userId = plant(f, 'artifact id');
  const art = (kind: string, content: unknown, extra: Record<string, unknown> = {}) => {
    return { id: plant(f, 'artifact id'), kind, content, scope, ...extra };
  };
  const card = Number(canaries(site(f, 'tool output (JSON number)')).credit_card.replace(/ /g, ''));
  const calls = [
    { id: callA, name: tool, arguments: js(jw(f, 'arguments')) },
    { id: callB, name: tool, arguments: jw(f, 'arguments (object)') },
  ];
  const artifacts = [
    art('system', plant(f, 'system content'), { role: plant(f, 'role') }),
    art('policy', plant(f, 'policy content')),
    art('phase', plant(f, 'phase content')),
    art('task', plant(f, 'task content'), { pin: true, tags }),
    { ...art('user', [{ type: 'text', text: plant(f, 'user text part') }], { created_at: 1 }), id: userId },
    art('assistant', plant(f, 'assistant content'), { tags, tool_calls: calls }),
    art('tool', js(jw(f, 'tool output (JSON)', { card_number: card })), {
      tool,
      call_id: callA,
      exit_code: 0,
    }),
    art('tool', `Error: ${plant(f, 'tool output (plain)')}`, {
      tool,
      call_id: callB,
      is_error: true,
      exit_code: 1,
    }),
    art('tool', plant(f, 'tool output (orphan)'), {
      tool: plant(f, 'tool name'),
      call_id: plant(f, 'call_id (orphan)'),
    }),
    art('retrieval', plant(f, 'retrieval content'), { provenance: [userId], ttl: 50, created_at: 1 }),
    art('summary', plant(f, 'summary content'), { provenance: [userId, plant(f, 'provenance (dangling)')] }),
    art('summary', plant(f, 'summary content'), { provenance: [userId], ttl: 50, created_at: 1 }),
    art('assistant', plant(f, 'assistant content'), { pressure: 0.95 }),
    art('assistant', plant(f, 'assistant content'), { pressure: 0.2 }),
    art('user', plant(f, 'latest request')),
  ];
  const meta = {
    owner: plant(f, 'meta value'),
    [plant(f, 'meta key')]: 1,
    nested: { who: plant(f, 'meta value') },
  };
  return { format: f, file: 'native.json', text: JSON.stringify({ meta, artifacts }, null, 2) };
}

function openai(): Fixture {
  const f = 'openai' as const;
  const tool = plant(f, 'function name');
  const call = plant(f, 'tool_calls[].id / tool_call_id');
  const text = (family: string) => ({ type: 'text', text: plant(f, family) });
  const image = {
    type: 'image_url',
    image_url: { url: `https://example.org/a.png?who=${plant(f, 'image url')}` },
  };
  const fn = { name: tool, arguments: js(jw(f, 'arguments')) };
  const legacy = {
    name: plant(f, 'legacy function_call name'),
    arguments: js({ to: plant(f, 'legacy arguments') }),
  };
  const messages = [
    { role: 'system', content: plant(f, 'system content'), name: plant(f, 'message name') },
    { role: 'developer', content: [text('developer text part')] },
    { role: 'user', name: plant(f, 'message name'), content: [text('user text part'), image] },
    {
      role: 'assistant',
      content: [text('assistant text part'), { type: 'refusal', refusal: plant(f, 'refusal part') }],
      tool_calls: [{ id: call, type: 'function', function: fn }],
    },
    { role: 'tool', tool_call_id: call, name: tool, content: js(jw(f, 'tool output (JSON)')) },
    {
      role: 'tool',
      tool_call_id: plant(f, 'tool_call_id (orphan)'),
      content: plant(f, 'tool output (orphan)'),
    },
    { role: 'assistant', content: null, function_call: legacy },
    {
      role: 'function',
      name: plant(f, 'legacy function name'),
      content: `Error: ${plant(f, 'legacy output')}`,
    },
    { role: 'assistant', content: plant(f, 'assistant content') },
    { role: 'user', content: plant(f, 'latest request') },
  ];
  const root = { model: plant(f, 'top-level scalar (meta)'), [plant(f, 'top-level key')]: 'x', messages };
  return { format: f, file: 'openai.json', text: JSON.stringify(root, null, 2) };
}

/** Anthropic message blocks shared by the Anthropic and Claude Code fixtures. */
function blocks(f: Fmt) {
  const tool = plant(f, 'tool_use name');
  const [callA, callB] = [1, 2].map(() => plant(f, 'tool_use id / tool_use_id'));
  const text = (family: string) => ({ type: 'text', text: plant(f, family) });
  const result = (id: string | undefined, content: unknown, extra = {}) => {
    return { type: 'tool_result', tool_use_id: id, content, ...extra };
  };
  return {
    first: [text('user text block')],
    calls: [
      { type: 'thinking', thinking: plant(f, 'thinking block'), signature: 'c2lnbmF0dXJl' },
      text('assistant text block'),
      { type: 'tool_use', id: callA, name: tool, input: jw(f, 'tool_use input') },
      { type: 'tool_use', id: callB, name: tool, input: { command: plant(f, 'tool_use input') } },
    ],
    results: [
      result(callA, [{ type: 'text', text: js(jw(f, 'tool_result (JSON)')) }]),
      result(callB, `Error: ${plant(f, 'tool_result (plain, is_error)')}`, { is_error: true }),
      result(plant(f, 'tool_use_id (orphan)'), plant(f, 'tool_result (orphan)')),
      text('user text block'),
    ],
    answer: [text('assistant text block')],
    last: plant(f, 'latest request'),
  };
}

function anthropic(): Fixture {
  const f = 'anthropic' as const;
  const system = [{ type: 'text', text: plant(f, 'system block') }];
  const b = blocks(f);
  const doc = {
    type: 'document',
    source: { type: 'text', media_type: 'text/plain', data: plant(f, 'document (text source)') },
    title: plant(f, 'document title'),
  };
  const messages = [
    { role: 'user', content: [...b.first, doc] },
    { role: 'assistant', content: b.calls },
    { role: 'user', content: b.results },
    { role: 'assistant', content: b.answer },
    { role: 'user', content: b.last },
  ];
  return {
    format: f,
    file: 'anthropic.json',
    text: JSON.stringify({ model: plant(f, 'top-level scalar (meta)'), system, messages }, null, 2),
  };
}

function claudeCode(): Fixture {
  const f = 'claude-code' as const;
  const b = blocks(f);
  const sessionId = plant(f, 'sessionId');
  const uuids = [0, 1, 2, 3, 4].map(() => plant(f, 'uuid / parentUuid'));
  const rec = (n: number, type: string, content: unknown, extra = {}) => ({
    ...{ parentUuid: uuids[n - 1] ?? null, isSidechain: false, cwd: `/w/${plant(f, 'cwd')}`, sessionId },
    ...{ gitBranch: plant(f, 'gitBranch'), uuid: uuids[n], timestamp: '2025-03-14T09:12:03.120Z', type },
    message: { role: type, content, id: plant(f, 'message.id'), model: plant(f, 'message.model') },
    ...extra,
  });
  const sideChain = { isSidechain: true, uuid: plant(f, 'uuid (side chain)'), parentUuid: uuids[2] };
  const system = {
    type: 'system',
    content: plant(f, 'system record'),
    uuid: plant(f, 'uuid (system record)'),
  };
  const records = [
    { type: 'summary', summary: plant(f, 'summary record'), leafUuid: uuids[1] },
    rec(0, 'user', b.first),
    rec(1, 'assistant', b.calls, { requestId: plant(f, 'requestId') }),
    rec(2, 'user', b.results, { toolUseResult: { stdout: plant(f, 'toolUseResult') } }),
    rec(2, 'user', plant(f, 'side-chain text'), sideChain),
    { ...system, subtype: 'informational', sessionId },
    { type: plant(f, 'record type'), payload: 'x' },
    rec(3, 'assistant', b.answer),
    rec(4, 'user', b.last),
  ];
  return {
    format: f,
    file: 'claude-code.jsonl',
    text: records.map((r) => JSON.stringify(r)).join('\n') + '\n',
  };
}

/** Native JSONL whose invalid records hold canaries: diagnostics must name fields, never values. */
function nativeInvalid(): Fixture {
  const f = 'native-invalid' as const;
  const duplicate = plant(f, 'duplicate id');
  const records: Record<string, unknown>[] = [
    { kind: 'system', content: 'You help.' },
    { kind: 'user', id: duplicate, content: 'first' },
    { kind: 'user', id: duplicate, content: 'second' },
    { kind: plant(f, 'kind value'), content: 'x' },
    { kind: 'user', content: 'y', ttl: plant(f, 'ttl value'), pin: plant(f, 'pin value') },
    {
      kind: 'user',
      content: 'z',
      pressure: plant(f, 'pressure value'),
      exit_code: plant(f, 'exit_code value'),
    },
    { kind: 'user', content: 'z', created_at: plant(f, 'created_at value') },
    { kind: 'user', content: 'w', [plant(f, 'unknown field name')]: 1 },
    { kind: 'user', content: 'w', scope: { task: 1, [plant(f, 'scope key')]: 'x' } },
    {
      kind: 'assistant',
      content: 'v',
      tool_calls: [{ id: plant(f, 'tool call id (no name)'), arguments: 3 }],
    },
  ];
  const lines = [
    ...records.map((r) => JSON.stringify(r)),
    `{"kind": "user", "content": "${plant(f, 'truncated JSON line')}`,
    JSON.stringify({ meta: { owner: plant(f, 'misplaced meta') } }),
    JSON.stringify({ kind: 'user', content: 'What now?' }),
  ];
  return { format: f, file: 'native-invalid.jsonl', text: lines.join('\n') + '\n' };
}

export const FIXTURES: Fixture[] = [native(), openai(), anthropic(), claudeCode(), nativeInvalid()].map(
  (fx) => ({ ...fx, text: escapeAt(fx.text) }),
);

/** One canary per value: a diagnostic may shorten what it quotes, so each value starts with it. */
function policyText(): string {
  const c = (family: string, type: CanaryType) => canaries(site('policy', family))[type];
  return [
    'version: 1',
    `budget: "${c('budget', 'phone')}"`,
    `keep_recent: "${c('keep_recent', 'email')}"`,
    `tokenizer: "${c('tokenizer', 'ssn')}"`,
    `target: "${c('target', 'ip_address')}"`,
    `order: ["${c('order item', 'iban')}"]`,
    `"${c('unknown top-level key', 'email')}": 1`,
    'pii:',
    `  replacement: "${c('pii.replacement', 'email')}"`,
    `  allow: [{ "${c('pii.allow item (mapping key)', 'email')}": 1 }, "${c('pii.allow item', 'phone')}"]`,
    '  rules:',
    `    - { name: "${c('pii.rules[].name', 'email')}", pattern: "(${c('pii.rules[].pattern', 'phone')}" }`,
    `    - { name: ok_rule, pattern: "[${c('pii.rules[].pattern', 'secret')}" }`,
    'checks:',
    `  pii: "${c('checks.pii', 'credit_card')}"`,
    `  "${c('unknown checks key', 'phone')}": error`,
    'tool_output:',
    `  max_tokens: "${c('tool_output.max_tokens', 'secret')}"`,
    '',
  ].join('\n');
}

export const BAD_POLICY = policyText();

// ---- the search ----

export interface Hit {
  type: CanaryType;
  /** The site whose canary it is; null for a piece too short to say (e.g. the local part alone). */
  index: number | null;
  offset: number;
}

const S = '[\\s.\\-()/\\u00a0]{0,2}';
const spaced = (digits: string): string => digits.split('').join(S);
const CODE3 = `${S}(\\d)${S}(\\d)${S}(\\d)`;

const FINDERS: [CanaryType, RegExp][] = [
  ['email', /canary[\W_]{0,3}leak(?:[\W_]{0,3}c(\d)(\d)(\d))?/gi],
  ['phone', new RegExp(`${spaced('9460')}${CODE3}`, 'g')],
  ['ssn', new RegExp(`${spaced('078051')}${CODE3}`, 'g')],
  ['credit_card', new RegExp(`${spaced('45391488')}(?:${S}3${CODE3})?`, 'g')],
  ['iban', new RegExp(`WEST${S}${spaced('123456')}(?:${S}9${CODE3})?`, 'gi')],
  ['ip_address', /203\.0\.113\.(\d{1,3})/g],
  ['secret', new RegExp(`${SECRET_STEM}(?:(\\d)(\\d)(\\d))?`, 'g')],
];

/** The text as a reader would see it after JSON, HTML, URL and markdown escapes. */
function decoded(text: string): string {
  return text
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(
      /&(?:amp|commat|period|plus|lowbar);/g,
      (e) => ({ '&amp;': '&', '&commat;': '@', '&period;': '.', '&plus;': '+', '&lowbar;': '_' })[e] ?? e,
    )
    .replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Every canary piece in `text` (raw and decoded), one hit per type and site. */
export function findCanaries(text: string): Hit[] {
  const hits = new Map<string, Hit>();
  for (const view of [text, decoded(text)]) {
    for (const [type, re] of FINDERS) {
      for (const m of view.matchAll(re)) {
        const digits = m.slice(1).join('');
        const code = digits === '' ? null : Number(digits) - (type === 'ip_address' ? 0 : 100);
        const index = code !== null && siteOf(code) ? code : null;
        const key = `${type}:${index}`;
        if (!hits.has(key)) hits.set(key, { type, index, offset: m.index });
      }
    }
  }
  return [...hits.values()];
}
