// `check` and `update` in-process: outcomes, what is written when, and the errors that leave the
// other transcripts checked.
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ciFromEnv } from '../../src/cli/check/options.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';
import { PII, TempRepo, outcomes } from './check-support.js';

const ALL = ['transcripts/coding.jsonl', 'transcripts/notes.jsonl', 'transcripts/support.json'];
const GOLDENS = ALL.map((t) => `golden/${t}.golden.json`);

let repo: TempRepo;
beforeEach(() => {
  repo = new TempRepo();
});
afterEach(() => {
  repo.remove();
});

describe('usage', () => {
  it.each([
    [['check'], 'check needs at least one transcript'],
    [['update'], 'update needs at least one transcript'],
    [['merge'], 'merge needs the REPORT files'],
    [['check', '--shard', '0/3', 'transcripts'], 'shard index must be from 1'],
    [['check', '--shard', '4/3', 'transcripts'], 'shard index must be from 1'],
    [['check', '--shard', 'two', 'transcripts'], 'expected the form i/n'],
    [['check', '--format', 'xml', 'transcripts'], 'accepts text, json, markdown, github'],
    [['check', '--golden-dir', '..', 'transcripts'], 'sub-folder of the working directory'],
    [['update', '--golden-dir', '.', 'transcripts'], 'sub-folder of the working directory'],
    [['check', '--base-policy', 'git-ref:HEAD', 'transcripts'], 'git reference is incomplete'],
    [['check', '--base-policy', 'git-ref:--output=x:policy.yml', 'transcripts'], 'not a valid git revision'],
  ])('%j exits 2 with a one-line reason', async (args, reason) => {
    const run = await repo.cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(reason);
    expect(run.stdout).toBe('');
    expect(existsSync(repo.path('golden'))).toBe(false);
  });

  it('exits 2 for an invalid policy, writing nothing', async () => {
    repo.write('bad.yml', 'budget: lots\n');
    const run = await repo.cli(['check', '--policy', 'bad.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^bad\.yml:1:9: error/m);
    expect(existsSync(repo.path('golden'))).toBe(false);
  });
});

describe('CI detection', () => {
  it('treats CI as set unless it is empty, false or 0', () => {
    expect(ciFromEnv({})).toBe(false);
    for (const off of ['', 'false', '0']) expect(ciFromEnv({ CI: off }), off).toBe(false);
    for (const on of ['true', '1', 'yes', 'woodpecker']) expect(ciFromEnv({ CI: on }), on).toBe(true);
  });
});

describe('new goldens', () => {
  it('outside CI writes missing goldens (new, exit 0); the next check passes', async () => {
    const first = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(first.run.code).toBe(0);
    expect(outcomes(first.report)).toEqual(Object.fromEntries(ALL.map((t) => [t, 'new'])));
    expect(first.report.transcripts.every((t) => t.written === true)).toBe(true);
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);

    const second = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(second.run.code).toBe(0);
    expect(outcomes(second.report)).toEqual(Object.fromEntries(ALL.map((t) => [t, 'pass'])));
    expect(second.report.transcripts.some((t) => 'written' in t)).toBe(false);
  });

  it('text output counts clean passes; --verbose (and merge --verbose) lists them', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const brief = await repo.cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(brief.code).toBe(0);
    expect(brief.stdout).not.toMatch(/^PASS /m);
    expect(brief.stdout).toContain('\n3 clean passes not listed (--verbose lists every transcript).\n');
    expect(brief.stdout).toMatch(/3 transcripts checked: .*3 passed/);
    for (const flag of ['--verbose', '-v']) {
      const verbose = await repo.cli(['check', flag, '--policy', 'policy.yml', 'transcripts']);
      expect(verbose.stdout.match(/^PASS +\S+/gm)).toEqual(ALL.map((t) => `PASS       ${t}`));
      expect(verbose.stdout).not.toContain('not listed');
    }
    await repo.cli([
      'check',
      '--policy',
      'policy.yml',
      '--shard',
      '1/1',
      '--report',
      'r.json',
      'transcripts',
    ]);
    const merged = await repo.cli(['merge', 'r.json']);
    expect(merged.stdout).toContain('3 clean passes not listed');
    expect((await repo.cli(['merge', '--verbose', 'r.json'])).stdout.match(/^PASS /gm)).toHaveLength(3);
  });

  it('writes goldens in the stable form, with repo-relative paths and no raw PII', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    for (const [file, text] of Object.entries(repo.tree())) {
      const golden = JSON.parse(text) as {
        transcript: string;
        schema: number;
        policy_hash: string;
        tokenizer: object;
      };
      expect(text, file).toBe(stableStringify(golden));
      expect(text.endsWith('}\n') && !text.endsWith('\n\n') && !text.includes('\r'), file).toBe(true);
      expect(`golden/${golden.transcript}.golden.json`).toBe(file);
      expect(golden.policy_hash).toMatch(/^[0-9a-f]{16}$/);
      expect(golden.tokenizer).toEqual({
        name: 'o200k_base',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      });
      expect(text).not.toContain(repo.root);
      for (const pii of PII) expect(text, file).not.toContain(pii);
    }
  });

  it.each([['--ci'], ['CI=true'], ['CI=1']])(
    'in CI (%s) a missing golden fails and nothing is written',
    async (how) => {
      const env: Record<string, string> = how.startsWith('CI=') ? { CI: how.slice(3) } : {};
      const args = how === '--ci' ? ['--ci'] : [];
      const { run, report } = await repo.checkJson([...args, '--policy', 'policy.yml', 'transcripts'], env);
      expect(run.code).toBe(1);
      expect(report.ci).toBe(true);
      expect(report.transcripts.map((t) => [t.outcome, t.written])).toEqual(ALL.map(() => ['new', false]));
      expect(existsSync(repo.path('golden'))).toBe(false);
    },
  );

  it.each(['', 'false', '0'])('CI=%j is not CI: goldens are written', async (value) => {
    const { run } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts'], { CI: value });
    expect(run.code).toBe(0);
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
  });

  it('update writes even when CI is set', async () => {
    const run = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts'], { CI: 'true' });
    expect(run.code).toBe(0);
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
  });
});

describe('drift', () => {
  it('reports which artifact changed fate and why, with a unified diff; update then brings it back to pass', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const before = repo.tree();

    const { run, report } = await repo.checkJson(['--policy', 'policy-tight.yml', 'transcripts']);
    expect(run.code).toBe(1);
    // Only the context that changed drifts: the other two pass with a note (policy hash and budget
    // limit are metadata).
    expect(outcomes(report)).toEqual({
      'transcripts/coding.jsonl': 'drift',
      'transcripts/notes.jsonl': 'pass',
      'transcripts/support.json': 'pass',
    });
    const notes = report.transcripts.find((t) => t.transcript === 'transcripts/notes.jsonl');
    expect(notes?.notes).toEqual(['policy changed, budget limit; this context is unchanged']);
    expect(notes?.diff).toBeUndefined();
    const coding = report.transcripts.find((t) => t.transcript === 'transcripts/coding.jsonl');
    expect(coding?.diff?.causes).toEqual(['policy changed']);
    // Under the tighter budget the stable cut point moves past u1 (a recent turn's request: should
    // keep, so `degraded`), and the failed test run is superseded by its later passing run.
    expect(coding?.diff?.fates).toContainEqual({
      id: 'u1',
      line: 3,
      before: { action: 'masked', reason: 'pii', tokens: 32 },
      after: { action: 'dropped', reason: 'degraded', tokens: 0 },
    });
    expect(coding?.diff?.fates).toContainEqual({
      id: 't2',
      line: 7,
      before: { action: 'kept', reason: 'in_budget', tokens: 38 },
      after: { action: 'dropped', reason: 'superseded', tokens: 0 },
    });
    expect(coding?.unified).toContain('--- a/golden/transcripts/coding.jsonl.golden.json');
    expect(repo.tree()).toEqual(before);

    const update = await repo.cli(['update', '--policy', 'policy-tight.yml', 'transcripts']);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('updated golden/transcripts/coding.jsonl.golden.json (drift)');
    expect(update.stdout).toContain('u1 (line 3): masked (pii, 32 tokens) → dropped (degraded, 0 tokens)');
    expect(update.stdout).toContain(
      'updated golden/transcripts/notes.jsonl.golden.json (policy changed, budget limit; this context is unchanged)',
    );
    expect(update.stdout).toMatch(/update: 3 transcripts: 0 new, 3 updated, 0 unchanged/);
    expect((await repo.cli(['check', '--policy', 'policy-tight.yml', 'transcripts'])).code).toBe(0);
  });

  it('a golden with the same content in another layout passes; update restores the stable layout', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const file = 'golden/transcripts/notes.jsonl.golden.json';
    const stable = repo.read(file);
    repo.write(file, JSON.stringify(JSON.parse(stable), null, 4).replace(/\n/g, '\r\n'));
    expect((await repo.cli(['check', '--policy', 'policy.yml', 'transcripts'])).code).toBe(0);
    const update = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(update.stdout).toContain(`rewrote ${file} (same content, stable layout restored)`);
    expect(repo.read(file)).toBe(stable);
  });
});

describe('inputs', () => {
  it('never takes the goldens for transcripts when the folder given holds the golden folder', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', '.']);
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', '.']);
    expect(run.code).toBe(0);
    expect(report.transcripts.map((t) => t.transcript)).toEqual(ALL);
  });
});

describe('violations', () => {
  it('a failing check is a violation (exit 1); the golden is still written outside CI', async () => {
    repo.write('tiny.yml', 'version: 1\nbudget: 10\n');
    const { run, report } = await repo.checkJson(['--policy', 'tiny.yml', 'transcripts/notes.jsonl']);
    expect(run.code).toBe(1);
    const [notes] = report.transcripts;
    expect(notes?.outcome).toBe('violations');
    expect(notes?.violations.map((v) => [v.check, v.severity])).toContainEqual(['budget', 'error']);
    expect(notes?.written).toBe(true);
  });

  it('a policy that leaves PII unmasked gets no golden, and no output shows the PII', async () => {
    repo.write('leaky.yml', 'version: 1\npii:\n  detectors: [ssn]\nchecks:\n  pii: off\n');
    for (const format of ['json', 'text', 'markdown', 'github']) {
      const run = await repo.cli(['check', '--format', format, '--policy', 'leaky.yml', 'transcripts']);
      expect(run.code, format).toBe(1);
      for (const pii of PII) expect(run.stdout + run.stderr, format).not.toContain(pii);
    }
    const { report } = await repo.checkJson(['--policy', 'leaky.yml', 'transcripts']);
    const coding = report.transcripts.find((t) => t.transcript === 'transcripts/coding.jsonl');
    expect(coding?.outcome).toBe('violations');
    expect(coding?.violations).toContainEqual(
      expect.objectContaining({
        check: 'golden-pii',
        id: 'u1',
        line: 3,
        message: expect.stringContaining('credit_card, email'),
      }),
    );
    // The fix it names is the one that helps: turn on the detectors that are off.
    expect(coding?.violations.find((v) => v.check === 'golden-pii')?.message).toContain(
      'Enable credit_card, email in pii.detectors of the policy.',
    );
    expect(Object.keys(repo.tree())).toEqual([
      'golden/transcripts/notes.jsonl.golden.json',
      'golden/transcripts/support.json.golden.json',
    ]);
    const update = await repo.cli(['update', '--policy', 'leaky.yml', 'transcripts']);
    expect(update.code).toBe(1);
    expect(existsSync(repo.path('golden/transcripts/coding.jsonl.golden.json'))).toBe(false);
    // The refused golden is counted as refused, never as unchanged (issue 15).
    expect(update.stdout).toContain(
      'refused golden/transcripts/coding.jsonl.golden.json (unmasked PII in the stabilized context: not written; see below)',
    );
    expect(update.stdout).toMatch(/^transcripts\/coding\.jsonl:3: error\[golden-pii\] u1: /m);
    const summary =
      /^update: 3 transcripts: (\d+) new, (\d+) updated, (\d+) unchanged, 1 refused \(PII\), /m.exec(
        update.stdout,
      );
    expect(summary).not.toBeNull();
    expect(Number(summary?.[1]) + Number(summary?.[2]) + Number(summary?.[3])).toBe(2);
    for (const pii of PII) expect(update.stdout + update.stderr).not.toContain(pii);
    // Once the policy masks it, the same transcript gets its golden and nothing is refused.
    const fixed = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(fixed.stdout).toMatch(/, 0 refused \(PII\), /);
    expect(fixed.stdout).toContain('wrote   golden/transcripts/coding.jsonl.golden.json (new)');
  });
});

describe('unreadable input', () => {
  it('an unreadable transcript is an error (exit 2); the others are still checked and written', async () => {
    repo.write(
      'transcripts/broken.json',
      '{"messages": [\n  {"role": "user", "content": "dana.miller@example.org"},\n  }\n',
    );
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(outcomes(report)).toEqual({
      'transcripts/broken.json': 'error',
      'transcripts/coding.jsonl': 'new',
      'transcripts/notes.jsonl': 'new',
      'transcripts/support.json': 'new',
    });
    expect(run.stderr).toMatch(/^transcripts\/broken\.json:3:\d+: error\[/m);
    expect(run.stderr + run.stdout).not.toContain('dana.miller');
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
  });

  it('a transcript with an unreadable record is an error and gets no golden', async () => {
    repo.write(
      'transcripts/partial.jsonl',
      '{"kind":"user","content":"hi"}\n{"kind": oops}\n{"kind":"assistant","content":"ok"}\n',
    );
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts/partial.jsonl']);
    expect(run.code).toBe(2);
    expect(report.transcripts[0]).toMatchObject({ outcome: 'error', status: 'ok' });
    expect(run.stderr).toMatch(/^transcripts\/partial\.jsonl:2:\d+: error/m);
    expect(existsSync(repo.path('golden'))).toBe(false);
  });

  it('a pattern that matches nothing is an error next to the transcripts it does find', async () => {
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      'transcripts/notes.jsonl',
      'missing/**/*.json',
    ]);
    expect(run.code).toBe(2);
    expect(outcomes(report)).toEqual({ 'missing/**/*.json': 'error', 'transcripts/notes.jsonl': 'new' });
  });

  it('a corrupt golden is an error in check, and update rewrites it', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    repo.write('golden/transcripts/notes.jsonl.golden.json', '{"schema": 1, "transcript": ');
    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(2);
    expect(outcomes(report)['transcripts/notes.jsonl']).toBe('error');
    expect(outcomes(report)['transcripts/coding.jsonl']).toBe('pass');
    const update = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain(
      'rewrote golden/transcripts/notes.jsonl.golden.json (the old golden could not be read)',
    );
    expect((await repo.cli(['check', '--policy', 'policy.yml', 'transcripts'])).code).toBe(0);
  });

  it('a symlinked golden is refused by check and update, and its target is untouched', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    const outside = path.join(repo.root, 'outside.json');
    writeFileSync(outside, repo.read('golden/transcripts/notes.jsonl.golden.json'));
    const link = repo.path('golden/transcripts/notes.jsonl.golden.json');
    rmSync(link);
    symlinkSync(outside, link);

    const check = await repo.checkJson(['--policy', 'policy-tight.yml', 'transcripts']);
    expect(check.run.code).toBe(2);
    const notes = check.report.transcripts.find((t) => t.transcript === 'transcripts/notes.jsonl');
    expect(notes?.diagnostics?.map((d) => d.code)).toEqual(['golden-symlink']);
    const update = await repo.cli(['update', '--policy', 'policy-tight.yml', 'transcripts']);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('golden/transcripts/notes.jsonl.golden.json:1:1: error[golden-symlink]');
    expect(JSON.parse(repo.read('golden/transcripts/coding.jsonl.golden.json')).budget.limit).toBe(260);
    expect(JSON.parse(readFileSync(outside, 'utf8')).budget.limit).toBe(4000);
  });
});

describe('transcript paths that cannot name a golden', () => {
  it('refuses reserved names, case collisions and files outside the repo; the rest is checked', async () => {
    const ok = repo.read('transcripts/notes.jsonl');
    repo.write('transcripts/CON.jsonl', ok);
    repo.write('transcripts/aux.json.jsonl', ok);
    repo.write('transcripts/Case.jsonl', ok);
    repo.write('transcripts/case.jsonl', ok);
    writeFileSync(path.join(repo.root, 'outside.jsonl'), ok);
    const { run, report } = await repo.checkJson([
      '--policy',
      'policy.yml',
      'transcripts',
      path.join(repo.root, 'outside.jsonl'),
      '../outside.jsonl',
    ]);
    expect(run.code).toBe(2);
    const codes = Object.fromEntries(
      report.transcripts.map((t) => [t.transcript, t.diagnostics?.[0]?.code ?? t.outcome]),
    );
    expect(codes).toEqual({
      '../outside.jsonl': 'transcript-outside-repo',
      [path.join(repo.root, 'outside.jsonl')]: 'transcript-outside-repo',
      'transcripts/CON.jsonl': 'golden-path-invalid',
      'transcripts/Case.jsonl': 'golden-path-collision',
      'transcripts/aux.json.jsonl': 'golden-path-invalid',
      'transcripts/case.jsonl': 'golden-path-collision',
      'transcripts/coding.jsonl': 'new',
      'transcripts/notes.jsonl': 'new',
      'transcripts/support.json': 'new',
    });
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
    expect(readdirSync(repo.root).sort()).toEqual(['outside.jsonl', 'repo']);
  });
});

describe('obsolete goldens', () => {
  it('are listed without failing, kept by update, and removed only by update --prune-obsolete', async () => {
    await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    repo.write(
      'golden/transcripts/old/gone.jsonl.golden.json',
      repo.read('golden/transcripts/notes.jsonl.golden.json'),
    );

    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(run.code).toBe(0);
    expect(report.obsolete).toEqual(['golden/transcripts/old/gone.jsonl.golden.json']);
    expect(report.summary.obsolete).toBe(1);

    const keep = await repo.cli(['update', '--policy', 'policy.yml', 'transcripts']);
    expect(keep.stdout).toContain(
      'obsolete golden/transcripts/old/gone.jsonl.golden.json (kept; --prune-obsolete removes it)',
    );
    expect(existsSync(repo.path('golden/transcripts/old/gone.jsonl.golden.json'))).toBe(true);

    const prune = await repo.cli(['update', '--prune-obsolete', '--policy', 'policy.yml', 'transcripts']);
    expect(prune.code).toBe(0);
    expect(prune.stdout).toContain('removed golden/transcripts/old/gone.jsonl.golden.json (obsolete)');
    expect(prune.stdout).toMatch(
      /0 new, 0 updated, 3 unchanged, 0 refused \(PII\), 1 obsolete golden removed, 0 errors/,
    );
    expect(existsSync(repo.path('golden/transcripts/old'))).toBe(false);
    expect(Object.keys(repo.tree())).toEqual(GOLDENS);
  });
});

describe('--report', () => {
  it('writes the same stable JSON that --format json prints', async () => {
    const run = await repo.cli([
      'check',
      '--ci',
      '--format',
      'json',
      '--report',
      'out/report.json',
      '--policy',
      'policy.yml',
      'transcripts',
    ]);
    expect(run.code).toBe(1);
    expect(repo.read('out/report.json')).toBe(run.stdout);
    expect(readdirSync(repo.path('out'))).toEqual(['report.json']);
  });

  it('an unwritable report path is exit 2 after the results are printed', async () => {
    repo.write('blocker', '');
    const run = await repo.cli([
      'check',
      '--report',
      'blocker/report.json',
      '--policy',
      'policy.yml',
      'transcripts',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('NEW');
    expect(run.stderr).toContain('blocker/report.json:1:1: error[report-write-failed]');
  });
});
