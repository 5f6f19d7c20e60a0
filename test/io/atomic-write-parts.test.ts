// writeFileAtomicParts (the viewer page of a large run, issue 34 item 6): the parts go to the temp
// file as they come, a batch at a time, so the writer never holds the file whole; a byte cap
// stops the write and leaves the old file.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, isTempName, writeFileAtomicParts } from '../../src/io/atomic-write.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-atomic-parts-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(dir: string): string | undefined {
  return readdirSync(dir).find(isTempName);
}

describe('writeFileAtomicParts', () => {
  it('writes the parts as they come: never more than a batch and a part behind', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'page.html');
    const part = 128 * 1024;
    const count = 64; // 8 MiB
    let given = 0;
    let behind = 0;
    let targetSeen = false;
    async function* parts(): AsyncGenerator<string> {
      for (let i = 0; i < count; i++) {
        const temp = tempFile(dir);
        const written = temp === undefined ? 0 : statSync(path.join(dir, temp)).size;
        behind = Math.max(behind, given - written);
        // The target appears only with the last byte.
        targetSeen ||= readdirSync(dir).includes('page.html');
        const text = String(i % 10).repeat(part);
        given += text.length;
        yield text;
      }
    }
    await writeFileAtomicParts(target, parts());
    expect(statSync(target).size).toBe(part * count);
    expect(readFileSync(target, 'utf8').slice(part - 1, part + 1)).toBe('01');
    expect(targetSeen).toBe(false);
    // A batch is 1 MiB of text: the rest of the 8 MiB is on disk while the parts are made.
    expect(behind).toBeLessThanOrEqual((1 << 20) + part);
    expect(tempFile(dir)).toBeUndefined();
  });

  it('counts the cap in UTF-8 bytes and, past it, leaves the old file and no temp file', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'page.html');
    writeFileSync(target, 'old');
    const parts = ['é'.repeat(600), 'ü'.repeat(400)]; // 2,000 bytes, 1,000 UTF-16 units
    await expect(writeFileAtomicParts(target, parts, { maxBytes: 1999 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(tempFile(dir)).toBeUndefined();
    await writeFileAtomicParts(target, parts, { maxBytes: 2000 });
    expect(readFileSync(target, 'utf8')).toBe(parts.join(''));
  });

  it('stops at the cap without asking for the rest of the parts', async () => {
    const dir = tempDir();
    let asked = 0;
    function* endless(): Generator<string> {
      for (;;) {
        asked++;
        yield 'x'.repeat(64 * 1024);
      }
    }
    await expect(
      writeFileAtomicParts(path.join(dir, 'page.html'), endless(), { maxBytes: 4 << 20 }),
    ).rejects.toThrow(FileTooLargeError);
    expect(asked).toBeLessThan(100);
    expect(readdirSync(dir)).toEqual([]);
  });
});
