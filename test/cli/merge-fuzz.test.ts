// `merge` on untrusted report files (issue 34, items 2 and 8): shard reports can come from a fork's
// artifact. Valid shard reports are mutated (truncated, keys deleted, types changed, huge numbers,
// NaN-like values, deep nesting, long strings, negative counts, wrong enum values, duplicated
// transcripts, injected workflow commands) and merged. Whatever the file holds: no exception, exit
// 0, 1 or 2, every diagnostic one line that quotes nothing of the file, and under GitHub Actions
// no line the runner would run as a workflow command but our own annotations.
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fcOptions } from '../support/fc.js';
import { reportDir, reportText, runMerge, runnerCommands, shardReports } from './merge-reports.js';

const dir = reportDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** In every string the mutations plant: must never be quoted by a diagnostic about a file. */
const MARK = 'zq-planted';
const PAYLOADS = [
  `\u00a0::set-output name=x::${MARK}`,
  `\u3000::add-mask::${MARK}`,
  `\u2007\u205f::error::${MARK}`,
  `::warning ::${MARK}`,
  `##[error]${MARK}`,
  `${MARK}\n::error::forged`,
  `${MARK}\r\n\u1680::notice::forged`,
  `${MARK}\u0085::debug::x`,
  `${MARK}\u2028::group::x`,
  `${MARK}\u001b[31m`,
  `dana.miller@example.org ${MARK}`,
  `${'x'.repeat(30_000)}${MARK}`,
  `NaN${MARK}`,
];
/** Values a field may be changed to; `__HUGE__` and friends become bare number literals. */
const VALUES: unknown[] = [
  -1,
  -2000,
  0,
  1.5,
  1e308,
  2 ** 53 + 2,
  true,
  false,
  null,
  [],
  {},
  'NaN',
  'Infinity',
  '-0',
  '12',
  'bogus',
  '__HUGE__',
  '__NEG_HUGE__',
  '__MINUS_ZERO__',
  [1, 2, 3],
  { index: 1, total: 2 },
];
const LITERALS: Record<string, string> = { __HUGE__: '1e400', __NEG_HUGE__: '-1e400', __MINUS_ZERO__: '-0' };

type Path = (string | number)[];
type Json = Record<string | number, unknown>;

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      paths((value as Json)[key], [...at, Array.isArray(value) ? Number(key) : key], out);
    }
  }
  return out;
}

function parentOf(root: unknown, path: Path): { holder: Json; key: string | number } | null {
  if (path.length === 0) return null;
  let holder = root as Json;
  for (const key of path.slice(0, -1)) holder = holder[key] as Json;
  return { holder, key: path[path.length - 1] as string | number };
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

const KINDS = [
  'delete',
  'type',
  'number-string',
  'negative',
  'enum',
  'deep',
  'long',
  'payload',
  'add-key',
  'dup',
  'cross-dup',
] as const;
/** Fields whose value is one of a few words, and words to put there (right ones of other fields too). */
const ENUM_KEYS = new Set([
  'severity',
  'outcome',
  'status',
  'fate',
  'kind',
  'format',
  'drift_severity',
  'code',
  'session_label',
]);
const WORDS = ['bogus', 'ERROR', 'Pass', 'pass', 'warning', 'off', 'kept', 'escalated', 'openai', 'user', ''];
interface Mutation {
  kind: (typeof KINDS)[number];
  at: number;
  pick: number;
}

function mutate(report: Json, other: Json, m: Mutation): void {
  const all = paths(report);
  const target = all[m.at % all.length] as Path;
  const place = parentOf(report, target);
  const set = (value: unknown): void => {
    if (place) place.holder[place.key] = value;
  };
  const current = place ? place.holder[place.key] : report;
  const transcripts = report['transcripts'];
  switch (m.kind) {
    case 'delete':
      if (place && Array.isArray(place.holder)) place.holder.splice(place.key as number, 1);
      else if (place) delete place.holder[place.key];
      return;
    case 'type':
      set(VALUES[m.pick % VALUES.length]);
      return;
    case 'number-string':
      set(typeof current === 'number' ? String(current) : PAYLOADS[m.pick % PAYLOADS.length]);
      return;
    case 'negative':
      set(typeof current === 'number' ? -current - 1 - (m.pick % 3) : -1);
      return;
    case 'enum': {
      const enums = all.filter((p) => ENUM_KEYS.has(String(p[p.length - 1])));
      const at = parentOf(report, enums[m.at % Math.max(1, enums.length)] ?? []);
      if (at) at.holder[at.key] = WORDS[m.pick % WORDS.length];
      return;
    }
    case 'deep':
      set(nested(50 + (m.pick % 200)));
      return;
    case 'long':
      set(`${MARK}${'y'.repeat(20_000 + (m.pick % 40_000))}`);
      return;
    case 'payload':
      set(PAYLOADS[m.pick % PAYLOADS.length]);
      return;
    case 'add-key':
      if (current !== null && typeof current === 'object' && !Array.isArray(current))
        (current as Json)[PAYLOADS[m.pick % PAYLOADS.length] as string] = [...PAYLOADS, ...VALUES][
          m.at % (PAYLOADS.length + VALUES.length)
        ];
      return;
    case 'dup':
    case 'cross-dup': {
      const from = (m.kind === 'dup' ? transcripts : other['transcripts']) as unknown[];
      if (Array.isArray(transcripts) && Array.isArray(from) && from.length > 0)
        transcripts.push(structuredClone(from[m.pick % from.length]));
      return;
    }
  }
}

function serialize(report: unknown, truncateAt: number | null): string {
  let text = reportText(report);
  for (const [sentinel, literal] of Object.entries(LITERALS))
    text = text.replaceAll(`"${sentinel}"`, literal);
  return truncateAt === null ? text : text.slice(0, truncateAt % (text.length + 1));
}

const mutationArb = fc.record({ kind: fc.constantFrom(...KINDS), at: fc.nat(), pick: fc.nat() });
const caseArb = fc.record({
  which: fc.integer({ min: 0, max: 1 }),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
  truncateAt: fc.option(fc.nat(), { freq: 6 }),
  format: fc.constantFrom('text', 'json', 'markdown', 'github'),
  actions: fc.boolean(),
  verbose: fc.boolean(),
});

/** A diagnostic line (`file:line:column: severity[code]: …`) or merge's own refusal. */
const ONE_LINE = /^(.*:\d+:\d+: (error|warning)\[[^\]\n]+\]: .+|context-stability merge: .+)$/;

describe('merge on mutated shard reports', () => {
  it('never throws, exits 0, 1 or 2, says one line per bad file without quoting it, injects no command', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const reports = shardReports() as unknown as [Json, Json];
        const target = reports[c.which] as Json;
        const other = reports[1 - c.which] as Json;
        for (const m of c.mutations) mutate(target, other, m);
        const files = {
          's1.json': c.which === 0 ? serialize(target, c.truncateAt) : reportText(reports[0]),
          's2.json': c.which === 1 ? serialize(target, c.truncateAt) : reportText(reports[1]),
        };
        const args = ['--format', c.format, ...(c.verbose ? ['--verbose'] : [])];
        const run = await runMerge(dir, files, args, c.actions ? { GITHUB_ACTIONS: 'true' } : {});

        expect([0, 1, 2]).toContain(run.code);
        const errLines = run.stderr.split('\n').filter((l) => l !== '');
        for (const line of errLines) expect(line).toMatch(ONE_LINE);
        // What merge says about the files themselves quotes nothing of them.
        const aboutFiles = errLines.filter(
          (l) => /^(s1|s2)\.json:/.test(l) || l.startsWith('context-stability merge:'),
        );
        for (const line of aboutFiles) expect(line).not.toContain(MARK);
        if (run.code === 2 && run.stdout === '') {
          expect(aboutFiles.length).toBeGreaterThan(0);
          expect(run.stderr).not.toContain(MARK);
        }
        if (c.actions) expect(runnerCommands(`${run.stdout}\n${run.stderr}`)).toEqual([]);
      }),
      fcOptions(100),
    );
  }, 120_000);

  it('shows every string of a valid report without handing the runner a command, in every format', async () => {
    // Strings the contract allows (no control characters), placed where a name, id or message goes
    // (not where the contract wants one of a few words).
    const names = PAYLOADS;
    const stringPaths = (report: Json): Path[] => {
      return paths(report).filter((p) => {
        const place = parentOf(report, p);
        return (
          place !== null && typeof place.holder[place.key] === 'string' && !ENUM_KEYS.has(String(place.key))
        );
      });
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ which: fc.integer({ min: 0, max: 1 }), at: fc.nat(), pick: fc.nat() }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom('text', 'json', 'markdown', 'github'),
        fc.boolean(),
        async (edits, format, verbose) => {
          const reports = shardReports() as unknown as [Json, Json];
          let diffEdited = false;
          edits.forEach((e, i) => {
            const all = stringPaths(reports[e.which] as Json);
            const path = all[e.at % all.length] as Path;
            // Unique, so that two transcripts never get one name; what identifies the run (tool,
            // policy, golden folder and files) is the same in every shard.
            const value = `${names[e.pick % names.length]}-${i}`;
            const targets = path[0] === 'transcripts' ? [reports[e.which]] : reports;
            diffEdited ||= path[path.length - 1] === 'unified';
            for (const report of targets) {
              const place = parentOf(report, path);
              if (place) place.holder[place.key] = value;
            }
          });
          const files = { 's1.json': reportText(reports[0]), 's2.json': reportText(reports[1]) };
          const args = ['--format', format, ...(verbose ? ['--verbose'] : [])];
          const run = await runMerge(dir, files, args, { GITHUB_ACTIONS: 'true' });
          expect([0, 1, 2]).toContain(run.code);
          // Merged and shown: the report's strings reached the output. A unified diff may not
          // hold a line starting with `::` (no diff of two goldens does): that file is refused.
          if (diffEdited && run.stdout === '') expect(run.stderr).toMatch(/\.unified must be a/);
          else expect(run.stdout, run.stderr).not.toBe('');
          for (const line of run.stderr.split('\n').filter((l) => l !== '')) expect(line).toMatch(ONE_LINE);
          expect(runnerCommands(`${run.stdout}\n${run.stderr}`)).toEqual([]);
        },
      ),
      fcOptions(100),
    );
  }, 120_000);
});
