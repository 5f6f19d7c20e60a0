// Every reader fixture of the agent-framework formats that is not deliberately malformed, stabilized
// under a budget that keeps everything, is written as a request each target takes (parts.ts): the
// `provider` check passes for --emit openai, anthropic and responses, the body passes the
// verifier (a Responses body: its item and part types), and the ledger's emit notes are the chosen
// emitter's. A fixture that cannot make a request for another reason is listed with what fails.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/api/policy.js';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import { emitContext } from '../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import type { ResponsesRequest } from '../../src/core/emit/responses.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import type { ParsedPolicy } from '../../src/core/policy/index.js';
import { CALL_OUTPUT, MODEL_ITEMS } from '../../src/core/readers/responses-items.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { failingChecks } from '../../src/core/report/report.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { REPO } from '../support/corpus.js';

const ROOT = path.join(REPO, 'test/fixtures/readers');
const DIRS = ['vercel-ai', 'langchain', 'gemini', 'openhands', 'responses', 'codex', 'claude-web'];
const TARGETS = ['openai', 'anthropic', 'responses'] as const;
type Target = (typeof TARGETS)[number];

/** Deliberately malformed fixtures (the readers refuse them): not requests to write. */
const MALFORMED = /^malformed\./;
const FIXTURES = DIRS.flatMap((d) =>
  readdirSync(path.join(ROOT, d))
    .filter((f) => !MALFORMED.test(f))
    .map((f) => `${d}/${f}`),
);

/**
 * Fixtures whose request fails for a reason other than part shapes: the failing checks (and the
 * provider rules) per target. None today: responses/response.json, a response object whose one
 * function call has no output, failed `nonempty` until issue 31; its call is now pending, and the
 * assistant turn stays with a note that says so.
 */
const KNOWN: Readonly<Record<string, Readonly<Record<Target, string[]>>>> = {};

const INPUT_PARTS = new Set(['input_text', 'input_image', 'input_file']);
const OUTPUT_PARTS = new Set(['output_text', 'refusal']);
const ITEMS = new Set(['message', ...MODEL_ITEMS, ...CALL_OUTPUT.keys(), ...CALL_OUTPUT.values()]);

/** What the Responses API would refuse in a body: unknown item types, parts a role cannot send. */
function responsesIssues(body: ResponsesRequest): string[] {
  const out: string[] = [];
  const parts = (where: string, value: unknown, allowed: ReadonlySet<string>): void => {
    if (typeof value === 'string') return;
    if (!Array.isArray(value)) return void out.push(`${where}: content is neither a string nor parts`);
    value.forEach((p: { type?: unknown }, j) => {
      if (typeof p.type !== 'string' || !allowed.has(p.type))
        out.push(`${where}[${j}]: a ${String(p.type)} part`);
    });
  };
  body.input.forEach((item, i) => {
    const where = `input[${i}]`;
    if (!ITEMS.has(item.type)) return void out.push(`${where}: a ${item.type} item`);
    if (item.type === 'reasoning' && !Array.isArray(item['summary']))
      out.push(`${where}: reasoning without summary`);
    if (item.type === 'message')
      parts(`${where}.content`, item['content'], item['role'] === 'assistant' ? OUTPUT_PARTS : INPUT_PARTS);
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
      parts(`${where}.output`, item['output'], INPUT_PARTS);
  });
  return out;
}

function bodyIssues(target: Target, body: unknown): string[] {
  if (target === 'openai') return verifyOpenAI((body as { messages: OpenAIMessage[] }).messages);
  if (target === 'anthropic') return verifyAnthropic(body as AnthropicRequest);
  return responsesIssues(body as ResponsesRequest);
}

let tokenizer: Tokenizer;
let parsed: ParsedPolicy;
beforeAll(async () => {
  parsed = resolvePolicy({ budget: 20000 });
  tokenizer = await loadTokenizer(parsed.policy.tokenizer);
});

describe('reader fixtures → every target API (parts.ts)', () => {
  it('finds the fixtures', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(12);
    for (const d of DIRS) expect(FIXTURES.some((f) => f.startsWith(`${d}/`))).toBe(true);
  });

  for (const fixture of FIXTURES) {
    for (const target of TARGETS) {
      it(`${fixture} --emit ${target}`, () => {
        const read = readTranscript(readFileSync(path.join(ROOT, fixture), 'utf8'), { file: fixture });
        if (!read.ok)
          throw new Error(`${fixture} did not load: ${read.diagnostics.map((d) => d.code).join(', ')}`);
        const transcript = read.transcript;
        const opts = { policy: parsed.policy, tokenizer, rules: parsed.rules, emit: target };
        const result = stabilizeTranscript(transcript, opts);
        const checks = validateResult(transcript, result, opts);
        const failing = failingChecks(checks).flatMap((c) =>
          c.name === 'provider'
            ? [...new Set(c.violations.map((v) => /request rule ([a-z0-9-]+):/.exec(v.message)?.[1]))].map(
                (rule) => `provider: ${String(rule)}`,
              )
            : [c.name],
        );
        const known = KNOWN[fixture]?.[target] ?? [];
        expect(failing, 'failing checks').toEqual(known);
        if (known.length > 0) return;
        expect(
          bodyIssues(target, emitContext(result.context, target, transcript)),
          'the request body',
        ).toEqual([]);
        // The notes are the chosen emitter's.
        const notes = result.ledger.flatMap((e) => e.emit ?? []);
        expect(notes.filter((n) => !n.startsWith(`${target}: `))).toEqual([]);
      });
    }
  }
});
