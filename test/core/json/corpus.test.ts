// Real recorded transcripts: everything decodes, every record parses to what JSON.parse gives, and
// positions point at the right brackets. The corpus lives outside the repo and may be absent.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/json/parse.js';
import { decodeInput } from '../../../src/core/text/decode.js';
import { splitJsonl } from '../../../src/core/text/jsonl.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus');
const present = existsSync(CORPUS);
if (!present) console.warn(`corpus tests skipped: ${CORPUS} not found`);

function transcriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'licenses' ? [] : transcriptFiles(full);
    return /\.(json|jsonl|traj)$/.test(name) && name !== 'SOURCES.json' ? [full] : [];
  });
}

describe.skipIf(!present)('corpus', () => {
  const files = present ? transcriptFiles(CORPUS) : [];

  it('has transcripts to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    it(path.relative(CORPUS, file), () => {
      const decoded = decodeInput(readFileSync(file), { file });
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      const jsonl = file.endsWith('.jsonl');
      const records = jsonl ? splitJsonl(decoded.text) : [{ line: 1, text: decoded.text }];
      const lineText = decoded.text.split('\n');
      for (const rec of records) {
        const r = parseJson(rec.text, { file, ...(jsonl ? { firstLine: rec.line } : {}) });
        expect(r.ok, `line ${rec.line}`).toBe(true);
        if (!r.ok) return;
        expect(r.value).toEqual(JSON.parse(rec.text));
        const { positions } = r;
        const visit = (node: unknown): void => {
          if (node === null || typeof node !== 'object') return;
          const pos = positions.get(node);
          expect(pos).toBeDefined();
          if (pos) expect(lineText[pos.line - 1]?.[pos.column - 1]).toBe(Array.isArray(node) ? '[' : '{');
          for (const child of Object.values(node)) visit(child);
        };
        visit(r.value);
      }
    });
  }
});
