// Shared by the reader tests: fixture loading and a readTranscript that must succeed.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { readTranscript, type ReadOptions } from '../../../src/core/readers/index.js';
import type { Diagnostic, Transcript } from '../../../src/core/types.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/readers/', import.meta.url));

export function fixture(name: string): string {
  return new TextDecoder().decode(readFileSync(FIXTURES + name));
}

export function load(text: string, opts: ReadOptions): Transcript {
  const result = readTranscript(text, opts);
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.transcript;
}

export function failure(text: string, opts: ReadOptions): Diagnostic[] {
  const result = readTranscript(text, opts);
  if (result.ok) throw new Error(`expected ${opts.file} not to load`);
  return result.diagnostics;
}

/** `line:column code` of each diagnostic: compact to assert, and the part users act on. */
export function where(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);
}

/** Diagnostics must never quote input: none of these strings may appear in any message or hint. */
export function expectNoQuote(diagnostics: Diagnostic[], secrets: string[]): void {
  const text = diagnostics.map((d) => `${d.message} ${d.hint}`).join('\n');
  for (const secret of secrets) expect(text).not.toContain(secret);
}
