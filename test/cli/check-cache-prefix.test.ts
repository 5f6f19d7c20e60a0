// `check --cache-report` and the `cache_prefix` check, in-process: the figure in every output, the
// check in the report, annotations and goldens only when a policy enables it, and the column of the
// policy impact table.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Golden } from '../../src/core/golden/golden.js';
import { PII, TempRepo } from './check-support.js';

let repo: TempRepo;
beforeEach(() => {
  repo = new TempRepo();
});
afterEach(() => {
  repo.remove();
});

const TIGHT_CHECKED = `version: 1
budget: 260
keep_recent: 2
checks:
  cache_prefix: error
cache_prefix:
  min_share: 0.9
`;

describe('check --cache-report', () => {
  it('reports the prompt-cache prefix per transcript and leaves the goldens as they are', async () => {
    const plain = await repo.checkJson(['--policy', 'policy.yml', 'transcripts']);
    expect(plain.run.code).toBe(0);
    const goldens = repo.tree();
    expect(plain.report.transcripts.every((o) => o.cache_prefix === undefined)).toBe(true);

    const { run, report } = await repo.checkJson(['--policy', 'policy.yml', '--cache-report', 'transcripts']);
    expect(run.code).toBe(0);
    expect(repo.tree()).toEqual(goldens);
    for (const o of report.transcripts) {
      expect(o.outcome, o.transcript).toBe('pass');
      const c = o.cache_prefix;
      expect(c, o.transcript).toBeDefined();
      expect(c?.replayed).toBeGreaterThan(0);
      expect(c?.replayed).toBe((c?.calls ?? 0) - 1);
      expect(c?.min_share).toBeGreaterThanOrEqual(0);
      expect(c?.mean_share).toBeLessThanOrEqual(1);
      expect(c?.sent_tokens).toBeGreaterThanOrEqual(c?.reused_tokens ?? 0);
    }
    expect(report.transcripts.every((o) => o.violations.every((v) => v.check !== 'cache_prefix'))).toBe(true);

    const text = await repo.cli(['check', '--policy', 'policy.yml', '--cache-report', 'transcripts']);
    expect(text.stdout).toMatch(
      /^ {2}prompt cache prefix \((openai|anthropic|responses) requests\): mean \d+\.\d%, lowest \d+\.\d%/m,
    );
    const md = await repo.cli([
      'check',
      '--policy',
      'policy.yml',
      '--cache-report',
      '--format',
      'markdown',
      'transcripts',
    ]);
    expect(md.stdout).toContain('prompt cache prefix (');
    const none = await repo.cli(['check', '--policy', 'policy.yml', 'transcripts']);
    expect(none.stdout).not.toContain('prompt cache prefix');
  });

  it('is in the help text', async () => {
    const help = await repo.cli(['check', '--help']);
    expect(help.stdout).toContain('--cache-report');
  });
});

describe('the cache_prefix check', () => {
  it('goes red at the user message of each turn whose request misses the cache, with the check in the golden', async () => {
    repo.write('checked.yml', TIGHT_CHECKED);
    const { run, report } = await repo.checkJson(['--policy', 'checked.yml', 'transcripts']);
    expect(run.code).toBe(1);
    const found = report.transcripts.flatMap((o) =>
      o.violations
        .filter((v) => v.check === 'cache_prefix')
        .map((v) => ({ ...v, transcript: o.transcript, o })),
    );
    expect(found.length).toBeGreaterThan(0);
    for (const v of found) {
      expect(v.severity).toBe('error');
      expect(v.message).toMatch(
        /starts with only \d+\.\d% of the previous request .*cache_prefix\.min_share is 90\.0%/,
      );
      expect(v.o.outcome).toBe('violations');
      expect(v.o.cache_prefix?.min_share).toBeLessThan(0.9);
    }
    // Each violation sits on a user message of its transcript: the golden's ledger names its line.
    for (const o of report.transcripts) {
      const golden = JSON.parse(repo.read(o.golden)) as Golden;
      expect(golden.checks.map((c) => c.name)).toContain('cache_prefix');
      const lines = new Map(golden.ledger.map((e) => [e.id, e.line]));
      for (const v of o.violations.filter((x) => x.check === 'cache_prefix'))
        expect(v.line).toBe(lines.get(v.id));
    }
    for (const secret of PII) expect(run.stdout).not.toContain(secret);

    const annotations = await repo.cli([
      'check',
      '--policy',
      'checked.yml',
      '--format',
      'github',
      'transcripts',
    ]);
    expect(annotations.stdout).toMatch(/^::error file=transcripts\/[^,]+,line=\d+[^:]*::.*cache_prefix/m);
  });

  it('a policy that leaves the check out writes the same goldens as before the check existed', async () => {
    await repo.cli(['update', '--policy', 'policy-tight.yml', 'transcripts']);
    const before = repo.tree();
    for (const text of Object.values(before)) expect(text).not.toContain('cache_prefix');
    repo.write('warn.yml', TIGHT_CHECKED.replace('cache_prefix: error', 'cache_prefix: off'));
    await repo.cli(['update', '--policy', 'warn.yml', 'transcripts']);
    const after = repo.tree();
    // Only the policy hash changes: `off` is spelled out, and it is a policy edit.
    for (const [file, text] of Object.entries(after)) {
      expect(text).not.toContain('cache_prefix');
      const strip = (s: string | undefined): string => (s ?? '').replace(/"policy_hash": "[0-9a-f]+"/, '');
      expect(strip(text), file).toBe(strip(before[file]));
    }
  });

  it('at warning severity it reports without failing the run', async () => {
    repo.write('warn.yml', TIGHT_CHECKED.replace('cache_prefix: error', 'cache_prefix: warning'));
    const { run, report } = await repo.checkJson(['--policy', 'warn.yml', 'transcripts']);
    expect(run.code).toBe(0);
    const found = report.transcripts.flatMap((o) => o.violations.filter((v) => v.check === 'cache_prefix'));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.severity === 'warning')).toBe(true);
  });
});

describe('policy impact', () => {
  it('compares the prompt-cache prefix of base and head in a column, only when the replay ran', async () => {
    const args = [
      'check',
      '--policy',
      'policy-tight.yml',
      '--base-policy',
      'policy.yml',
      '--format',
      'markdown',
    ];
    const without = await repo.cli([...args, 'transcripts']);
    expect(without.stdout).toContain('### Policy impact (base → head)');
    expect(without.stdout).not.toContain('Prompt cache prefix');

    const withCache = await repo.cli([...args, '--cache-report', 'transcripts']);
    const table = withCache.stdout.split('\n');
    const head = table.find((l) => l.startsWith('| Transcript') && l.includes('Removed'));
    expect(head).toContain('| Prompt cache prefix |');
    const rows = table.filter((l) => /^\| transcripts\/.* → /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/mean \d+\.\d% → \d+\.\d%, lowest \d+\.\d% → \d+\.\d%/);

    const { report } = await repo.checkJson([
      '--policy',
      'policy-tight.yml',
      '--base-policy',
      'policy.yml',
      '--cache-report',
      'transcripts',
    ]);
    // The base side is what a plain run under the base policy reports.
    const base = await repo.checkJson(['--policy', 'policy.yml', '--cache-report', 'transcripts']);
    for (const o of report.transcripts) {
      expect(o.impact?.base.cache_prefix?.min_share).toBe(
        base.report.transcripts.find((x) => x.transcript === o.transcript)?.cache_prefix?.min_share,
      );
      expect(o.impact?.head.cache_prefix).toEqual({
        mean_share: o.cache_prefix?.mean_share,
        min_share: o.cache_prefix?.min_share,
      });
    }
    const text = await repo.cli([
      'check',
      '--policy',
      'policy-tight.yml',
      '--base-policy',
      'policy.yml',
      '--cache-report',
      'transcripts',
    ]);
    expect(text.stdout).toMatch(/^ {4}prompt cache prefix: mean \d+\.\d% → \d+\.\d%, lowest/m);
  });
});
