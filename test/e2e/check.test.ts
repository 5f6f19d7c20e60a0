// End-to-end: check, update and merge through the CLI in temp repositories holding the fixture
// transcripts (native JSONL and OpenAI chat) and policies of test/fixtures/check. The scenarios run
// in-process (runInProcess: `main` with an in-memory IO); one test per command and output format
// runs the built CLI (`bin/context-stability.js` → build/) as a child process (`spawned`): update
// and check's text output in 'passes when the goldens match', check's json, markdown and github
// outputs in 'json, markdown and github describe the same drift', merge in the sharding test.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { PII, TempRepo } from '../cli/check-support.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';
import type { Run } from './check-cli.js';

const GOLDENS = [
  'golden/transcripts/coding.jsonl.golden.json',
  'golden/transcripts/notes.jsonl.golden.json',
  'golden/transcripts/support.json.golden.json',
];

/** Everything any run printed, checked for PII at the end. */
const printed: string[] = [];
let repo: TempRepo;

/** One CLI run in this process. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await runInProcess(args, repo.dir, env);
  printed.push(run.stdout, run.stderr);
  return run;
}

/** One run of the built bin as a child process: the process-level runs of this file. */
async function spawned(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await runBuilt(args, repo.dir, env);
  printed.push(run.stdout, run.stderr);
  return run;
}

beforeAll(() => {
  assertBuilt();
});
beforeEach(() => {
  repo = new TempRepo();
});
afterEach(() => {
  printed.push(...Object.values(repo.tree()));
  for (const file of readdirSync(repo.dir)) if (file.endsWith('.json')) printed.push(repo.read(file));
  repo.remove();
});

describe('check and update', () => {
  it('passes when the goldens match (exit 0)', async () => {
    expect((await spawned(['update', '--policy', 'policy.yml', 'transcripts'])).code).toBe(0);
    const run = await spawned(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/^PASS /m);
    expect(run.stdout).toContain('\n3 clean passes not listed (--verbose lists every transcript).\n');
    // The whole history (330 tokens) fits the budget: nothing is cut (issue 27).
    const verbose = await spawned(['check', '--verbose', '--policy', 'policy.yml', 'transcripts']);
    expect(verbose.stdout).toMatch(/^PASS +transcripts\/coding\.jsonl {2}330\/4000 tokens$/m);
    expect(run.stdout.split('\n')[1]).toBe('0 with violations · 0 drifted · 0 new · 0 errors · 3 passed');
    expect(run.stdout).toContain(
      '3 transcripts checked: 0 with violations, 0 drifted, 0 new, 0 errors, 3 passed',
    );
    expect(run.stdout).not.toContain('note:');
  });

  it('reports drift after a policy edit: semantic diff naming the artifact and the cause, then the unified diff', async () => {
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const goldens = repo.tree();
    repo.write('policy.yml', repo.read('policy-tight.yml'));
    const run = await cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^DRIFT +transcripts\/coding\.jsonl/m);
    // Under the headline: the first change and the command that accepts it, then the semantic
    // diff (cause, then each artifact's fate), then the unified diff. Issue 27: over 260 tokens the
    // stale npm test result leaves (superseded), and the conversation is kept from the stable cut
    // point: u1, a recent turn older than it, leaves with its step (degraded, status warning).
    const first = run.stdout.indexOf(
      '  first change: u1 (line 3): masked (pii, 32 tokens) → dropped (degraded, 0 tokens)',
    );
    const accept = run.stdout.indexOf(
      '  accept the change: npx context-stability update transcripts/coding.jsonl --policy policy.yml',
    );
    const diff = run.stdout.indexOf('  semantic diff of golden/transcripts/coding.jsonl.golden.json:');
    const cause = run.stdout.indexOf('cause: policy changed', diff);
    const semantic = run.stdout.indexOf(
      'u1 (line 3): masked (pii, 32 tokens) → dropped (degraded, 0 tokens)',
      diff,
    );
    const unified = run.stdout.indexOf('--- a/golden/transcripts/coding.jsonl.golden.json');
    expect(first).toBeGreaterThan(0);
    expect(accept).toBeGreaterThan(first);
    expect(diff).toBeGreaterThan(accept);
    expect(cause).toBeGreaterThan(diff);
    expect(semantic).toBeGreaterThan(cause);
    expect(unified).toBeGreaterThan(semantic);
    // The other two keep their context under the tighter budget: they pass, with a note.
    expect(run.stdout).toMatch(
      /^PASS +transcripts\/notes\.jsonl .*\n {2}note: policy changed, budget limit; this context is unchanged \(`update` refreshes the golden\)$/m,
    );
    expect(run.stdout).toContain('+++ b/golden/transcripts/coding.jsonl.golden.json');
    expect(repo.tree()).toEqual(goldens);
  });

  it('writes a missing golden outside CI (new, exit 0)', async () => {
    const run = await cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^NEW +transcripts\/notes\.jsonl .*golden written: golden\/transcripts\/notes\.jsonl\.golden\.json$/m,
    );
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
  });

  it.each([
    ['--ci', ['--ci'], {}],
    ['CI=true', [], { CI: 'true' }],
  ])(
    'in CI (%s) a missing golden fails (exit 1) and nothing is written, not even a temp file',
    async (_, args, env) => {
      const run = await cli(['check', ...args, '--policy', 'policy.yml', 'transcripts'], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('CI mode');
      expect(run.stdout).toMatch(/^NEW +transcripts\/coding\.jsonl .*no golden \(CI: nothing is written/m);
      expect(existsSync(repo.path('golden'))).toBe(false);
      expect(readdirSync(repo.dir).sort()).toEqual(['policy-tight.yml', 'policy.yml', 'transcripts']);
    },
  );

  it('lists obsolete goldens, and only update --prune-obsolete removes them', async () => {
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    rmSync(repo.path('transcripts/support.json'));
    const check = await cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(
      /Obsolete goldens.*\n {2}golden\/transcripts\/support\.json\.golden\.json\n/,
    );
    const update = await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(update.stdout).toContain('obsolete golden/transcripts/support.json.golden.json (kept');
    expect(existsSync(repo.path('golden/transcripts/support.json.golden.json'))).toBe(true);
    const prune = await cli(['update', '--prune-obsolete', '--policy', 'policy.yml', 'transcripts']);
    expect(prune.code).toBe(0);
    expect(prune.stdout).toContain('removed golden/transcripts/support.json.golden.json (obsolete)');
    expect(Object.keys(repo.tree())).toEqual(GOLDENS.slice(0, 2));
  });

  it('an unreadable transcript next to good ones: exit 2, the others still checked and reported', async () => {
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    repo.write('transcripts/truncated.json', `{"messages": [{"role": "user", "content": "mail ${PII[0]}"}`);
    const run = await cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^ERROR +transcripts\/truncated\.json$/m);
    expect(run.stdout).toContain('\n3 clean passes not listed');
    expect(run.stdout).toMatch(/3 passed; 0 obsolete goldens/);
    expect(run.stdout).toMatch(/transcripts\/truncated\.json:1:\d+: error\[[a-z-]+\]/);
  });

  it('refuses a symlinked golden and never writes through it', async () => {
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const outside = path.join(repo.root, 'target.json');
    writeFileSync(outside, 'not a golden, must stay\n');
    rmSync(repo.path('golden/transcripts/notes.jsonl.golden.json'));
    symlinkSync(outside, repo.path('golden/transcripts/notes.jsonl.golden.json'));
    const update = await cli(['update', '--policy', 'policy-tight.yml', 'transcripts']);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('golden/transcripts/notes.jsonl.golden.json:1:1: error[golden-symlink]');
    expect(readFileSync(outside, 'utf8')).toBe('not a golden, must stay\n');
    expect(update.stdout).toContain('updated golden/transcripts/coding.jsonl.golden.json (drift)');
  });

  it("refuses '..', absolute and reserved transcript names; the others are still checked", async () => {
    const text = repo.read('transcripts/notes.jsonl');
    repo.write('transcripts/NUL.jsonl', text);
    repo.write('transcripts/lpt1.log.jsonl', text);
    writeFileSync(path.join(repo.root, 'sibling.jsonl'), text);
    const run = await cli([
      'check',
      '--policy',
      'policy.yml',
      'transcripts',
      '../sibling.jsonl',
      path.join(repo.root, 'sibling.jsonl'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('../sibling.jsonl:1:1: error[transcript-outside-repo]');
    expect(run.stdout).toContain(
      `${path.join(repo.root, 'sibling.jsonl')}:1:1: error[transcript-outside-repo]`,
    );
    expect(run.stdout).toMatch(
      /transcripts\/NUL\.jsonl:1:1: error\[golden-path-invalid\]: .*Windows reserved name/,
    );
    expect(run.stdout).toMatch(/transcripts\/lpt1\.log\.jsonl:1:1: error\[golden-path-invalid\]/);
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
    expect(readdirSync(repo.root).sort()).toEqual(['repo', 'sibling.jsonl']);
    const outside = await cli(['update', '--golden-dir', '../golden', 'transcripts']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(
      '--golden-dir: The golden folder must be a sub-folder of the working directory',
    );
  });
});

describe('sharding', () => {
  it('shard reports 1/3, 2/3 and 3/3 merge into the unsharded report, byte for byte', async () => {
    for (let i = 0; i < 9; i++) {
      const lines = [
        { kind: 'system', content: 'You keep the notes.' },
        { kind: 'user', content: `Item ${i}: rotate the keys of service ${i} on day ${i + 1}.` },
        { kind: 'assistant', content: `Noted item ${i}.` },
      ];
      repo.write(`transcripts/more/n${i}.jsonl`, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    }
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    repo.write('policy.yml', repo.read('policy-tight.yml'));
    repo.write(
      'golden/transcripts/stale.jsonl.golden.json',
      repo.read('golden/transcripts/notes.jsonl.golden.json'),
    );

    const full = await cli([
      'check',
      '--ci',
      '--policy',
      'policy.yml',
      '--report',
      'full.json',
      'transcripts',
    ]);
    expect(full.code).toBe(1);
    for (const i of [1, 2, 3]) {
      const shard = await cli([
        'check',
        '--ci',
        '--policy',
        'policy.yml',
        '--shard',
        `${i}/3`,
        '--report',
        `shard-${i}.json`,
        'transcripts',
      ]);
      expect(shard.stdout).toContain(`(shard ${i}/3)`);
      expect(shard.stdout).not.toContain('stale.jsonl');
    }
    const counts = [1, 2, 3].map(
      (i) => (JSON.parse(repo.read(`shard-${i}.json`)) as CheckReport).transcripts.length,
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);

    const merge = await spawned([
      'merge',
      'shard-1.json',
      'shard-2.json',
      'shard-3.json',
      '--report',
      'merged.json',
    ]);
    expect(merge.code).toBe(full.code);
    expect(repo.read('merged.json')).toBe(repo.read('full.json'));
    expect(merge.stdout).toContain('golden/transcripts/stale.jsonl.golden.json');
  });
});

describe('policy change review', () => {
  it('--base-policy FILE shows the impact table', async () => {
    repo.write('base.yml', repo.read('policy.yml'));
    const run = await cli([
      'check',
      '--format',
      'markdown',
      '--policy',
      'policy-tight.yml',
      '--base-policy',
      'base.yml',
      'transcripts',
    ]);
    expect(run.stdout).toContain('### Policy impact (base → head)');
    // Issue 27: the base keeps the whole history (it fits); the tight budget drops the stale test
    // run (superseded, its call compressed) and u1 before the stable cut point (degraded: warning).
    expect(run.stdout).toMatch(
      /\| transcripts\/coding\.jsonl \| ok → warning \| 330 → 251 \| 12 → 10 \| 1 → 0 \| compressed 0 → 1<br>degraded 0 → 1<br>superseded 0 → 1 \|/,
    );
  });

  it('--base-policy git-ref:HEAD:policy.yml reads the committed policy with git', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], {
        cwd: repo.dir,
        stdio: 'ignore',
      });
    git('init', '-q');
    git('add', 'policy.yml');
    git('commit', '-q', '-m', 'base policy');
    repo.write('policy.yml', repo.read('policy-tight.yml'));
    const run = await cli([
      'check',
      '--policy',
      'policy.yml',
      '--base-policy',
      'git-ref:HEAD:policy.yml',
      'transcripts',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/base policy git-ref:HEAD:policy\.yml \([0-9a-f]{16}\)/);
    expect(run.stdout).toContain('removed by reason: compressed 0 → 1, degraded 0 → 1, superseded 0 → 1');
    const missing = await cli(['check', '--base-policy', 'git-ref:v9.9.9:policy.yml', 'transcripts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error[git-unknown-ref]');
  });
});

describe('output formats', () => {
  it('json, markdown and github describe the same drift', async () => {
    await cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const args = ['--policy', 'policy-tight.yml', 'transcripts'];
    const json = await spawned(['check', '--format', 'json', '--report', 'r.json', ...args]);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe(repo.read('r.json'));
    const report = JSON.parse(json.stdout) as CheckReport;
    expect(report.schema_version).toBe(1);
    // Only coding.jsonl changes what the model sees; the other two differ in metadata only.
    expect(report.summary).toMatchObject({ checked: 3, drift: 1, pass: 2 });
    const notes = report.transcripts.filter((o) => o.outcome === 'pass').map((o) => o.notes);
    expect(notes).toEqual([
      ['policy changed, budget limit; this context is unchanged'],
      ['policy changed, budget limit; this context is unchanged'],
    ]);

    const markdown = await spawned(['check', '--format', 'markdown', ...args]);
    expect(markdown.code).toBe(1);
    const md = markdown.stdout;
    expect(md).toContain(
      '**❌ 1 of 3 transcripts fails** — 0 with violations · 1 drifted · 0 new · 0 errors · 2 passed',
    );
    expect(md).toContain(
      '**transcripts/coding.jsonl** — ❌ drift · 1 violation · 251 / 260 tokens · status warning',
    );
    expect(md).toContain(
      '- first change: u1 (line 3): masked (pii, 32 tokens) → dropped (degraded, 0 tokens)',
    );
    expect(md).toContain(
      '- accept the change: <code>npx context-stability update transcripts/coding.jsonl --policy policy-tight.yml</code>',
    );
    expect(md).toMatch(
      /^\| transcripts\/notes\.jsonl \| 56 \/ 260 \| [🟩🟦🟨🟪🟥]+ \| policy changed, budget limit; this context is unchanged \|$/mu,
    );

    const github = await spawned(['check', '--format', 'github', ...args]);
    expect(github.code).toBe(1);
    const annotations = github.stdout.split('\n').filter((l) => l.startsWith('::'));
    // Issue 27: the drift, and the status warning of the degraded recent turn u1.
    expect(annotations).toEqual([
      '::error file=transcripts/coding.jsonl,line=3,title=Golden drift%3A u1::First change: u1 (line 3): ' +
        'masked (pii, 32 tokens) → dropped (degraded, 0 tokens). Artifacts: 3 changed fate, 1 changed content. ' +
        'Status ok → warning. Tokens 330 → 251. check status: ok → failing (1 violation). ' +
        'Cause: policy changed. If the change is intended, accept it: ' +
        'npx context-stability update transcripts/coding.jsonl --policy policy-tight.yml',
      '::warning file=transcripts/coding.jsonl,line=3,col=1,title=context-stability status%3A u1::status warning: ' +
        'protected evidence was cut to excerpts or dropped (oldest first) to fit the budget (protected_dropped)',
    ]);
  });
});

afterAll(() => {
  // Every output and file of every run above: the planted email and card number never appear.
  expect(printed.length).toBeGreaterThan(20);
  for (const text of printed) for (const pii of PII) expect(text).not.toContain(pii);
});
