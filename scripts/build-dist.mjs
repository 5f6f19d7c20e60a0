#!/usr/bin/env node
// Builds the action's committed bundle: dist/index.js (ESM, as the package is "type": "module")
// plus the chunks of the lazily imported tokenizer encodings, dist/package.json and
// dist/licenses.txt. Input: the tsc output build/action/main.js (`npm run build` first).
// Reproducible: no cache, no source maps, no absolute paths, sorted license list; building twice
// gives identical bytes, which CI checks against the committed dist/. No source maps also means no
// `//# sourceMappingURL=` comments: the bundled packages' comments point at maps dist/ does not hold.
//
// Bundled code cannot look files up next to itself at run time: an action checkout has no
// node_modules and no package.json where the source expected them. The version lookups
// `createRequire(import.meta.url)('…package.json')` are therefore replaced by the versions they
// would read, and the build fails on any package.json lookup it does not know.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const entry = path.join(root, 'build', 'action', 'main.js');
const outDir = path.join(root, 'dist');

function fail(message) {
  process.stderr.write(`build-dist: ${message}\n`);
  process.exit(1);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Each known lookup, as the bundler leaves it, and the version it must become. */
function lookups() {
  const own = readJson(path.join(root, 'package.json')).version;
  const tokenizer = readJson(require.resolve('gpt-tokenizer/package.json')).version;
  return [
    // src/cli/check/tool.ts: the tool version machine reports record.
    {
      pattern: /\(0,\s*[\w$]+\.createRequire\)\(import\.meta\.url\)\('(?:\.\.\/)+package\.json'\)/g,
      replacement: `({ version: ${JSON.stringify(own)} })`,
    },
    // src/tokens/load.ts: the tokenizer version goldens record.
    {
      pattern: /\brequire\('gpt-tokenizer\/package\.json'\)/g,
      replacement: `({ version: ${JSON.stringify(tokenizer)} })`,
    },
  ];
}

/** Drops `//# sourceMappingURL=…` lines left by bundled packages: their maps are not shipped. */
function stripSourceMapComments(code) {
  return code.replace(/^\/\/[#@] sourceMappingURL=[^\s'"`]*[ \t]*\r?\n?/gm, '');
}

function resolveLookups(name, code) {
  let out = stripSourceMapComments(code);
  for (const { pattern, replacement } of lookups()) out = out.replace(pattern, () => replacement);
  const left = /['"][^'"\n]*package\.json['"]\)/.exec(out);
  if (left && /require|createRequire/.test(out.slice(Math.max(0, left.index - 120), left.index))) {
    fail(
      `${name} still looks up a package.json at run time (offset ${left.index}); teach scripts/build-dist.mjs its version.`,
    );
  }
  return out;
}

/** Every module the bundle holds, through concatenated modules. */
function moduleNames(stats) {
  const names = [];
  const visit = (modules) => {
    for (const m of modules ?? []) {
      if (m.name) names.push(m.name);
      visit(m.modules);
    }
  };
  visit(stats.toJson({ modules: true, nestedModules: true }).modules);
  return names;
}

/** `./node_modules/a/node_modules/@b/c/x.js` → `node_modules/a/node_modules/@b/c` */
function packageDirOf(moduleName) {
  const match = /^(?:\.\/)?((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/ ]+)/.exec(moduleName);
  return match ? match[1] : null;
}

function licenseText(dir) {
  const files = readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
    .sort();
  return files
    .map((f) => readFileSync(path.join(dir, f), 'utf8').replace(/\r\n/g, '\n').trimEnd())
    .join('\n\n');
}

function licenses(stats) {
  const dirs = [
    ...new Set(
      moduleNames(stats)
        .map(packageDirOf)
        .filter((d) => d !== null),
    ),
  ];
  const entries = dirs.map((dir) => {
    const pkg = readJson(path.join(root, dir, 'package.json'));
    return {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license ?? 'UNKNOWN',
      text: licenseText(path.join(root, dir)),
    };
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const own = readJson(path.join(root, 'package.json'));
  const head = `${own.name} ${own.version} bundles the following packages.\n`;
  const body = entries.map((e) => `${e.name} ${e.version}\n${e.license}\n${e.text ? `\n${e.text}\n` : ''}`);
  return `${[head, ...body].join('\n---\n\n')}`;
}

if (!existsSync(entry)) fail('build/action/main.js is missing: run `npm run build` first.');
const ncc = require('@vercel/ncc');
const result = await ncc(entry, {
  cache: false,
  minify: false,
  sourceMap: false,
  quiet: true,
  target: 'es2022',
});

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'index.js'), resolveLookups('index.js', result.code));
for (const name of Object.keys(result.assets).sort()) {
  const source = result.assets[name].source;
  const text = Buffer.isBuffer(source) ? source : Buffer.from(source);
  const out = name.endsWith('.js') ? resolveLookups(name, text.toString('utf8')) : text;
  mkdirSync(path.dirname(path.join(outDir, name)), { recursive: true });
  writeFileSync(path.join(outDir, name), out);
}
writeFileSync(path.join(outDir, 'licenses.txt'), licenses(result.stats));
if (readFileSync(path.join(outDir, 'index.js'), 'utf8').includes(root))
  fail('the bundle holds an absolute path of this machine.');
process.stdout.write(
  `build-dist: wrote ${path.relative(root, outDir)}/ (${Object.keys(result.assets).length + 2} files)\n`,
);
