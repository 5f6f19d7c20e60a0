// Every JSON document the CLI prints carries `schema_version` (issue 15), an integer:
// one exported constant per shape (src/cli/json-schemas.ts). A provider request (`stabilize
// --emit`) is the provider's shape exactly and has none.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import {
  CHECK_REPORT_SCHEMA,
  GUARDIAN_BUNDLE_SCHEMA,
  INSPECT_REPORT_SCHEMA,
  STABILIZE_REPORT_SCHEMA,
} from '../../src/cli/json-schemas.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/cli');

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-schema-'));
  for (const file of ['notes.jsonl', 'support-chat.json'])
    cpSync(path.join(FIXTURES, file), path.join(dir, file));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const io = fakeIO(dir, { CI: 'true' });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** The JSON document of stdout; guardian ends it with the status line. */
function document(out: string): Record<string, unknown> {
  const json = out.replace(/\nSTATUS:[A-Z_]+\n$/, '\n');
  return JSON.parse(json) as Record<string, unknown>;
}

describe('schema_version', () => {
  it('is a positive integer constant for each shape', () => {
    for (const version of [
      CHECK_REPORT_SCHEMA,
      STABILIZE_REPORT_SCHEMA,
      INSPECT_REPORT_SCHEMA,
      GUARDIAN_BUNDLE_SCHEMA,
    ]) {
      expect(Number.isInteger(version) && version >= 1).toBe(true);
    }
  });

  it('leads every JSON output of the CLI', async () => {
    await run('guardian', 'ensure', '--root', 'state', '--goal', 'ship it');
    const outputs: [string[], number][] = [
      [['stabilize', '--json', 'notes.jsonl'], STABILIZE_REPORT_SCHEMA],
      [['inspect', '--json', 'notes.jsonl', 'support-chat.json'], INSPECT_REPORT_SCHEMA],
      [
        ['check', '--format', 'json', '--report', 'shard.json', '--shard', '1/1', 'notes.jsonl'],
        CHECK_REPORT_SCHEMA,
      ],
      [['merge', '--format', 'json', 'shard.json'], CHECK_REPORT_SCHEMA],
      [['guardian', 'bundle', '--root', 'state'], GUARDIAN_BUNDLE_SCHEMA],
    ];
    for (const [args, version] of outputs) {
      const r = await run(...args);
      const json = document(r.out);
      // First where the CLI builds the object; the check report's keys are sorted (stable JSON).
      if (version !== CHECK_REPORT_SCHEMA)
        expect(Object.keys(json)[0], args.join(' ')).toBe('schema_version');
      expect(json['schema_version'], args.join(' ')).toBe(version);
    }
    const report = JSON.parse(readFileSync(path.join(dir, 'shard.json'), 'utf8')) as Record<string, unknown>;
    expect(report['schema_version']).toBe(CHECK_REPORT_SCHEMA);
  });

  it('is not in a provider request body (stabilize --emit)', async () => {
    for (const emit of ['openai', 'anthropic', 'native']) {
      const r = await run('stabilize', '--emit', emit, 'notes.jsonl');
      expect(r.out, emit).not.toContain('schema_version');
    }
  });

  it('is named in the --help of the commands that print JSON', async () => {
    expect((await run('stabilize', '--help')).out).toContain(`schema_version (${STABILIZE_REPORT_SCHEMA})`);
    expect((await run('stabilize', '--help')).out).toContain(
      "exactly\n                          the provider's shape, with no schema_version",
    );
    expect((await run('inspect', '--help')).out).toContain(`schema_version: ${INSPECT_REPORT_SCHEMA}`);
    expect((await run('guardian', 'bundle', '--help')).out).toContain(`schema_version\n`);
  });
});
