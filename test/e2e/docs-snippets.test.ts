// Every TypeScript snippet of the documentation compiles as written (issue 29): each ```ts or
// ```typescript block of README.md and docs/**/*.md becomes its own file, snippet-<doc>-<n>.ts, in a
// fresh project where the packed tarball and the packages the snippets import (their latest
// releases; @types/node in the repo's range) are installed by one `npm install`. The project is
// strict, module and moduleResolution NodeNext (a Node ESM project: the snippets import the
// package's subpath exports, which NodeNext resolves through `exports`, and use top-level await),
// moduleDetection force (a snippet without imports is still a module, so snippets share no
// globals), noEmit, and skipLibCheck as `tsc --init` sets it: the SDKs' own declarations need the
// DOM lib (`ai`: HeadersInit, FileList; @openai/agents-realtime: RTCPeerConnection), which a Node
// project does not have, and checking every declaration file makes TypeScript 6 three times slower.
// It is compiled with the repo's TypeScript 6 and with TypeScript 7, installed into the temp project
// only (skipped, with a warning, when it does not install). A failing test is named after the
// fence (`docs/x.md:LINE`) and lists each error at its line in the doc.
//
// Conventions for the docs: a snippet that shows a fragment declares what it uses, visibly
// (`declare const messages: ModelMessage[];`). A block that must not be compiled (it shows an error,
// or pseudo-code) says so in its info string, ```ts nocompile; use it sparingly. Other languages
// (sh, yaml, json…) are not compiled.
//
// Needs build/ (`npm test` builds first); skipped, with a warning, when the npm registry is unreachable.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUT, ok, packTarball, registryUnreachable, runAsync, type Ran } from './npm-child.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const COMPILED = new Set(['ts', 'typescript']);
const NOCOMPILE = 'nocompile';

interface Snippet {
  /** The doc, relative to the repo, and the line of the opening fence (1-based). */
  doc: string;
  line: number;
  /** The indentation stripped from each line (a fence inside a list item). */
  indent: number;
  file: string;
  code: string;
}

function docs(): string[] {
  const under = readdirSync(path.join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split(path.sep).join('/')}`);
  return ['README.md', ...under.sort()];
}

/** The compiled blocks of one doc: CommonMark fences, closed by the same character, at least as long. */
function snippetsOf(doc: string): Snippet[] {
  const lines = readFileSync(path.join(REPO, doc), 'utf8').split('\n');
  const out: Snippet[] = [];
  const name = doc.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const [lang = '', ...flags] = info.trim().split(/\s+/);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!.replace(new RegExp(`^ {0,${indent.length}}`), ''));
    }
    if (COMPILED.has(lang.toLowerCase()) && !flags.includes(NOCOMPILE))
      out.push({
        doc,
        line: i + 1,
        indent: indent.length,
        file: `snippet-${name}-${out.length + 1}.ts`,
        code: `${body.join('\n')}\n`,
      });
    i = j;
  }
  return out;
}

const SNIPPETS = docs().flatMap(snippetsOf);

/** The packages the snippets import (the tarball aside): each at its latest release. */
function imported(): string[] {
  const names = new Set<string>();
  for (const s of SNIPPETS)
    for (const m of s.code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.') || isBuiltin(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (name !== 'context-stability') names.add(name);
    }
  return [...names].sort();
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    moduleDetection: 'force',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['snippet-*.ts'],
};

interface Diagnostics {
  /** Errors by snippet file, each as `<doc>:<line>:<column> error TSxxxx: message`. */
  bySnippet: Map<string, string[]>;
  /** Errors that belong to no snippet (the configuration, a declaration file), as tsc printed them. */
  other: string[];
  status: number | null;
  output: string;
}

/** tsc's `--pretty false` output, each error placed at its line in the doc. */
function diagnostics(r: Ran, project: string): Diagnostics {
  const files = new Map(SNIPPETS.map((s) => [s.file, s]));
  const bySnippet = new Map<string, string[]>();
  const other: string[] = [];
  let last: string[] | undefined;
  let lastIndex = -1;
  const output = `${r.stdout}\n${r.stderr}`;
  for (const text of output.split('\n')) {
    if (text.trim() === '') continue;
    // A message continued on the next lines (an elaborated type error) is indented.
    if (/^\s/.test(text) && last) {
      last[lastIndex] += `\n${text}`;
      continue;
    }
    const at = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/.exec(text);
    const file = at ? path.relative(project, path.resolve(project, at[1]!)) : '';
    const snippet = files.get(file);
    if (at && snippet) {
      const line = snippet.line + Number(at[2]);
      const column = snippet.indent + Number(at[3]);
      last = bySnippet.get(file) ?? [];
      bySnippet.set(file, last);
      lastIndex = last.push(`${snippet.doc}:${line}:${column} ${at[4]} ${at[5]}: ${at[6]}`) - 1;
    } else {
      last = other;
      lastIndex = other.push(text) - 1;
    }
  }
  return { bySnippet, other, status: r.status, output };
}

const OFFLINE = registryUnreachable(tmpdir());
if (OFFLINE) console.warn(`e2e: ${OFFLINE}: the documentation snippet tests are skipped.`);

const COMPILERS = ['TypeScript 6', 'TypeScript 7'] as const;
type Compiler = (typeof COMPILERS)[number];

let work: string;
/** Each compiler's errors, or why it did not run. */
const results = new Map<Compiler, Diagnostics | string>();

beforeAll(async () => {
  if (OFFLINE) return;
  if (!existsSync(path.join(REPO, 'build/index.d.ts')))
    throw new Error('build/ is missing: run `npm run build` first (`npm test` does)');
  work = mkdtempSync(path.join(tmpdir(), 'cs-snippets-'));
  const { tarball } = packTarball(REPO, work);

  const project = path.join(work, 'snippets');
  mkdirSync(project);
  const own = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const dependencies: Record<string, string> = { 'context-stability': `file:${tarball}` };
  for (const name of imported()) dependencies[name] = 'latest';
  dependencies['@types/node'] = own.devDependencies['@types/node'] ?? 'latest';
  const pkg = {
    name: 'snippets',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies,
    // Optional: npm goes on without it when TypeScript 7 does not resolve or has no binary here.
    optionalDependencies: { typescript: '^7.0.0' },
  };
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(path.join(project, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  for (const s of SNIPPETS) writeFileSync(path.join(project, s.file), s.code);
  ok(
    await runAsync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], project),
    `npm install ${Object.keys(dependencies).join(' ')}`,
  );

  const tsc7 = path.join(project, 'node_modules/typescript');
  const version = existsSync(path.join(tsc7, 'package.json'))
    ? (JSON.parse(readFileSync(path.join(tsc7, 'package.json'), 'utf8')) as { version: string }).version
    : undefined;
  const compilers: [Compiler, string | undefined][] = [
    ['TypeScript 6', path.join(REPO, 'node_modules/typescript/bin/tsc')],
    ['TypeScript 7', version?.startsWith('7.') ? path.join(tsc7, 'bin/tsc') : undefined],
  ];
  // Side by side: TypeScript 7 is native and done long before 6.
  await Promise.all(
    compilers.map(async ([name, tsc]) => {
      if (tsc === undefined) {
        results.set(name, `typescript@^7 did not install from the registry (${version ?? 'absent'})`);
        console.warn(`e2e: typescript@^7 did not install: the ${name} snippet tests are skipped.`);
        return;
      }
      const r = await runAsync(process.execPath, [tsc, '-p', '.', '--pretty', 'false'], project);
      results.set(name, diagnostics(r, project));
    }),
  );
}, TIMEOUT * 2);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(OFFLINE)('the TypeScript snippets of the docs', () => {
  it('are found', () => {
    expect(SNIPPETS.length).toBeGreaterThan(0);
  });

  describe.each(COMPILERS)('%s', (compiler) => {
    it('runs, with no error outside the snippets', (ctx) => {
      const r = results.get(compiler);
      if (typeof r === 'string') return ctx.skip(r);
      expect(r, `tsc did not run`).toBeDefined();
      expect(r!.other, r!.output).toEqual([]);
      // An exit status with no error printed is a crash.
      if (r!.status !== 0) expect(r!.bySnippet.size, r!.output).toBeGreaterThan(0);
    });

    for (const s of SNIPPETS)
      it(`${s.doc}:${s.line} compiles as written`, (ctx) => {
        const r = results.get(compiler);
        if (typeof r === 'string') return ctx.skip(r);
        expect(r, `tsc did not run`).toBeDefined();
        expect(r!.bySnippet.get(s.file) ?? [], `${s.doc}:${s.line} (${s.file})`).toEqual([]);
      });
  });
});
