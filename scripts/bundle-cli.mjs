#!/usr/bin/env node
// Bundles the CLI (build/cli/bin.js, the tsc output) into one ES module, build/cli.bundle.js, which
// bin/context-stability.js runs. Why: a `check` of one small transcript spent most of its time
// resolving and compiling ~480 small modules (ours, zod's, libphonenumber's); one file loads in a
// fraction of that. The library (build/index.js) stays unbundled.
//
// The esbuild options (gpt-tokenizer external, a require() for bundled CommonJS) are in
// bundle-options.mjs, shared with the benchmark. Two version lookups read package.json relative to their own module, which a
// bundle moves; they become the version they would read, and the build fails on any other
// package.json lookup. No source maps (none are shipped). Deterministic: same inputs, same bytes.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'build', 'cli', 'bin.js');
const outfile = path.join(root, 'build', 'cli.bundle.js');

function fail(message) {
  process.stderr.write(`bundle-cli: ${message}\n`);
  process.exit(1);
}

const result = await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile, write: false });
if (result.errors.length > 0) fail('esbuild reported errors.');

const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
let code = new TextDecoder().decode(result.outputFiles[0].contents);
// src/cli/main.ts (packageVersion) and src/cli/check/tool.ts (toolInfo).
const lookup = /\bcreateRequire\d*\)?\(import\.meta\.url\)\((['"])(?:\.\.\/)+package\.json\1\)/g;
const found = code.match(lookup)?.length ?? 0;
if (found !== 2) fail(`expected 2 package.json version lookups to replace, found ${found}.`);
code = code.replace(lookup, () => `({ version: ${JSON.stringify(version)} })`);
if (/['"](?:\.\.?\/)+package\.json['"]/.test(code)) fail('a package.json lookup is left in the bundle.');
writeFileSync(outfile, code);
