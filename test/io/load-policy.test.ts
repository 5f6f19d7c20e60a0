import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import { DEFAULT_POLICY } from '../../src/core/policy/default.js';
import { loadPolicy } from '../../src/io/load-policy.js';

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), 'load-policy-'));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function put(relative: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(cwd, relative)), { recursive: true });
  await writeFile(path.join(cwd, relative), text);
}

describe('loadPolicy', () => {
  it('uses the built-in default when no path is given and no policy file exists', async () => {
    const result = await loadPolicy(undefined, { cwd });
    expect(result.source).toBe('default');
    expect(result.ok && result.policy).toBe(DEFAULT_POLICY);
    expect(result.diagnostics).toEqual([]);
  });

  it.each(['.github/context-policy.yml', '.github/context-policy.yaml'])('discovers %s', async (file) => {
    await put(file, 'budget: 1234\n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.source).toBe(file);
    expect(result.ok && result.policy.budget).toBe(1234);
  });

  it('discovers .github/context-policy.json', async () => {
    await put('.github/context-policy.json', '{ "budget": 4321 }\n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.source).toBe('.github/context-policy.json');
    expect(result.ok && result.policy.budget).toBe(4321);
  });

  it('prefers .yml when several exist, and warns that the others are ignored', async () => {
    await put('.github/context-policy.yml', 'budget: 1\n');
    await put('.github/context-policy.json', '{ "budget": 2 }\n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.ok && result.policy.budget).toBe(1);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      '.github/context-policy.yml:1:1: warning[multiple-policy-files]: several policy files exist (.github/context-policy.yml, .github/context-policy.json); this one is used. Hint: Delete the others so that one file states the policy.',
    ]);
  });

  it('reads an explicit path relative to cwd, naming it as given', async () => {
    await put('ci/strict.yml', 'resilience:\n  trunc_mode: aggressive\n');
    const result = await loadPolicy('ci/strict.yml', { cwd });
    expect(result.source).toBe('ci/strict.yml');
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'ci/strict.yml:2:3 unknown-key',
    ]);
  });

  it('fails when an explicit path does not exist, even if a default file would be found', async () => {
    await put('.github/context-policy.yml', 'budget: 1\n');
    const result = await loadPolicy('missing.yml', { cwd });
    expect(result.ok).toBe(false);
    expect(result.source).toBe('missing.yml');
    expect(result.diagnostics.map((d) => [d.file, d.code, d.hint])).toEqual([
      [
        'missing.yml',
        'not-found',
        'Check the policy path; without one, .github/context-policy.yml is used when it exists.',
      ],
    ]);
  });

  it('returns the diagnostics of an invalid policy file', async () => {
    await put('.github/context-policy.yml', 'budget: -1\n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual([
      '.github/context-policy.yml:1:9 error invalid-value',
    ]);
  });

  it('refuses a misspelt key: the run must not use the default budget instead', async () => {
    await put('.github/context-policy.yml', 'version: 1\nbudjet: 5000\n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      '.github/context-policy.yml:2:1: error[unknown-key-typo]: unknown key budjet: did you mean `budget`? A misspelt key is an error, since the setting would otherwise be silently ignored. Hint: Rename it to `budget`, or delete it to use the default.',
    ]);
  });

  it('passes strict on: other unknown keys become errors', async () => {
    await put('ci/strict.yml', 'budget: 100\ntelemetry: true\n');
    const lenient = await loadPolicy('ci/strict.yml', { cwd });
    expect(lenient.ok && lenient.policy.budget).toBe(100);
    const strict = await loadPolicy('ci/strict.yml', { cwd, strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual([
      '2:1 error unknown-key',
    ]);
  });

  it('treats a whitespace-only file like an empty policy: the default, with a warning', async () => {
    await put('.github/context-policy.yml', '\n  \n');
    const result = await loadPolicy(undefined, { cwd });
    expect(result.ok && result.policy).toEqual(DEFAULT_POLICY);
    expect(result.diagnostics.map((d) => `${d.file} ${d.severity} ${d.code}`)).toEqual([
      '.github/context-policy.yml warning empty-policy',
    ]);
  });

  it('refuses a file over the size cap before parsing it', async () => {
    await put('big.yml', `# ${'x'.repeat(2048)}\nbudget: 1\n`);
    const result = await loadPolicy('big.yml', { cwd, maxFileBytes: 1024 });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
  });

  it('strips a UTF-8 byte order mark before parsing', async () => {
    await put('bom.yml', '\ufeffbudget: 77\n');
    const result = await loadPolicy('bom.yml', { cwd });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok && result.policy.budget).toBe(77);
  });
});
