// Issue 34 item 4: a stored golden holding raw PII (edited by hand, or written by an older version)
// must never be shown as it is stored: not in the drift diff of any output format, the job
// summary, the PR comment, the annotations or the viewer page. The check reports such a golden
// as unusable (`golden-stored-pii`, at the golden's line; `update` rewrites it) and still tells,
// from the golden as stored, whether the context drifted.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { collectAnnotations } from '../../src/github/annotations.js';
import { buildCommentBody } from '../../src/github/comment.js';
import { buildJobSummary } from '../../src/github/summary.js';
import { runInProcess } from './check-cli.js';

// Assembled at run time, so the source holds no literal token.
const TOKEN = ['ghp_', 'Qm7vTz3k', 'Wd8rLs2p', 'Hx5nJc9b', 'Fy4gKa6e', 'Ut1o'].join('');
const CANARY = {
  email: 'stored.canary.c934@example.org',
  phone: '+44 20 7946 0934',
  ssn: '078-05-1934',
  secret: TOKEN,
};
/** Distinctive pieces of each canary: any of them in an output is a leak. */
const PIECES = [
  'stored.canary',
  'c934@',
  '7946 0934',
  '79460934',
  '7946&#32;0934',
  '078-05-1934',
  '078051934',
  TOKEN.slice(0, 14),
  TOKEN.slice(-12),
];

function leaks(text: string): string[] {
  return PIECES.filter((p) => text.includes(p));
}

const TRANSCRIPT = [
  { id: 'sys', kind: 'system', content: 'You are a careful agent.' },
  { id: 'task', kind: 'task', content: 'Rename the config loader.' },
  { id: 'u1', kind: 'user', content: 'Please rename loadConfig to readConfig everywhere.' },
  { id: 'a1', kind: 'assistant', content: 'Done: two files changed, tests pass.' },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

const GOLDEN = 'golden/t.jsonl.golden.json';
const PLANTED = `${CANARY.email} ${CANARY.phone} SSN ${CANARY.ssn} token ${CANARY.secret}`;

let dir = '';

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-stored-pii-'));
  writeFileSync(path.join(dir, 't.jsonl'), `${TRANSCRIPT}\n`);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the golden with `update`, then plants the canaries in it as a hand edit would. */
async function plantGolden(edit: (golden: Record<string, unknown>) => void): Promise<void> {
  const made = await runInProcess(['update', 't.jsonl'], dir);
  expect(made.code).toBe(0);
  const golden = JSON.parse(readFileSync(path.join(dir, GOLDEN), 'utf8')) as Record<string, unknown>;
  edit(golden);
  writeFileSync(path.join(dir, GOLDEN), `${JSON.stringify(golden, null, 2)}\n`);
}

type Item = { id: string; content: unknown };

/** The user message's content holds every canary; its id holds the email too. */
function plantInContentAndId(golden: Record<string, unknown>): void {
  const context = golden['context'] as Item[];
  const u1 = context.find((c) => c.id === 'u1') as Item;
  u1.content = `Please rename loadConfig to readConfig everywhere. ${PLANTED}`;
  u1.id = `u1-${CANARY.email}`;
  golden['note'] = PLANTED;
}

describe('a stored golden holding raw PII', () => {
  it('is shown in no output format, summary, comment, annotation or viewer page', async () => {
    await plantGolden(plantInContentAndId);
    const outputs: Record<string, string> = {};
    const codes: Record<string, number> = {};
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const run = await runInProcess(['check', 't.jsonl', '--format', format], dir);
      codes[format] = run.code;
      outputs[`${format} stdout`] = run.stdout;
      outputs[`${format} stderr`] = run.stderr;
    }
    const withFiles = await runInProcess(
      ['check', 't.jsonl', '--report', 'out/report.json', '--html', 'out/view'],
      dir,
    );
    codes['files'] = withFiles.code;
    outputs['report file'] = readFileSync(path.join(dir, 'out/report.json'), 'utf8');
    outputs['viewer page'] = readFileSync(path.join(dir, 'out/view/index.html'), 'utf8');
    const report = JSON.parse(outputs['report file']) as CheckReport;
    outputs['job summary'] = buildJobSummary(report);
    outputs['PR comment'] = buildCommentBody(report, { runUrl: 'https://example.invalid/run/1' });
    outputs['annotations'] = JSON.stringify(collectAnnotations(report));

    for (const [where, text] of Object.entries(outputs)) expect(leaks(text), where).toEqual([]);
    expect(codes).toEqual({ text: 2, json: 2, markdown: 2, github: 2, files: 2 });

    // What the check says of it: the golden is unusable, at its line, and update is the way out.
    const [o] = report.transcripts;
    expect(o?.outcome).toBe('error');
    const finding = o?.diagnostics?.find((d) => d.code === 'golden-stored-pii');
    expect(finding).toMatchObject({ severity: 'error', file: GOLDEN });
    const lines = readFileSync(path.join(dir, GOLDEN), 'utf8').split('\n');
    expect(lines[(finding?.line ?? 0) - 1]).toContain('stored.canary');
    expect(finding?.message).toMatch(/email.*phone.*secret.*ssn/);
    expect(finding?.hint).toContain('context-stability update');
    // The stored content differs from this run's (it held the values): that is drift, and it is
    // told (masked) rather than hidden.
    expect(o?.diff?.equal).toBe(false);
    expect(o?.unified).toContain('[REDACTED_EMAIL]');
    expect(outputs['text stdout']).toContain('golden-stored-pii');
  });

  it('update rewrites it from this run, and the next check passes', async () => {
    await plantGolden(plantInContentAndId);
    const run = await runInProcess(['update', 't.jsonl'], dir);
    expect(run.code).toBe(0);
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
    expect(leaks(readFileSync(path.join(dir, GOLDEN), 'utf8'))).toEqual([]);
    expect((await runInProcess(['check', 't.jsonl'], dir)).code).toBe(0);
  });

  it('a raw value where this run has its mask is drift, not hidden by masking the golden', async () => {
    // The golden as an older version wrote it: the email raw where this run writes its mask.
    writeFileSync(
      path.join(dir, 't.jsonl'),
      `${TRANSCRIPT}\n${JSON.stringify({ id: 'u2', kind: 'user', content: `Mail ${CANARY.email} please.` })}\n`,
    );
    await plantGolden((golden) => {
      for (const c of golden['context'] as Item[]) {
        if (typeof c.content === 'string') c.content = c.content.replace('[EMAIL_1]', CANARY.email);
      }
    });
    const run = await runInProcess(['check', 't.jsonl', '--format', 'json'], dir);
    const report = JSON.parse(run.stdout) as CheckReport;
    const [o] = report.transcripts;
    expect(o?.outcome).toBe('error');
    expect(o?.diff?.equal).toBe(false);
    expect(o?.diff?.contentChanged.map((c) => c.id)).toEqual(['u2']);
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
  });

  it('a golden holding only allowed values is no finding and no drift', async () => {
    writeFileSync(path.join(dir, 'policy.yml'), `version: 1\npii:\n  allow: ['${CANARY.email}']\n`);
    writeFileSync(
      path.join(dir, 't.jsonl'),
      `${TRANSCRIPT}\n${JSON.stringify({ id: 'u2', kind: 'user', content: `Mail ${CANARY.email} please.` })}\n`,
    );
    const made = await runInProcess(['update', 't.jsonl', '--policy', 'policy.yml'], dir);
    expect(made.code).toBe(0);
    expect(readFileSync(path.join(dir, GOLDEN), 'utf8')).toContain(CANARY.email);
    // A hand edit of the layout only: the stored text differs, its content does not.
    const golden = JSON.parse(readFileSync(path.join(dir, GOLDEN), 'utf8')) as unknown;
    mkdirSync(path.join(dir, 'golden'), { recursive: true });
    writeFileSync(path.join(dir, GOLDEN), JSON.stringify(golden));
    const run = await runInProcess(['check', 't.jsonl', '--policy', 'policy.yml', '--format', 'json'], dir);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.transcripts[0]?.outcome).toBe('pass');
    expect(report.transcripts[0]?.diagnostics ?? []).toEqual([]);
  });
});
