// A transcript that tries to inject workflow commands through its ids and content (`::set-output`,
// `::add-mask::`, `##[error]`, newlines, CRLF, percent-encoded newlines, a guessed stop token):
// the runner must find no command of the transcript's in the log.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../support/fake-github.js';
import type { FakeGitHub } from '../support/fake-github.js';
import {
  ensureDist,
  makeWorkspace,
  pullRequestEvent,
  runDist,
  runInProcess,
  removeTempDirs,
} from './support.js';
import type { RunResult } from './support.js';

/** Commands the action itself issues; anything else outside a stop-commands block was injected. */
const OWN_COMMANDS = new Set(['error', 'warning', 'notice', 'group', 'endgroup', 'stop-commands']);

let fake: FakeGitHub;
let workspace: string;
let run: RunResult;

beforeAll(async () => {
  ensureDist();
  fake = await startFakeGitHub();
  workspace = await makeWorkspace({ inject: true });
  // The goldens are written in this process; the check under test is the bundle as a process.
  const update = await runInProcess({
    workspace,
    inputs: { mode: 'update', transcripts: 'transcripts/inject.jsonl', policy: 'policy.yml' },
  });
  expect(update.code).toBe(0);
  // A budget below what the protected artifacts need: drift at the injected ids and a budget violation.
  await writeFile(path.join(workspace, 'tiny.yml'), 'version: 1\nbudget: 30\nkeep_recent: 1\n');
  run = await runDist({
    workspace,
    apiUrl: fake.url,
    event: pullRequestEvent(12),
    inputs: { transcripts: 'transcripts/inject.jsonl', policy: 'tiny.yml' },
  });
});

afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

describe('action: workflow command injection from a transcript', () => {
  it('runs the check: the step fails for the drift', () => {
    expect(run.code).toBe(1);
    expect(run.outputs['drifted']).toBe('1');
  });

  it('issues no command but its own outside stop-commands blocks, on stdout and stderr', () => {
    const names = run.log.commands.map((c) => c.name);
    expect(names.filter((n) => !OWN_COMMANDS.has(n))).toEqual([]);
    expect(run.log.outside.filter((line) => line.includes('##['))).toEqual([]);
    expect(run.stderr.split('\n').filter((l) => l.trimStart().startsWith('::') || l.includes('##['))).toEqual(
      [],
    );
    // The transcript's forged annotation never became a command of its own.
    expect(run.log.annotations.some((a) => a.file === 'forged.ts')).toBe(false);
    expect(run.outputs).toEqual(
      expect.not.objectContaining({ x: expect.anything() as unknown, leak: expect.anything() as unknown }),
    );
    expect(Object.keys(run.outputs).sort()).toEqual([
      'checked',
      'comment-url',
      'drifted',
      'errors',
      'html-path',
      'new',
      'obsolete',
      'passed',
      'report-path',
      'status',
      'violations',
    ]);
  });

  it('prints the text report inside stop-commands blocks with fresh random tokens', () => {
    const report = run.log.blocks.find((b) => b.includes('DRIFT      transcripts/inject.jsonl'));
    expect(report).toBeDefined();
    // The injected lines are in the log for the reader, where the runner runs none of them.
    // The id is shown escaped: its newline can no longer start a command line.
    expect(report).toContain('u1\\n::error file=forged.ts,line=1::forged annotation');
    expect(report).toContain('::add-mask::a1');
    const tokens = run.log.commands
      .filter((c) => c.name === 'stop-commands')
      .map((c) => c.raw.split('::')[2]);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token).toMatch(/^context-stability-[0-9a-f]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Outside the blocks, transcript strings appear only as escaped annotation data.
    const plain = run.log.outside.filter((line) => !/^::(error|warning|notice)[ :]/.test(line));
    for (const line of plain) expect(line).not.toMatch(/forged|set-output|add-mask/);
  });

  it('annotates the injected ids as escaped data at their own lines', () => {
    // One drift annotation, at the first changed artifact: the injected u1, as data.
    const drift = run.log.annotations.filter((a) => a.title?.startsWith('context-stability drift'));
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({
      file: 'transcripts/inject.jsonl',
      line: 3,
      title: 'context-stability drift: u1\n::error file=forged.ts,line=1::forged annotation',
    });
    expect(drift[0]?.message).toMatch(
      /^First change: u1\n::error file=forged\.ts,line=1::forged annotation \(line 3\): /,
    );
    // Escaped, every annotation is one physical line of the log.
    const raw = run.log.commands.filter((c) => c.name === 'error').map((c) => c.raw);
    expect(raw.some((line) => line.includes('u1%0A%3A%3Aerror file=forged.ts%2Cline=1'))).toBe(true);
    expect(
      raw.some((line) => line.includes('First change: u1%0A::error file=forged.ts,line=1::forged')),
    ).toBe(true);
    for (const line of raw) expect(line).not.toMatch(/[\r\n]/);
  });

  it('keeps the injected strings inert in the summary and the comment', () => {
    // Only the report's own tags, without attributes: nothing of the transcript's is markup.
    expect(run.summary).not.toMatch(/<(?!\/?(details|summary|code|sub)>)[a-z]/i);
    expect(run.summary).toContain('**transcripts/inject.jsonl** — ❌ drift');
    expect(run.summary).toContain('##&#91;error&#93;forged-task');
    const comment = fake.comments[0]?.body ?? '';
    expect(comment).toContain('transcripts/inject.jsonl');
    expect(comment).not.toContain('@');
  });
});
