// The committed bundle as the runner loads it: action.yml points at an ESM dist/index.js that
// needs nothing outside dist/ (no node_modules, no package.json lookups, no paths of the machine
// that built it), with the tokenizer encodings as chunks next to it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { writeFile } from 'node:fs/promises';
import { DIST, ROOT, ensureDist, makeWorkspace, runDist, removeTempDirs } from './support.js';

const DIR = path.dirname(DIST);

beforeAll(() => ensureDist());
afterAll(removeTempDirs);

describe('dist/', () => {
  it('is what action.yml runs, on node24', () => {
    const manifest = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
      runs: Record<string, string>;
    };
    expect(manifest.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('is an ES module bundle whose chunks are all present', () => {
    expect(JSON.parse(readFileSync(path.join(DIR, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    const code = readFileSync(DIST, 'utf8');
    expect(code).toMatch(/^import /m);
    const chunks = new Set([...code.matchAll(/__nccwpck_require__\.e\((\d+)\)/g)].map((m) => m[1]));
    // The four lazily imported encodings (at least) are split out and shipped.
    expect(chunks.size).toBeGreaterThanOrEqual(4);
    for (const chunk of chunks) expect(existsSync(path.join(DIR, `${chunk}.index.js`)), chunk).toBe(true);
  });

  it('holds no absolute path of the build machine and looks up no package.json at run time', () => {
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(path.join(DIR, file), 'utf8');
      expect(code.includes(ROOT), file).toBe(false);
      expect(
        /require\)?\(import\.meta\.url\)\('[^']*package\.json'\)|require\('[^']*package\.json'\)/.test(code),
        file,
      ).toBe(false);
    }
  });

  it('ships the licenses of the bundled packages', () => {
    const licenses = readFileSync(path.join(DIR, 'licenses.txt'), 'utf8');
    for (const name of ['@actions/core', '@actions/github', 'gpt-tokenizer', 'yaml', 'zod', 're2js']) {
      expect(licenses).toMatch(new RegExp(`^${name.replace('/', '\\/')} \\d+\\.\\d+\\.\\d+\\n`, 'm'));
    }
  });
});

describe('dist/index.js', () => {
  it.each(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'])(
    'loads the %s encoding from its chunk',
    async (tokenizer) => {
      const workspace = await makeWorkspace();
      await writeFile(path.join(workspace, 'p.yml'), `version: 1\ntokenizer: ${tokenizer}\n`);
      const run = await runDist({
        workspace,
        inputs: { mode: 'update', transcripts: 'transcripts/notes.jsonl', policy: 'p.yml' },
      });
      expect(run.code).toBe(0);
      const report = JSON.parse(await readFile(run.outputs['report-path'] as string, 'utf8')) as {
        tokenizer: { name: string; version: string };
        tool: { version: string };
      };
      const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(report.tokenizer).toEqual({
        name: tokenizer,
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/) as unknown,
      });
      expect(report.tool.version).toBe(own.version);
    },
  );
});
