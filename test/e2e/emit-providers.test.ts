// Whatever the budget cuts, the emitted request must be accepted by the provider: every tool call
// answered, every result after its call (DESIGN §2, `--emit`). Checked in-process on every corpus
// file and on generated sessions at many budgets, and through the built CLI once per corpus file.
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePolicy } from '../../src/api/policy.js';
import type { AnthropicRequest } from '../../src/core/emit/anthropic.js';
import { emitContext } from '../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../src/core/emit/verify.js';
import type { ParsedPolicy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../src/core/types.js';
import { validateResult } from '../../src/core/validate/validate.js';
import { loadTokenizer } from '../../src/tokens/load.js';
import { generateCorpus } from '../support/generate/index.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const BIN = path.join(REPO, 'bin/context-stability.js');
const CORPUS = path.resolve(REPO, '../shared/corpus');
const HAS_CORPUS = existsSync(CORPUS);
if (!HAS_CORPUS) console.warn(`e2e emit-providers: ${CORPUS} is absent: the corpus tests are skipped.`);

const BUDGETS = [500, 1000, 2000, 4000, 8000, 12000, 20000] as const;

const corpusFiles = HAS_CORPUS
  ? readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
      .map((f) => f.split(path.sep).join('/'))
      .filter((f) => /\.(json|jsonl|traj)$/.test(f) && f !== 'SOURCES.json' && !f.startsWith('licenses/'))
      .sort()
  : [];

let tokenizer: Tokenizer;
const policies = new Map<number, ParsedPolicy>();
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
  for (const budget of BUDGETS) policies.set(budget, resolvePolicy({ budget }));
});

function read(text: string, file: string): Transcript {
  const read = readTranscript(text, { file });
  if (!read.ok) throw new Error(`${file} did not load: ${read.diagnostics.map((d) => d.code).join(', ')}`);
  return read.transcript;
}

function run(transcript: Transcript, budget: number): StabilizeResult {
  const parsed = policies.get(budget) as ParsedPolicy;
  return stabilizeTranscript(transcript, { policy: parsed.policy, tokenizer, rules: parsed.rules });
}

interface Bodies {
  openai: { messages: OpenAIMessage[] };
  anthropic: AnthropicRequest;
}

function bodies(result: StabilizeResult): Bodies {
  return {
    openai: emitContext(result.context, 'openai') as Bodies['openai'],
    anthropic: emitContext(result.context, 'anthropic') as AnthropicRequest,
  };
}

/** Provider rule violations of both emitted bodies, labelled for the failure message. */
function violations(result: StabilizeResult): string[] {
  const { openai, anthropic } = bodies(result);
  return [
    ...verifyOpenAI(openai.messages).map((v) => `openai: ${v}`),
    ...verifyAnthropic(anthropic).map((v) => `anthropic: ${v}`),
  ];
}

describe.skipIf(!HAS_CORPUS)('emitted requests over the recorded corpus, in-process', () => {
  it.each(corpusFiles)('%s: valid OpenAI and Anthropic requests at every budget', (file) => {
    const transcript = read(readFileSync(path.join(CORPUS, file), 'utf8'), file);
    for (const budget of BUDGETS) {
      const result = run(transcript, budget);
      expect(violations(result), `budget ${budget}`).toEqual([]);
      const parsed = policies.get(budget) as ParsedPolicy;
      const pairing = validateResult(transcript, result, { policy: parsed.policy, tokenizer }).find(
        (c) => c.name === 'pairing',
      );
      expect(pairing?.violations, `budget ${budget}`).toEqual([]);
    }
  });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (code === null) reject(error ?? new Error('the CLI did not exit normally'));
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.skipIf(!HAS_CORPUS)('emitted requests over the recorded corpus, through the CLI', () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(path.join(REPO, 'build/cli/commands/stabilize.js'))) {
      throw new Error('build/ has no stabilize command: run `npm run build` before the e2e tests.');
    }
    dir = await mkdtemp(path.join(tmpdir(), 'cs-emit-'));
    for (const budget of BUDGETS) {
      await writeFile(path.join(dir, `budget-${budget}.yml`), `version: 1\nbudget: ${budget}\n`);
    }
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // One budget per file, rotating, so that every budget is exercised through the CLI.
  const cases = corpusFiles.map((file, i) => [file, BUDGETS[i % BUDGETS.length] as number] as const);

  it.each(cases)(
    '%s at budget %i: --emit openai and --emit anthropic are valid requests',
    async (file, budget) => {
      const policy = path.join(dir, `budget-${budget}.yml`);
      const [openai, anthropic] = await Promise.all(
        (['openai', 'anthropic'] as const).map((format) =>
          cli(['stabilize', '--emit', format, '--policy', policy, file], CORPUS),
        ),
      );
      const expected = bodies(run(read(readFileSync(path.join(CORPUS, file), 'utf8'), file), budget));
      for (const [name, out] of [
        ['openai', openai],
        ['anthropic', anthropic],
      ] as const) {
        expect(out?.code, `${name}: ${out?.stderr ?? ''}`).toBeLessThan(2);
        expect(out?.stderr ?? '', name).not.toContain('request rule broken');
      }
      const openaiBody = JSON.parse(openai?.stdout ?? '') as Bodies['openai'];
      const anthropicBody = JSON.parse(anthropic?.stdout ?? '') as AnthropicRequest;
      expect(verifyOpenAI(openaiBody.messages)).toEqual([]);
      expect(verifyAnthropic(anthropicBody)).toEqual([]);
      // The CLI prints what the library computes for the same policy.
      expect(openaiBody).toEqual(expected.openai);
      expect(anthropicBody).toEqual(expected.anthropic);
    },
  );
});

describe('emitted requests over generated sessions, in-process', () => {
  const corpus = generateCorpus({ seed: 8_150_2024, count: 30 });

  it('covers every generated format, planted PII, and sessions the small budgets cut', () => {
    expect(new Set(corpus.map((e) => e.format)).size).toBe(5);
    expect(corpus.filter((e) => e.planted.length > 0).length).toBeGreaterThanOrEqual(20);
    const cut = corpus.filter((e) =>
      run(read(e.text, e.name), 2000).ledger.some((l) => l.action === 'dropped' && l.reason === 'budget'),
    );
    expect(cut.length).toBeGreaterThanOrEqual(20);
  });

  it.each(corpus.map((e) => [e.name, e] as const))(
    '%s: valid requests at every budget, planted PII never emitted',
    (_name, entry) => {
      const transcript = read(entry.text, entry.name);
      for (const budget of BUDGETS) {
        const result = run(transcript, budget);
        expect(violations(result), `budget ${budget}`).toEqual([]);
        const { openai, anthropic } = bodies(result);
        const emitted = JSON.stringify([openai, anthropic]);
        for (const planted of entry.planted) {
          expect(
            emitted.includes(JSON.stringify(planted.value).slice(1, -1)),
            `${planted.type} in ${planted.id}`,
          ).toBe(false);
        }
      }
    },
  );
});
