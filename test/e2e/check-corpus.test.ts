// End-to-end over the recorded corpus (read-only, outside the project): a copy in a temp folder
// gets its goldens from `update`, and `check --ci` then passes on every transcript — stabilizing
// real sessions is deterministic, and their goldens hold no absolute paths.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { REPO, assertBuilt, runBuilt } from './check-cli.js';

const CORPUS = path.resolve(REPO, '../shared/corpus');
const HAS_CORPUS = existsSync(CORPUS);
if (!HAS_CORPUS) console.warn(`check-corpus: ${CORPUS} is absent; the corpus check tests are skipped.`);

const FOLDERS = ['anthropic-messages', 'claude-code', 'openai-chat', 'swe-agent'];
let work: string;

beforeAll(() => {
  if (!HAS_CORPUS) return;
  assertBuilt();
  work = mkdtempSync(path.join(tmpdir(), 'cs-check-corpus-'));
  for (const folder of FOLDERS)
    cpSync(path.join(CORPUS, folder), path.join(work, folder), { recursive: true });
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!HAS_CORPUS)('check over the recorded corpus', () => {
  it('update writes a golden per transcript, then check --ci passes on all of them', async () => {
    const update = await runBuilt(['update', '.'], work);
    expect(update.code, update.stderr).toBe(0);
    const check = await runBuilt(['check', '--ci', '--format', 'json', '.'], work);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.transcripts.length).toBeGreaterThanOrEqual(15);
    expect(new Set(report.transcripts.map((t) => t.transcript.split('/')[0]))).toEqual(new Set(FOLDERS));
    expect(
      report.transcripts.filter((t) => t.outcome !== 'pass').map((t) => [t.transcript, t.outcome]),
    ).toEqual([]);
    expect(report.obsolete).toEqual([]);
    expect(check.code).toBe(0);

    const goldens = readdirSync(path.join(work, 'golden'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.golden.json'),
    );
    expect(goldens).toHaveLength(report.transcripts.length);
    for (const file of goldens)
      expect(readFileSync(path.join(work, 'golden', file), 'utf8')).not.toContain(work);
  });
});
