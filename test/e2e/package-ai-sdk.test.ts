// The packed tarball beside each supported major of the Vercel AI SDK (issue 29): `npm install
// <tarball> ai@N` succeeds without --legacy-peer-deps, and the middleware stabilizes the prompt a
// generateText call sends (PII masked) through that major's own mock model. Needs build/ (`npm
// test` builds first) and the npm registry (or npm's cache) for `ai` and the runtime dependencies.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUT, ok, packTarball, run } from './npm-child.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
/** Each major the peer range names, with the mock model class its `ai/test` exports. */
const MAJORS = [
  { major: 6, mock: 'MockLanguageModelV3' },
  { major: 7, mock: 'MockLanguageModelV4' },
] as const;

let work: string;
let tarball: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'cs-ai-majors-'));
  tarball = packTarball(REPO, work).tarball;
}, TIMEOUT);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A generateText call through the wrapped mock model; prints the prompt the model received. */
function script(mock: string): string {
  return [
    "import { generateText, wrapLanguageModel } from 'ai';",
    `import { ${mock} } from 'ai/test';`,
    "import { createContextStabilizer } from 'context-stability';",
    "import { contextStabilityMiddleware } from 'context-stability/ai-sdk';",
    'const seen = [];',
    `const model = new ${mock}({ doGenerate: async (o) => { seen.push(o.prompt); return {`,
    "  content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: 'stop' }, warnings: [],",
    '  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } }; } });',
    'const cs = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });',
    'const wrapped = wrapLanguageModel({ model, middleware: contextStabilityMiddleware(cs) });',
    "const r = await generateText({ model: wrapped, system: 'You help.', prompt: 'Mail me at jane.roe@example.com' });",
    'console.log(JSON.stringify({ text: r.text, prompt: seen[0] }));',
  ].join('\n');
}

describe('the package beside each AI SDK major', () => {
  it.each(MAJORS)(
    'ai $major: installs without flags, and the middleware stabilizes the prompt',
    ({ major, mock }) => {
      const project = path.join(work, `ai${major}`);
      mkdirSync(project);
      writeFileSync(
        path.join(project, 'package.json'),
        '{ "name": "c", "version": "1.0.0", "private": true, "type": "module" }\n',
      );
      ok(
        run(
          'npm',
          ['install', tarball, `ai@${major}`, '--no-audit', '--no-fund', '--prefer-offline'],
          project,
        ),
        `npm install <tarball> ai@${major}`,
      );
      const ai = JSON.parse(readFileSync(path.join(project, 'node_modules/ai/package.json'), 'utf8')) as {
        version: string;
      };
      expect(ai.version.split('.')[0]).toBe(String(major));
      writeFileSync(path.join(project, 'agent.mjs'), script(mock));
      const out = JSON.parse(ok(run(process.execPath, ['agent.mjs'], project), 'node agent.mjs')) as unknown;
      expect(out).toEqual({
        text: 'ok',
        prompt: [
          { role: 'system', content: 'You help.' },
          { role: 'user', content: [{ type: 'text', text: 'Mail me at [EMAIL_1]' }] },
        ],
      });
    },
    TIMEOUT,
  );
});
