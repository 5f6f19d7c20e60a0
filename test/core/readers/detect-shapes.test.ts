// Each JSON shape's predicate (detect.ts tries them in order) claims its own format's files and no
// other format's: every reader fixture and bundled example is tried against every predicate, and
// auto-detection must give each file its own format. A new fixture is covered by being added.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isClaudeWebDocument } from '../../../src/core/readers/claude-web.js';
import { parseContainer } from '../../../src/core/readers/container.js';
import { isGeminiDocument } from '../../../src/core/readers/gemini.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import { isLangChainDocument } from '../../../src/core/readers/langchain.js';
import { isOpenHandsDocument } from '../../../src/core/readers/openhands.js';
import { isResponsesDocument } from '../../../src/core/readers/responses.js';
import { isVercelAiDocument } from '../../../src/core/readers/vercel-ai.js';
import type { TranscriptFormat } from '../../../src/core/types.js';

const PREDICATES: Partial<Record<TranscriptFormat, (root: unknown) => boolean>> = {
  'claude-web': isClaudeWebDocument,
  openhands: isOpenHandsDocument,
  langchain: isLangChainDocument,
  gemini: isGeminiDocument,
  responses: isResponsesDocument,
  'vercel-ai': isVercelAiDocument,
};

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const READERS = path.join(ROOT, 'test/fixtures/readers');

/** Top-level reader fixtures and examples name their format; folders under readers/ are formats. */
const BY_NAME: [RegExp, TranscriptFormat][] = [
  [/anthropic/, 'anthropic'],
  [/claude-code/, 'claude-code'],
  [/openai/, 'openai'],
  [/native/, 'native'],
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function formatOf(file: string): TranscriptFormat {
  const rel = path.relative(READERS, file);
  const folder = rel.includes(path.sep) && !rel.startsWith('..') ? rel.split(path.sep)[0] : undefined;
  if (folder) return folder as TranscriptFormat;
  const named = BY_NAME.find(([re]) => re.test(path.basename(file)));
  if (!named) throw new Error(`say which format ${file} is in (BY_NAME)`);
  return named[1];
}

/** The JSON roots a predicate may see in a file: the document, or each JSONL record. */
function roots(file: string): unknown[] {
  const parsed = parseContainer(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), file);
  if (!parsed.ok) return [];
  const { container } = parsed;
  return container.kind === 'json' ? [container.doc.value] : container.lines.map((l) => l.value);
}

const FILES = [...walk(READERS), ...walk(path.join(ROOT, 'examples/transcripts'))]
  .filter((f) => /\.(json|jsonl|ndjson|traj)$/.test(f))
  .map((f) => ({ rel: path.relative(ROOT, f), file: f, format: formatOf(f) }));

describe('JSON shape predicates', () => {
  it('covers a fixture of every format with a predicate', () => {
    const formats = new Set(FILES.map((f) => f.format));
    for (const format of Object.keys(PREDICATES))
      expect(formats.has(format as TranscriptFormat), format).toBe(true);
  });

  it.each(FILES.map((f) => [f.rel, f] as const))('%s: claimed by its own predicate only', (_rel, f) => {
    for (const [format, matches] of Object.entries(PREDICATES)) {
      const claimed = roots(f.file).some((root) => matches(root));
      if (format === f.format) expect(claimed, `${format} claims its own file`).toBe(true);
      else expect(claimed, `${format} must not claim a ${f.format} file`).toBe(false);
    }
  });

  it.each(FILES.map((f) => [f.rel, f] as const))('%s: auto-detection gives its own format', (_rel, f) => {
    const read = readTranscript(readFileSync(f.file, 'utf8').replace(/^\uFEFF/, ''), { file: f.rel });
    // A deliberately malformed document may not load; it must not load as another format.
    if (read.ok) expect(read.transcript.format).toBe(f.format);
    else expect(read.diagnostics.some((d) => d.code === 'unknown-format')).toBe(false);
  });
});
