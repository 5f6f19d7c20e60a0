// The published library entry (build/index.js, package "exports") used as a consumer would.
import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as LibraryModule from '../../src/index.js';

type Library = typeof LibraryModule;

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const ENTRY = path.join(REPO, 'build/index.js');

async function library(): Promise<Library> {
  if (!existsSync(ENTRY))
    throw new Error('build/index.js is missing: run `npm run build` first (`npm test` does).');
  return (await import(pathToFileURL(ENTRY).href)) as Library;
}

describe('library entry', () => {
  it('reads a transcript, parses a policy and counts tokens with it', async () => {
    const lib = await library();
    const parsed = lib.parsePolicy('version: 1\ntokenizer: cl100k_base\nmessage_overhead: 4\n', {
      file: 'p.yml',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const read = lib.readTranscript('{"kind":"user","content":"hello world"}\n', { file: 't.jsonl' });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const tok = await lib.loadTokenizer(parsed.policy.tokenizer);
    const [artifact] = read.transcript.artifacts;
    expect(artifact && lib.countArtifactTokens(artifact, tok, parsed.policy)).toBe(4 + 2);
  });

  it('loads transcripts from disk and exposes the default policy', async () => {
    const lib = await library();
    const loaded = await lib.loadTranscript('test/fixtures/cli/support-chat.json', { cwd: REPO });
    expect(loaded.ok && loaded.transcript.artifacts.length).toBe(8);
    expect(lib.DEFAULT_POLICY.tokenizer).toBe('o200k_base');
    expect(lib.TOKENIZER_NAMES).toEqual(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base']);
  });
});
