// Issue 12, item 1, in the action: update mode never writes through a golden folder that is a
// symbolic link to outside the workspace (GITHUB_WORKSPACE); it stops with the diagnostic.
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { INPUT_NAMES, parseInputs } from '../../src/action/inputs.js';
import type { ActionOptions, RawInputs } from '../../src/action/inputs.js';
import { produceReport } from '../../src/action/produce.js';
import { TempRepo } from '../cli/check-support.js';

let repo: TempRepo;
let outside: string;

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    try {
      out[entry] = readFileSync(path.join(dir, entry), 'utf8');
    } catch {
      out[entry] = '<folder>';
    }
  }
  return out;
}

function options(mode: string): ActionOptions {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, ''])) as RawInputs;
  Object.assign(raw, { mode, transcripts: 'transcripts', policy: 'policy.yml', 'golden-dir': 'golden' });
  const parsed = parseInputs(raw, repo.dir);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.options;
}

beforeEach(() => {
  repo = new TempRepo();
  outside = path.join(repo.root, 'outside');
  mkdirSync(path.join(outside, 'transcripts'), { recursive: true });
  writeFileSync(path.join(outside, 'transcripts', 'gone.jsonl.golden.json'), 'precious\n');
  symlinkSync(outside, repo.path('golden'), 'dir');
});
afterEach(() => {
  repo.remove();
});

it('update mode refuses a golden folder linked outside the workspace and writes nothing there', async () => {
  const before = snapshot(outside);
  const produced = await produceReport(options('update'), repo.dir, path.join(repo.root, 'report.json'));
  expect(produced.ok).toBe(false);
  if (produced.ok) return;
  expect(produced.diagnostics.map((d) => [d.file, d.code])).toEqual([['golden', 'golden-outside-workspace']]);
  expect(produced.message).toContain('outside the workspace');
  expect(produced.message).not.toContain(repo.root);
  expect(snapshot(outside)).toEqual(before);
});

it('check mode reads no golden there', async () => {
  const before = snapshot(outside);
  const produced = await produceReport(options('check'), repo.dir, path.join(repo.root, 'report.json'));
  const codes = produced.ok
    ? produced.report.transcripts.flatMap((t) => (t.diagnostics ?? []).map((d) => d.code))
    : produced.diagnostics.map((d) => d.code);
  expect(codes).toContain('golden-outside-workspace');
  expect(snapshot(outside)).toEqual(before);
});
