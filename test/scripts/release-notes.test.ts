// scripts/release-notes.mjs: the release workflow's notes are the CHANGELOG.md section of the
// tagged version. Run as the workflow runs it, a child process.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const SCRIPT = path.join(REPO, 'scripts/release-notes.mjs');

const CHANGELOG = [
  '# Changelog',
  '',
  'Intro text.',
  '',
  '## [Unreleased]',
  '',
  '### Added',
  '- not released yet',
  '',
  '## [1.2.0] - 2026-02-01',
  '',
  '### Added',
  '- feature **x** ([docs](docs/x.md))',
  '',
  '```md',
  '## [1.1.0] - a heading inside a code block',
  '```',
  '',
  '### Fixed',
  '- a bug',
  '',
  '## v1.1.0',
  '',
  '- one fix',
  '',
  '## [1.0.0] - 2026-01-01',
  '',
  '## [0.9.0-rc.1]',
  '',
  '- a pre-release',
  '',
  '[Unreleased]: https://github.com/o/r/compare/v1.2.0...HEAD',
  '[1.2.0]: https://github.com/o/r/compare/v1.1.0...v1.2.0',
  '',
].join('\n');

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'release-notes-'));
  file = path.join(dir, 'CHANGELOG.md');
  writeFileSync(file, CHANGELOG);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('release-notes', () => {
  it('prints the section of a version, without its heading, up to the next version', () => {
    const r = run('1.2.0', '--changelog', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        '### Added',
        '- feature **x** ([docs](docs/x.md))',
        '',
        '```md',
        '## [1.1.0] - a heading inside a code block',
        '```',
        '',
        '### Fixed',
        '- a bug',
        '',
      ].join('\n'),
    );
  });

  it('takes the tag as it is (leading v) and headings without brackets', () => {
    expect(run('v1.2.0', '--changelog', file).stdout).toContain('- a bug');
    const r = run('v1.1.0', '--changelog', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('- one fix\n');
  });

  it('leaves the link reference definitions at the end of the file out of the last section', () => {
    const r = run('0.9.0-rc.1', '--changelog', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('- a pre-release\n');
  });

  it('fails on a version without a section, or with an empty one', () => {
    const missing = run('2.0.0', '--changelog', file);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('no section for 2.0.0');
    const empty = run('1.0.0', '--changelog', file);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('is empty');
  });

  it('does not take 1.2.0 for 1.2.0-rc.1 or 11.2.0', () => {
    const other = path.join(dir, 'other.md');
    writeFileSync(other, '## [1.2.0-rc.1]\n\n- rc\n\n## [11.2.0]\n\n- eleven\n');
    expect(run('1.2.0', '--changelog', other).status).toBe(1);
    expect(run('1.2.0-rc.1', '--changelog', other).stdout).toBe('- rc\n');
  });

  it('exits 2 on usage errors', () => {
    expect(run().status).toBe(2);
    expect(run('Unreleased', '--changelog', file).status).toBe(2);
    expect(run('1.2.0', '--changelog').status).toBe(2);
    expect(run('1.2.0', '--bogus').status).toBe(2);
  });

  it('reads CHANGELOG.md of the repository by default', () => {
    const own = readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8');
    const version = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/m.exec(own)?.[1];
    const r = run(version ?? '999.0.0');
    if (version === undefined) {
      // No release yet: only [Unreleased].
      expect(r.status).toBe(1);
    } else {
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).not.toBe('');
    }
  });
});
