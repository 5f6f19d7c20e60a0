// The published package as a user gets it: `npm pack`, then `npm install <tarball>` into a fresh
// project, then the library through `import` and `require`, and the CLI through `npx`.
// What it guards: the `exports` conditions, the `files` list (no tests, no sources, no source maps; the policy schema),
// the runtime dependencies (the Action's @actions/* packages are bundled into dist/ and must not be
// installed into library users), the CLI working without them, and engines the tree satisfies.
// Needs build/ (`npm test` builds first) and the npm registry (or npm's cache) for the dependencies.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIMEOUT, ok, packTarball, run } from './npm-child.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const EXAMPLE = 'coding-agent.anthropic.json';

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

const own = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as PackageJson;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

let work: string;
let project: string;
let installed: string;
let installLog: string;
let packed: string[];

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'build/index.js')) || !existsSync(path.join(REPO, 'build/cli/main.js')))
    ok(run('npm', ['run', 'build'], REPO), 'npm run build');
  work = mkdtempSync(path.join(tmpdir(), 'cs-package-'));
  const pack = packTarball(REPO, work);
  packed = pack.files;
  const tarball = pack.tarball;

  project = path.join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  const install = run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], project);
  installLog = `${install.stdout}\n${install.stderr}`;
  ok(install, 'npm install <tarball>');
  installed = path.join(project, 'node_modules', own.name);
  copyFileSync(path.join(REPO, 'examples/transcripts', EXAMPLE), path.join(project, EXAMPLE));
}, TIMEOUT);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds the CLI, the build, README, LICENSE and CHANGELOG; no tests, sources or source maps', () => {
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
    expect(packed).toContain('bin/context-stability.js');
    expect(packed).toContain('build/index.js');
    expect(packed).toContain('build/index.d.ts');
    // The bin runs the bundled CLI (scripts/bundle-cli.mjs); it falls back to build/cli/bin.js.
    expect(packed).toContain('build/cli.bundle.js');
    expect(packed).toContain('build/cli/bin.js');
    expect(packed.filter((f) => !/^(bin|build|schema)\/|^[^/]+$/.test(f))).toEqual([]);
    // The policy's JSON Schema, for editors ($schema URLs on unpkg/jsDelivr point into the package).
    const schema = 'schema/context-policy.schema.json';
    if (existsSync(path.join(REPO, schema))) expect(packed).toContain(schema);
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(packed).not.toContain('action.yml');
    // The installed copy too (what `files` let through).
    expect(filesUnder(installed).filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('installs only the runtime dependencies: no @actions/*, no Octokit', () => {
    const top = readdirSync(path.join(project, 'node_modules'));
    expect(top).not.toContain('@actions');
    expect(top).not.toContain('@octokit');
    expect(top).not.toContain('undici');
    // The framework adapters' peers are optional: a user of one framework never installs the others.
    for (const peer of ['ai', 'langchain', '@langchain', '@openai']) expect(top).not.toContain(peer);
    for (const dep of Object.keys(own.dependencies ?? {}))
      expect(existsSync(path.join(project, 'node_modules', dep, 'package.json'))).toBe(true);
    // Every installed package accepts this Node (our engines are true to the tree).
    expect(installLog).not.toMatch(/EBADENGINE/);
  });

  it('imports as an ES module', () => {
    const script = [
      "import * as lib from 'context-stability';",
      "import pkg from 'context-stability/package.json' with { type: 'json' };",
      "const parsed = lib.parsePolicy('version: 1\\n', { file: 'p.yml' });",
      'const read = lib.readTranscript(\'{"kind":"user","content":"hi"}\\n\', { file: \'t.jsonl\' });',
      'console.log(JSON.stringify({ stabilize: typeof lib.stabilize, readTranscript: typeof lib.readTranscript,',
      '  parsePolicy: typeof lib.parsePolicy, policy: parsed.ok, transcript: read.ok, version: pkg.version }));',
    ].join('\n');
    writeFileSync(path.join(project, 'esm.mjs'), script);
    const out = ok(run(process.execPath, ['esm.mjs'], project), 'node esm.mjs');
    expect(JSON.parse(out)).toEqual({
      stabilize: 'function',
      readTranscript: 'function',
      parsePolicy: 'function',
      policy: true,
      transcript: true,
      version: own.version,
    });
  });

  it('requires from CommonJS (require(esm): no top-level await in the library graph)', () => {
    const script = [
      "const lib = require('context-stability');",
      "const { version } = require('context-stability/package.json');",
      "const parsed = lib.parsePolicy('version: 1\\n', { file: 'p.yml' });",
      'console.log(JSON.stringify({ stabilize: typeof lib.stabilize, readTranscript: typeof lib.readTranscript,',
      '  parsePolicy: typeof lib.parsePolicy, policy: parsed.ok, version }));',
    ].join('\n');
    writeFileSync(path.join(project, 'cjs.cjs'), script);
    const out = ok(run(process.execPath, ['cjs.cjs'], project), 'node cjs.cjs');
    expect(JSON.parse(out)).toEqual({
      stabilize: 'function',
      readTranscript: 'function',
      parsePolicy: 'function',
      policy: true,
      version: own.version,
    });
  });

  it('runs the in-agent stabilizer and the framework-free adapters without any framework installed', () => {
    const script = [
      "import { createContextStabilizer, stabilizeOpenAIRequest, ContextEscalatedError } from 'context-stability';",
      "import { stabilizeAnthropicRequest } from 'context-stability/request-body';",
      "import { contextStabilityInputFilter } from 'context-stability/openai-agents';",
      'const cs = createContextStabilizer({ policy: { budget: 500 } });',
      "const body = await stabilizeOpenAIRequest(cs, { model: 'm', messages: [{ role: 'user', content: 'mail a@example.com' }] });",
      "const a = await stabilizeAnthropicRequest(cs, { max_tokens: 9, messages: [{ role: 'user', content: 'hi' }] });",
      'console.log(JSON.stringify({ sent: body.messages[0].content, model: body.model, anthropic: a.max_tokens,',
      '  filter: typeof contextStabilityInputFilter(cs), error: typeof ContextEscalatedError }));',
    ].join('\n');
    writeFileSync(path.join(project, 'agent.mjs'), script);
    const out = ok(run(process.execPath, ['agent.mjs'], project), 'node agent.mjs');
    expect(JSON.parse(out)).toEqual({
      sent: 'mail [EMAIL_1]',
      model: 'm',
      anthropic: 9,
      filter: 'function',
      error: 'function',
    });
    // The LangChain adapter needs its framework: without it the import names the missing package.
    writeFileSync(path.join(project, 'lc.mjs'), "await import('context-stability/langchain');\n");
    const lc = run(process.execPath, ['lc.mjs'], project);
    expect(lc.status).not.toBe(0);
    expect(lc.stderr).toMatch(/Cannot find package '(langchain|@langchain\/core)'/);
  });

  it('runs the CLI with npx: --help, and check on an example transcript', () => {
    const help = run('npx', ['--no', '--', 'context-stability', '--help'], project);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: context-stability');
    const check = run('npx', ['--no', '--', 'context-stability', 'check', EXAMPLE], project);
    expect([0, 1], `${check.stdout}\n${check.stderr}`).toContain(check.status);
    expect(check.stdout).toContain(EXAMPLE);
    expect(`${check.stdout}\n${check.stderr}`).not.toMatch(/@actions|ERR_MODULE_NOT_FOUND/);
  });
});
