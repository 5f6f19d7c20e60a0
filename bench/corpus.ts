// Loads a corpus written by bench/generate-corpus.ts, in manifest order, so every measurement
// sees the same files in the same order.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface BenchFile {
  name: string;
  format: string;
  text: string;
  /** UTF-8 size on disk. */
  bytes: number;
}

interface ManifestFile {
  name: string;
  format: string;
  bytes: number;
}

export async function manifestFiles(dir: string): Promise<ManifestFile[]> {
  const manifestPath = path.join(dir, 'manifest.json');
  let manifest: { files?: unknown };
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files?: unknown };
  } catch {
    throw new Error(
      `${manifestPath}: missing or not JSON; regenerate the corpus with bench/generate-corpus.ts.`,
    );
  }
  if (!Array.isArray(manifest.files)) {
    throw new Error(`${manifestPath}: no "files" list; regenerate the corpus with bench/generate-corpus.ts.`);
  }
  return (manifest.files as Partial<ManifestFile>[]).map((f, i) => {
    if (typeof f.name !== 'string' || f.name.includes('/') || typeof f.format !== 'string') {
      throw new Error(`${manifestPath}: entry ${i} has no valid name or format; regenerate the corpus.`);
    }
    return { name: f.name, format: f.format, bytes: typeof f.bytes === 'number' ? f.bytes : 0 };
  });
}

/** Reads one corpus file; `bytes` is measured, not taken from the manifest. */
export async function loadFile(dir: string, entry: { name: string; format: string }): Promise<BenchFile> {
  const buf = await readFile(path.join(dir, entry.name));
  return { name: entry.name, format: entry.format, text: buf.toString('utf8'), bytes: buf.byteLength };
}

export async function loadCorpus(dir: string): Promise<BenchFile[]> {
  const files: BenchFile[] = [];
  for (const entry of await manifestFiles(dir)) files.push(await loadFile(dir, entry));
  return files;
}

export function totalBytes(files: readonly BenchFile[]): number {
  return files.reduce((n, f) => n + f.bytes, 0);
}
