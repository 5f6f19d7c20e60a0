// The README's commands must work on a fresh clone: `check` on the bundled examples against the
// committed goldens, in CI mode (nothing written, a missing golden fails). A stabilizer change that
// moves any example shows up here as drift, until `npm run goldens` rewrites them. The README links
// to docs/ for everything else, so every relative link of README.md and docs/ must resolve.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, assertBuilt, runBuilt } from './check-cli.js';

const readme = (): string => readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The commands of the first ```sh block holding `text`, comments stripped. */
function commandsOf(markdown: string, text: string): string[] {
  const block = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((b) => b.includes(text));
  return (block ?? '')
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function docsFiles(): string[] {
  const under = readdirSync(path.join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', ...under];
}

describe('README', () => {
  beforeAll(assertBuilt);

  it('installs from npm and the Action, then shows the clone, the check of the examples and npm test', () => {
    const text = readme();
    expect(commandsOf(text, 'npm install')).toEqual([
      'npm install -D context-stability',
      "npx context-stability check 'transcripts/**'",
    ]);
    expect(text).toMatch(/- uses: OWNER\/context-stability@v1\n/);
    expect(commandsOf(text, 'git clone')).toEqual([
      'git clone https://github.com/OWNER/context-stability.git && cd context-stability',
      'npm ci && npx context-stability check examples/transcripts',
      'npm test',
    ]);
  });

  it('is a short read: what it is and the picture come first, the rest links to docs/', () => {
    const text = readme();
    const words = text
      .replace(/```[\s\S]*?```/g, '')
      .split(/\s+/)
      .filter(Boolean).length;
    expect(words, 'prose words (about 200 a minute: a five-minute read)').toBeLessThanOrEqual(1_000);
    expect(text.indexOf('![')).toBeLessThan(text.indexOf('\n## '));
  });

  it('links only to files and headings that exist (README.md and docs/)', () => {
    const broken: string[] = [];
    for (const doc of docsFiles()) {
      const body = readFileSync(path.join(REPO, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [file, anchor] = target!.split('#');
        const resolved = file ? path.join(path.dirname(path.join(REPO, doc)), file) : path.join(REPO, doc);
        if (!existsSync(resolved)) {
          broken.push(`${doc}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md')) {
          const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
            anchorOf(m[1]!),
          );
          if (!headings.includes(anchor)) broken.push(`${doc}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('checks the bundled examples against the committed goldens, with the repo policy, and passes', async () => {
    const r = await runBuilt(['check', 'examples/transcripts'], REPO, { CI: 'true' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /6 transcripts checked: 0 with violations, 0 drifted, 0 new, 0 errors, 6 passed; 0 obsolete goldens\./,
    );
    expect(r.stdout).toContain('5 clean passes not listed (--verbose lists every transcript).');
    expect(r.stdout).toMatch(/^PASS +examples\/transcripts\/phase-change.native.json/m);
    expect(r.code).toBe(0);
  });
});
