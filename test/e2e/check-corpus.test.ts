// End-to-end over the recorded corpus (read-only, outside the project): a copy in a temp folder
// gets its goldens from `update`, and `check --ci` then reports every transcript the way `stabilize`
// does (issue 9: a green check means the context works). Supported files pass unless a check of
// severity error fails on their context (recorded in corpus-expectations.ts); stabilizing real
// sessions is deterministic and their goldens hold no absolute paths. Recordings whose format has
// no reader yet (issue 13) are errors (exit 2) that stop nothing else and quote nothing. Through the
// built CLI (`bin/context-stability.js` → build/) as a child process (runBuilt): update and `check
// --ci --format json .` over the whole copy, and check's text output for the first file awaiting a
// reader; the other runs are in-process (runInProcess, `main` with an in-memory IO).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import {
  CORPUS,
  HAS_CORPUS,
  awaitingEntry,
  corpusFiles,
  transcriptNames,
  unclassifiedMessage,
  warnIfNoCorpus,
} from '../support/corpus.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';
import { STABILIZE_OUTCOMES } from './corpus-expectations.js';

warnIfNoCorpus('check-corpus');

const { all, supported, awaitingReader, unclassified } = corpusFiles();
/** What `check DIR` expands (src/io/expand-inputs.ts): `.md` only when it is an aider chat history. */
const WALKED = /\.(json|jsonl|ndjson|traj|md)$/;
let work: string;

beforeAll(() => {
  if (!HAS_CORPUS) return;
  assertBuilt();
  work = mkdtempSync(path.join(tmpdir(), 'cs-check-corpus-'));
  // The recordings only: README.md, SOURCES.json and the licences are not transcripts.
  for (const rel of all) cpSync(path.join(CORPUS, rel), path.join(work, rel));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `STABILIZE_OUTCOMES` → the check names `check` must report as errors (empty: a pass). */
function failingChecks(file: string): string[] {
  const outcome = STABILIZE_OUTCOMES[file] ?? '';
  const failing = /; failing: (.+)$/.exec(outcome)?.[1];
  return failing
    ? failing
        .split(' ')
        .map((c) => c.replace(/\[.*\]$/, ''))
        .sort()
    : [];
}

function canaries(files: readonly string[]): string[] {
  return files.flatMap((f) => awaitingEntry(f)?.canaries ?? []);
}

describe.skipIf(!HAS_CORPUS)('check over the recorded corpus', () => {
  it('classifies every recording of the corpus', () => {
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
    expect(Object.keys(STABILIZE_OUTCOMES).sort()).toEqual(supported);
  });

  it('update writes a golden per supported transcript, then check --ci fails exactly where a check does', async () => {
    const walkedAwaiting = awaitingReader.filter((f) => WALKED.test(f));
    const update = await runBuilt(['update', '.'], work);
    // A file no reader accepts is an error (exit 2); the others still get their goldens.
    expect(update.code, update.stderr).toBe(walkedAwaiting.length > 0 ? 2 : 0);
    for (const file of walkedAwaiting) {
      const { code, line, column } = awaitingEntry(file)?.diagnostic ?? {};
      expect(update.stderr).toContain(`${file}:${line}:${column}: error[${code}]: `);
    }
    for (const canary of canaries(awaitingReader))
      expect(update.stdout + update.stderr).not.toContain(canary);

    const check = await runBuilt(['check', '--ci', '--format', 'json', '.'], work);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.transcripts.map((t) => t.transcript).sort()).toEqual(
      [...supported.flatMap(transcriptNames), ...walkedAwaiting].sort(),
    );
    const outcomes = Object.fromEntries(
      report.transcripts.map((t) => [
        t.transcript,
        `${t.outcome}${t.violations
          .filter((v) => v.severity === 'error')
          .map((v) => ` ${v.check}`)
          .filter((c, i, list) => list.indexOf(c) === i)
          .sort()
          .join('')}`,
      ]),
    );
    const expected = Object.fromEntries([
      ...supported.flatMap((f) => {
        const failing = failingChecks(f);
        return transcriptNames(f).map((name) => [
          name,
          failing.length === 0 ? 'pass' : `violations ${failing.join(' ')}`,
        ]);
      }),
      ...walkedAwaiting.map((f) => [f, 'error']),
    ]);
    expect(outcomes).toEqual(expected);
    expect(report.obsolete).toEqual([]);
    expect(check.code).toBe(
      walkedAwaiting.length > 0 ? 2 : supported.some((f) => failingChecks(f).length > 0) ? 1 : 0,
    );
    for (const canary of canaries(awaitingReader)) expect(check.stdout + check.stderr).not.toContain(canary);

    // Without the refused files, the exit code is the findings' alone: 1 when a check fails.
    const supportedOnly = await runInProcess(['check', '--ci', '--format', 'json', ...supported], work);
    expect(supportedOnly.code, supportedOnly.stderr).toBe(
      supported.some((f) => failingChecks(f).length > 0) ? 1 : 0,
    );

    const goldens = readdirSync(path.join(work, 'golden'), {
      recursive: true,
      encoding: 'utf8',
    }).filter((f) => f.endsWith('.golden.json'));
    expect(goldens.sort()).toEqual(
      supported
        .flatMap(transcriptNames)
        .map((f) => `${f.split('/').join(path.sep)}.golden.json`)
        .sort(),
    );
    for (const file of goldens)
      expect(readFileSync(path.join(work, 'golden', file), 'utf8')).not.toContain(work);
  });

  it.each(awaitingReader)('%s: check names it alone and exits 2 with its diagnostic', async (file) => {
    const { code, line, column } = awaitingEntry(file)?.diagnostic ?? {};
    // The first one through the built bin (check's text output), the others in-process.
    const run = file === awaitingReader[0] ? runBuilt : runInProcess;
    const check = await run(['check', '--ci', file], work);
    expect(check.code).toBe(2);
    expect(check.stdout + check.stderr).toContain(`${file}:${line}:${column}: error[${code}]: `);
    expect(check.stderr).not.toMatch(/\n\s+at /);
    for (const canary of awaitingEntry(file)?.canaries ?? [])
      expect(check.stdout + check.stderr).not.toContain(canary);
  });
});
