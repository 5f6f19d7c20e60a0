// Fuzzing as a habit (issue 12, item 8): every reader, the policy parser and the CLI take mutated
// inputs (truncations, deletions, duplicated slices, inserted syntax, control characters, a BOM,
// huge numbers and a planted canary) and must hold the promises of "bad input is normal input":
// no uncaught exception, exit codes 0/1/2 only, every diagnostic one line with a real
// file:line:column, never a quoted input in a reader's message and never PII in any output. `npm test` runs a few thousand cases;
// `npm run fuzz` multiplies them (FC_RUNS) for the nightly workflow. The seed is printed and new
// each run (test/support/fc.ts); FC_SEED=<seed> replays one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { builtinDetectors, findPii } from '../../src/core/pii/index.js';
import { DEFAULT_POLICY_YAML, parsePolicy } from '../../src/core/policy/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { TRANSCRIPT_FORMATS, type Diagnostic } from '../../src/core/types.js';
import { fakeIO } from '../cli/fake-io.js';
import { fcOptions } from '../support/fc.js';
import {
  CORPUS_FORMATS,
  FORMAT_EXTENSIONS,
  generateTranscript,
  serialize,
} from '../support/generate/index.js';

/** A value no message may ever show: an input that reaches a message is a leak. */
const CANARY = 'canary.fuzz@example.org';
const CANARY_PART = 'canary.fuzz';

const PIECES = [
  CANARY,
  `"${CANARY}"`,
  `{"${CANARY}":1}`,
  '\u0000',
  '\uFEFF',
  '\n',
  '\r\n',
  '\u2028',
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  '\\u00',
  ',',
  ':',
  '1e999',
  '-0.0e-99999',
  '99999999999999999999999',
  'null',
  '::set-output name=x::y',
  '##[error]',
  '\ud800',
  '    ',
];

type Op =
  | { op: 'insert'; at: number; piece: number }
  | { op: 'delete'; at: number; len: number }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; len: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), piece: fc.nat(PIECES.length - 1) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
);

function mutate(base: string, ops: readonly Op[]): string {
  let text = base;
  for (const o of ops) {
    const at = text.length === 0 ? 0 : o.at % (text.length + 1);
    if (o.op === 'insert') text = text.slice(0, at) + (PIECES[o.piece] as string) + text.slice(at);
    else if (o.op === 'delete') text = text.slice(0, at) + text.slice(at + o.len);
    else if (o.op === 'truncate') text = text.slice(0, at);
    else text = text.slice(0, at + o.len) + text.slice(at, at + o.len) + text.slice(at + o.len);
  }
  return text;
}

/** Small valid transcripts of every format, the material the mutations start from. */
const GENERATED = CORPUS_FORMATS.flatMap((format) =>
  [1, 2].map((seed) => ({
    text: serialize(generateTranscript(seed, { messages: 10 }).artifacts, format),
    ext: FORMAT_EXTENSIONS[format],
  })),
);

/** Formats with a fixture folder (those the generator does not write), malformed fixtures too. */
const FIXTURES = fileURLToPath(new URL('../fixtures/readers/', import.meta.url));
const FIXTURE_FORMATS = TRANSCRIPT_FORMATS.filter((f) => existsSync(path.join(FIXTURES, f)));
const FROM_FIXTURES = FIXTURE_FORMATS.flatMap((format) =>
  readdirSync(path.join(FIXTURES, format)).map((name) => ({
    text: readFileSync(path.join(FIXTURES, format, name), 'utf8'),
    ext: path.extname(name),
  })),
);

const BASES = [...GENERATED, ...FROM_FIXTURES].map((b) => ({ ...b, file: `fuzz/t${b.ext}` }));

const POLICIES = [
  DEFAULT_POLICY_YAML,
  'budget: 4000\npii:\n  detectors: [email, phone]\n  rules:\n    - { name: emp, pattern: "EMP-\\\\d{6}" }\n',
  '{"budget": 2000, "checks": {"drift": "warning"}, "pii": {"allow": ["x"]}}',
];

const DETECTORS = builtinDetectors();

/**
 * One line, a real position, and no input: a transcript's diagnostics never quote it (`never`); a
 * policy's may show a value, masked and shortened (`masked`: no detector finds anything in it).
 */
function assertOneLine(d: Diagnostic, file: string, quotes: 'never' | 'masked'): void {
  expect(d.file).toBe(file);
  expect(Number.isInteger(d.line) && d.line >= 1, 'line').toBe(true);
  expect(Number.isInteger(d.column) && d.column >= 1, 'column').toBe(true);
  for (const text of [d.message, d.hint]) {
    expect(/[\r\n\u2028\u2029]/.test(text), 'one line').toBe(false);
    if (quotes === 'never') expect(text.includes(CANARY_PART), 'no quoted input').toBe(false);
    else expect(findPii(text, DETECTORS, [], '[REDACTED_{TYPE}]'), 'no unmasked PII').toEqual([]);
  }
}

describe('fuzz: readers', () => {
  it('every mutated transcript loads or is refused with one-line positioned diagnostics', () => {
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fc.array(opArb, { minLength: 1, maxLength: 4 }), (b, ops) => {
        const base = BASES[b] as (typeof BASES)[number];
        const text = mutate(base.text, ops);
        const read = readTranscript(text, { file: base.file });
        const diagnostics = read.ok ? read.transcript.diagnostics : read.diagnostics;
        if (!read.ok) expect(diagnostics.length).toBeGreaterThan(0);
        for (const d of diagnostics) assertOneLine(d, base.file, 'never');
      }),
      fcOptions(2000),
    );
  });
});

describe('fuzz: policy parser', () => {
  it('every mutated policy parses or is refused with one-line positioned diagnostics', () => {
    fc.assert(
      fc.property(fc.nat(POLICIES.length - 1), fc.array(opArb, { minLength: 1, maxLength: 4 }), (p, ops) => {
        const text = mutate(POLICIES[p] as string, ops);
        const result = parsePolicy(text, { file: 'fuzz/policy.yml' });
        if (!result.ok) expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
        for (const d of result.diagnostics) assertOneLine(d, 'fuzz/policy.yml', 'masked');
      }),
      fcOptions(1000),
    );
  });
});

describe('fuzz: the CLI in process', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cs-fuzz-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // `inspect` and `stabilize` print ids and names by design; what they print holds no PII (an id
  // holding some is an alias). A canary the mutations broke is no PII, and may be shown.
  it('stabilize and inspect exit 0, 1 or 2 and never print PII', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(BASES.length - 1),
        fc.array(opArb, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('stabilize', 'inspect'),
        async (b, ops, command) => {
          const base = BASES[b] as (typeof BASES)[number];
          const file = `t${base.ext}`;
          await writeFile(path.join(dir, file), mutate(base.text, ops));
          const io = fakeIO(dir, {});
          const code = await main([command, file], io);
          expect([0, 1, 2]).toContain(code);
          expect(findPii(io.out() + io.err(), DETECTORS, [], '[REDACTED_{TYPE}]')).toEqual([]);
          expect(io.err()).not.toMatch(/\n\s+at /); // no stack trace
        },
      ),
      fcOptions(40),
    );
  });
});
