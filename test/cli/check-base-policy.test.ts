// `check --base-policy`: both policies run on every transcript and the impact is reported side by
// side; the base policy comes from a file or from git (`git-ref:REF:path`).
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policyHash } from '../../src/core/golden/golden.js';
import { parsePolicy } from '../../src/core/policy/parse.js';
import { gitShowFile, parseGitRefSpec } from '../../src/io/git.js';
import { TempRepo } from './check-support.js';

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const GIT = hasGit();
if (!GIT) console.warn('check-base-policy: git is not installed; the git-ref tests are skipped.');

let repo: TempRepo;
beforeEach(() => {
  repo = new TempRepo();
});
afterEach(() => {
  repo.remove();
});

function hashOf(rel: string): string {
  const parsed = parsePolicy(repo.read(rel), { file: rel });
  if (!parsed.ok) throw new Error(`${rel} is not a valid policy`);
  return policyHash(parsed.policy);
}

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd: repo.dir,
    stdio: 'ignore',
  });
}

describe('--base-policy FILE', () => {
  it('reports tokens, kept, masked and removed-by-reason for both policies', async () => {
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy-tight.yml',
      '--base-policy',
      'policy.yml',
      'transcripts',
    ]);
    expect(run.code).toBe(0);
    expect(report.base_policy).toEqual({ source: 'policy.yml', hash: hashOf('policy.yml') });
    expect(report.policy).toEqual({ source: 'policy-tight.yml', hash: hashOf('policy-tight.yml') });
    const coding = report.transcripts.find((t) => t.transcript === 'transcripts/coding.jsonl')?.impact;
    // Issue 27: under the base policy the whole history fits, so nothing is cut; under the tight
    // one the stale test run leaves (superseded, its call compressed) and u1, a recent turn older
    // than the stable cut point, leaves with its step (degraded: a status warning, not an error).
    expect(coding).toEqual({
      transcript: 'transcripts/coding.jsonl',
      base: {
        status: 'ok',
        tokens: 330,
        kept: 12,
        masked: 1,
        dropped: {},
        failing: [],
        facts_lost: 0,
      },
      head: {
        status: 'warning',
        tokens: 251,
        kept: 10,
        masked: 0,
        dropped: { compressed: 1, degraded: 1, superseded: 1 },
        failing: [],
        facts_lost: 0,
      },
      newlyFailing: [],
      fixed: [],
    });
    // The goldens are those of the head policy.
    expect(JSON.parse(repo.read('golden/transcripts/coding.jsonl.golden.json')).policy_hash).toBe(
      hashOf('policy-tight.yml'),
    );
  });

  it('names the checks a policy edit breaks, and those it fixes', async () => {
    repo.write('tiny.yml', 'version: 1\nbudget: 10\n');
    const broken = await repo.checkJson([
      '--policy',
      'tiny.yml',
      '--base-policy',
      'policy.yml',
      'transcripts',
    ]);
    const notes = broken.report.transcripts.find((t) => t.transcript === 'transcripts/notes.jsonl');
    // Ten tokens do not hold what must be kept (budget), and the stabilizer says it had to keep
    // protected evidence over the budget (status, a warning).
    expect(notes?.impact).toMatchObject({ newlyFailing: ['budget', 'status'], fixed: [] });
    expect(broken.run.code).toBe(1);

    const fixedRun = await repo.checkJson([
      '--policy',
      'policy.yml',
      '--base-policy',
      'tiny.yml',
      'transcripts',
    ]);
    const fixed = fixedRun.report.transcripts.find((t) => t.transcript === 'transcripts/notes.jsonl');
    expect(fixed?.impact).toMatchObject({ newlyFailing: [], fixed: ['budget', 'status'] });
  });

  it('shows the impact table in text and markdown', async () => {
    const args = ['--policy', 'policy-tight.yml', '--base-policy', 'policy.yml', 'transcripts'];
    const text = await repo.cli(['check', ...args]);
    expect(text.stdout).toContain('policy impact (base → head)');
    expect(text.stdout).toContain('removed by reason: compressed 0 → 1, degraded 0 → 1, superseded 0 → 1');
    const markdown = await repo.cli(['check', '--format', 'markdown', ...args]);
    expect(markdown.stdout).toContain('| Transcript | Status | Tokens | Kept | Masked | Removed by reason |');
    expect(markdown.stdout).toContain(
      '| transcripts/coding.jsonl | ok → warning | 330 → 251 | 12 → 10 | 1 → 0 |',
    );
  });

  it('an invalid or missing base policy is exit 2 with file:line:column, and nothing is written', async () => {
    repo.write('bad-base.yml', 'version: 1\nbudget: -5\n');
    const bad = await repo.cli(['check', '--base-policy', 'bad-base.yml', 'transcripts']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bad-base\.yml:2:9: error\[/m);
    const missing = await repo.cli(['check', '--base-policy', 'nope.yml', 'transcripts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.yml:1:1: error[not-found]');
    expect(repo.tree()).toEqual({});
  });
});

describe('parseGitRefSpec', () => {
  it('splits git-ref:REF:path at the first colon after the prefix', () => {
    expect(parseGitRefSpec('policy.yml')).toBeNull();
    expect(parseGitRefSpec('git-ref:HEAD:policy.yml')).toEqual({ ok: true, ref: 'HEAD', path: 'policy.yml' });
    expect(parseGitRefSpec('git-ref:origin/main:.github/p.yml')).toEqual({
      ok: true,
      ref: 'origin/main',
      path: '.github/p.yml',
    });
    expect(parseGitRefSpec('git-ref:HEAD~2:a:b.yml')).toEqual({ ok: true, ref: 'HEAD~2', path: 'a:b.yml' });
  });

  it('rejects incomplete specs, option-like refs and absolute paths', () => {
    for (const spec of [
      'git-ref:',
      'git-ref:HEAD',
      'git-ref:HEAD:',
      'git-ref::p.yml',
      'git-ref:-p:x',
      'git-ref:HEAD:/etc/p.yml',
    ]) {
      expect(parseGitRefSpec(spec)?.ok, spec).toBe(false);
    }
  });
});

describe.skipIf(!GIT)('--base-policy git-ref:REF:path', () => {
  beforeEach(() => {
    git('init', '-q');
    git('add', 'policy.yml');
    git('commit', '-q', '-m', 'policy');
  });

  it('reads the base policy as committed and compares it with the working copy', async () => {
    const committed = hashOf('policy.yml');
    repo.write('policy.yml', repo.read('policy-tight.yml'));
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      '--base-policy',
      'git-ref:HEAD:policy.yml',
      'transcripts',
    ]);
    expect(run.code).toBe(0);
    expect(report.base_policy).toEqual({ source: 'git-ref:HEAD:policy.yml', hash: committed });
    expect(report.policy.hash).toBe(hashOf('policy-tight.yml'));
    const coding = report.transcripts.find((t) => t.transcript === 'transcripts/coding.jsonl')?.impact;
    // Issue 27: nothing is cut while the history fits (base); see the test above for the head.
    expect(coding?.base.dropped).toEqual({});
    expect(coding?.head.dropped).toEqual({ compressed: 1, degraded: 1, superseded: 1 });
  });

  it('says clearly when the ref or the path does not exist', async () => {
    const badRef = await repo.cli([
      'check',
      '--base-policy',
      'git-ref:no-such-branch:policy.yml',
      'transcripts',
    ]);
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('git-ref:no-such-branch:policy.yml:1:1: error[git-unknown-ref]');
    const badPath = await repo.cli(['check', '--base-policy', 'git-ref:HEAD:missing.yml', 'transcripts']);
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('error[git-path-not-found]');
    expect(repo.tree()).toEqual({});
  });

  it('reports an invalid committed policy at its line in the git-ref source', async () => {
    repo.write('policy.yml', 'version: 1\nbudget: nope\n');
    git('commit', '-q', '-am', 'broken');
    const run = await repo.cli(['check', '--base-policy', 'git-ref:HEAD:policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^git-ref:HEAD:policy\.yml:2:9: error\[/m);
  });
});

describe.skipIf(!GIT)('gitShowFile', () => {
  it('says so when the folder is not a git repository', async () => {
    const result = await gitShowFile('HEAD', 'policy.yml', { cwd: repo.dir, label: 'x' });
    expect(result.ok || result.diagnostic.code).toBe('git-not-a-repository');
  });

  it('says so when git is not installed', async () => {
    const saved = process.env['PATH'];
    process.env['PATH'] = repo.root;
    try {
      const result = await gitShowFile('HEAD', 'policy.yml', { cwd: repo.dir, label: 'x' });
      expect(result.ok || result.diagnostic.code).toBe('git-missing');
    } finally {
      process.env['PATH'] = saved;
    }
  });
});
