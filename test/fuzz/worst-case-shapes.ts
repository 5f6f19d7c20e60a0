// Worst-case transcript shapes for the stabilizer's stages (issue 34: every stage linear in its
// input), as native JSONL of about `bytes` bytes. Each aims at what one stage does per item: a
// long run of one character (tokenizer, excerpts, masking), many hits in one literal (PII masking
// of a JSON output), nesting at the parser's cap (JSON outputs walked field by field), many tiny
// messages (per-artifact work: scope, protect, budget, order, ledger), many calls with near-identical
// outputs (dedup and similarity), failed retries of one command (collapse), many phases and
// summaries (scope, summaries), one huge message.
import { DEFAULT_MAX_DEPTH } from '../../src/core/json/parse.js';
import { MAX_RECORD_CHARS } from '../../src/core/text/jsonl.js';

type Rec = Record<string, unknown>;

function jsonl(records: Rec[]): string {
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

const HEAD: Rec[] = [
  { id: 'sys', kind: 'system', content: 'You are a coding agent.' },
  { id: 'task', kind: 'task', content: 'Fix the failing build.' },
];

/** An assistant call and its result: one turn of a tool loop. */
function call(n: number, tool: string, args: Rec, content: string, extra: Rec = {}): Rec[] {
  return [
    {
      id: `a${n}`,
      kind: 'assistant',
      content: '',
      tool_calls: [{ id: `c${n}`, name: tool, arguments: args }],
    },
    { id: `r${n}`, kind: 'tool', tool, call_id: `c${n}`, content, ...extra },
  ];
}

/** Records repeated until the file holds about `bytes` bytes (at least one of them). */
function fill(bytes: number, make: (n: number) => Rec[], tail: Rec[] = []): string {
  const records = [...HEAD];
  let size = jsonl(records).length + jsonl(tail).length;
  for (let n = 1; size < bytes || n === 1; n++) {
    const more = make(n);
    size += jsonl(more).length;
    records.push(...more);
  }
  return jsonl([...records, ...tail]);
}

const ASK: Rec = { id: 'u-last', kind: 'user', content: 'Go on.' };

/** One tool output of a single repeated character, its record at most the reader's record cap. */
function longRun(bytes: number): string {
  const run = 'a'.repeat(Math.min(bytes, MAX_RECORD_CHARS - 200));
  return jsonl([...HEAD, ...call(1, 'bash', { command: 'cat big.log' }, run), ASK]);
}

/** Every word an e-mail address, in one JSON string of a tool output (issue 34 item 1's shape). */
function hitsInOneLiteral(bytes: number): string {
  const addresses = Array.from({ length: Math.ceil(bytes / 7) }, () => 'a@b.io').join(' ');
  return jsonl([...HEAD, ...call(1, 'search', { q: 'x' }, JSON.stringify({ result: addresses })), ASK]);
}

/** PII of every kind the built-in detectors know, in plain text across many outputs. */
function piiText(bytes: number): string {
  const line = (n: number): string =>
    `user${n}@example.com called +1 415 555 ${String(1000 + (n % 9000))} from 10.0.${n % 256}.${(n * 7) % 256}, ` +
    `card 4111 1111 1111 1111, ssn 123-45-${String(1000 + (n % 9000))}, key ghp_${'A1b2C3d4'.repeat(4)}${n}\n`;
  return fill(bytes, (n) =>
    call(
      n,
      'bash',
      { command: `grep -r user${n} logs/` },
      Array.from({ length: 20 }, (_, i) => line(n * 20 + i)).join(''),
    ),
  );
}

/** JSON tool outputs nested to the parser's depth cap, many of them. */
function deepNesting(bytes: number): string {
  const depth = DEFAULT_MAX_DEPTH - 8;
  const nested = (n: number): string =>
    `${'{"k":'.repeat(depth)}{"email":"user${n}@example.com","v":${n}}${'}'.repeat(depth)}`;
  return fill(bytes, (n) => call(n, 'api', { path: `/items/${n}` }, nested(n)));
}

/** Many one-word messages. */
function tinyMessages(bytes: number): string {
  return fill(bytes, (n) => [
    { id: `u${n}`, kind: 'user', content: 'ok' },
    { id: `a${n}`, kind: 'assistant', content: 'ok' },
  ]);
}

/** Many calls of one command whose outputs differ in one number: near duplicates for dedup. */
function nearDuplicates(bytes: number): string {
  const body = Array.from(
    { length: 12 },
    (_, i) => `line ${i}: the build step compiled module ${i} cleanly`,
  ).join('\n');
  return fill(
    bytes,
    (n) =>
      call(n, 'bash', { command: `npm run build -- --pass ${n % 7}` }, `${body}\nrun ${n} done\n`, {
        exit_code: 0,
      }),
    [ASK],
  );
}

/** One failing command retried over and over: a retry run for collapse (aggressive mode). */
function failedRetries(bytes: number): string {
  return fill(
    bytes,
    (n) =>
      call(
        n,
        'bash',
        { command: 'npm test' },
        `FAIL src/app.test.ts\n  expected 1, got ${n}\nTests: 1 failed`,
        {
          exit_code: 1,
        },
      ),
    [ASK],
  );
}

/** A phase marker every few turns, and a summary of the turns before it. */
function phasesAndSummaries(bytes: number): string {
  return fill(bytes, (n) => [
    { id: `p${n}`, kind: 'phase', scope: { task: 'build', phase: `step-${n}` }, content: `Phase ${n}.` },
    { id: `u${n}`, kind: 'user', content: `Do step ${n} of the build.` },
    ...call(n, 'bash', { command: `make step${n}` }, `step ${n} built\n`, { exit_code: 0 }),
    {
      id: `s${n}`,
      kind: 'summary',
      content: `Step ${n} is built.`,
      provenance: [`u${n}`, `r${n}`],
      scope: { task: 'build', phase: `step-${n}` },
    },
  ]);
}

/** One user message of ordinary prose, the whole size (at most the reader's record cap). */
function hugeMessage(wanted: number): string {
  const bytes = Math.min(wanted, MAX_RECORD_CHARS - 200);
  const words = ['build', 'the', 'module', 'fails', 'when', 'config', 'is', 'missing', 'retry', 'after'];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const word = `${words[(i * 7) % words.length] as string}${i % 13 === 0 ? '.\n' : ' '}`;
    parts.push(word);
    size += word.length;
  }
  return jsonl([...HEAD, { id: 'u1', kind: 'user', content: parts.join('') }]);
}

export interface Shape {
  name: string;
  /** The stages the shape aims at. */
  stages: string;
  make: (bytes: number) => string;
  /** `aggressive` runs collapse and the chatter rule. */
  mode?: 'aggressive';
}

export const SHAPES: readonly Shape[] = [
  {
    name: 'long run of one character',
    stages: 'normalize, tool output, budget (fit, excerpt)',
    make: longRun,
  },
  {
    name: 'many hits in one JSON literal',
    stages: 'pii (JSON outputs), validate pii',
    make: hitsInOneLiteral,
  },
  { name: 'PII-heavy text', stages: 'whole pipeline with every detector', make: piiText },
  {
    name: 'nesting at the depth cap',
    stages: 'pii (JSON walk), tool output (keep_fields)',
    make: deepNesting,
  },
  {
    name: 'many tiny messages',
    stages: 'scope, protect, budget, order, ledger, validate',
    make: tinyMessages,
  },
  { name: 'near-identical outputs', stages: 'dedup, similarity, families', make: nearDuplicates },
  { name: 'failed retries', stages: 'collapse, protect (families)', make: failedRetries, mode: 'aggressive' },
  { name: 'phases and summaries', stages: 'scope, summaries', make: phasesAndSummaries },
  { name: 'one huge message', stages: 'normalize (tokens), budget (fit), emit', make: hugeMessage },
];
