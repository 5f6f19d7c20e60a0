import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  policyCommands,
  policyPrintDefaultCommand,
  policyValidateCommand,
} from '../../src/cli/commands/policy.js';
import { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from '../../src/core/policy/default.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/policy');

async function cli(cwd: string, ...argv: string[]) {
  const io = fakeIO(cwd);
  const code = await runCli(argv, io, policyCommands);
  return { code, out: io.out(), err: io.err() };
}

describe('policy validate', () => {
  it('prints a one-line verdict on stdout and exits 0 for a valid policy', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'valid/full.yml');
    expect(code).toBe(0);
    expect(out).toBe('✓ valid/full.yml is valid\n');
    expect(err).toBe('');
  });

  it('prints warnings on stderr and counts them in the verdict', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'warn/abbreviated-key.yml');
    expect(code).toBe(0);
    expect(out).toBe('✓ warn/abbreviated-key.yml is valid (2 warnings)\n');
    expect(err).toBe(
      [
        'warn/abbreviated-key.yml:3:3: warning[unknown-key]: unknown key resilience.trunc_mode: it is ignored. Hint: Did you mean `truncation_mode`?',
        'warn/abbreviated-key.yml:4:1: warning[unknown-key]: unknown key msg_overhead: it is ignored. Hint: Did you mean `message_overhead`?',
        '',
      ].join('\n'),
    );
  });

  it('refuses a misspelt key (exit 2), naming the key meant', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'bad/typo-keys.yml');
    expect(code).toBe(2);
    expect(out).toBe('✗ bad/typo-keys.yml is invalid (8 errors)\n');
    expect(err.split('\n')[0]).toBe(
      'bad/typo-keys.yml:1:1: error[unknown-key-typo]: unknown key budjet: did you mean `budget`? A misspelt key is an error, since the setting would otherwise be silently ignored. Hint: Rename it to `budget`, or delete it to use the default.',
    );
  });

  it('--strict makes every unknown key an error (exit 2)', async () => {
    const { code, out, err } = await cli(
      FIXTURES,
      'policy',
      'validate',
      '--strict',
      'warn/abbreviated-key.yml',
    );
    expect(code).toBe(2);
    expect(out).toBe('✗ warn/abbreviated-key.yml is invalid (2 errors)\n');
    expect(err).toContain(
      'warn/abbreviated-key.yml:4:1: error[unknown-key]: unknown key msg_overhead: strict mode accepts only the keys this release knows. Hint: Did you mean `message_overhead`?',
    );
    const valid = await cli(FIXTURES, 'policy', 'validate', '--strict', 'valid/full.yml');
    expect([valid.code, valid.out, valid.err]).toEqual([0, '✓ valid/full.yml is valid\n', '']);
  });

  it('prints every problem of an invalid policy and exits 2', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'bad/many-at-once.yml');
    expect(code).toBe(2);
    expect(out).toBe('✗ bad/many-at-once.yml is invalid (6 errors)\n');
    expect(
      err
        .trimEnd()
        .split('\n')
        .map((line) => line.split(': ')[0]),
    ).toEqual([
      'bad/many-at-once.yml:1:12',
      'bad/many-at-once.yml:2:9',
      'bad/many-at-once.yml:3:1',
      'bad/many-at-once.yml:6:15',
      'bad/many-at-once.yml:6:34',
      'bad/many-at-once.yml:7:22',
    ]);
  });

  it('exits 2 for a missing file', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'nope.yml');
    expect(code).toBe(2);
    expect(out).toBe('✗ nope.yml is invalid (1 error)\n');
    expect(err).toMatch(/^nope\.yml:1:1: error\[not-found\]: /);
  });

  it('--json prints { schema_version, file, valid, diagnostics, policy } with the filled-in policy', async () => {
    const { code, out, err } = await cli(FIXTURES, 'policy', 'validate', 'valid/minimal.yml', '--json');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(Object.keys(JSON.parse(out) as object)[0]).toBe('schema_version');
    expect(JSON.parse(out)).toEqual({
      schema_version: 1,
      file: 'valid/minimal.yml',
      valid: true,
      diagnostics: [],
      policy: {
        ...DEFAULT_POLICY,
        budget: 4000,
        resilience: { ...DEFAULT_POLICY.resilience, truncation_mode: 'aggressive' },
      },
    });
  });

  it('--json reports an invalid policy with policy: null and exits 2', async () => {
    const { code, out } = await cli(FIXTURES, 'policy', 'validate', '--json', 'bad/version-2.yml');
    expect(code).toBe(2);
    const report = JSON.parse(out) as {
      file: string;
      valid: boolean;
      diagnostics: { code: string; line: number }[];
      policy: unknown;
    };
    expect(report.file).toBe('bad/version-2.yml');
    expect(report.valid).toBe(false);
    expect(report.policy).toBeNull();
    expect(report.diagnostics.map((d) => [d.code, d.line])).toEqual([['unsupported-version', 1]]);
  });

  describe('without FILE', () => {
    let cwd: string;
    beforeEach(async () => {
      cwd = await mkdtemp(path.join(os.tmpdir(), 'policy-cli-'));
    });
    afterEach(async () => {
      await rm(cwd, { recursive: true, force: true });
    });

    it('validates .github/context-policy.yml when it exists', async () => {
      await mkdir(path.join(cwd, '.github'));
      await writeFile(path.join(cwd, '.github/context-policy.yml'), 'budget: zero\n');
      const { code, out, err } = await cli(cwd, 'policy', 'validate');
      expect(code).toBe(2);
      expect(out).toBe('✗ .github/context-policy.yml is invalid (1 error)\n');
      expect(err).toMatch(
        /^\.github\/context-policy\.yml:1:9: error\[invalid-value\]: budget: "zero" is a string/,
      );
    });

    it('says the built-in default applies when there is no policy file', async () => {
      const { code, out } = await cli(cwd, 'policy', 'validate');
      expect(code).toBe(0);
      expect(out).toBe('✓ no policy file found: the built-in default policy applies (it is valid)\n');
      const json = await cli(cwd, 'policy', 'validate', '--json');
      expect(JSON.parse(json.out)).toMatchObject({ file: null, valid: true, diagnostics: [] });
    });
  });

  it('refuses two files and unknown options as bad usage (exit 2)', async () => {
    const two = await cli(FIXTURES, 'policy', 'validate', 'a.yml', 'b.yml');
    expect(two.code).toBe(2);
    expect(two.err).toContain('policy validate takes at most one FILE.');
    const option = await cli(FIXTURES, 'policy', 'validate', '--jsn');
    expect(option.code).toBe(2);
    expect(option.err).toContain('Unknown option --jsn. Did you mean --json?');
  });
});

describe('policy print-default', () => {
  it('prints the commented default YAML', async () => {
    const { code, out } = await cli(FIXTURES, 'policy', 'print-default');
    expect(code).toBe(0);
    expect(out).toBe(DEFAULT_POLICY_YAML);
  });

  it('--json prints the default policy as JSON', async () => {
    const { code, out } = await cli(FIXTURES, 'policy', 'print-default', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(DEFAULT_POLICY);
    expect(out.endsWith('}\n')).toBe(true);
  });

  it('takes no FILE', async () => {
    const { code } = await cli(FIXTURES, 'policy', 'print-default', 'x.yml');
    expect(code).toBe(2);
  });
});

describe('help', () => {
  it.each([policyValidateCommand, policyPrintDefaultCommand])(
    '$path has usage, options and examples',
    (command) => {
      expect(command.help).toContain(`Usage: context-stability ${command.path.join(' ')}`);
      expect(command.help).toContain('--json');
      expect(command.help).toContain('Examples:');
    },
  );

  it('validate documents --strict and the misspelt-key rule', () => {
    expect(policyValidateCommand.help).toContain('--strict');
    expect(policyValidateCommand.help).toContain('misspelt key');
  });

  it('--help prints the command help and exits 0', async () => {
    const { code, out } = await cli(FIXTURES, 'policy', 'validate', '--help');
    expect(code).toBe(0);
    expect(out).toBe(policyValidateCommand.help);
  });
});
