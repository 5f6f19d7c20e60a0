#!/usr/bin/env node
// The CLI in one bundled file (scripts/bundle-cli.mjs): it starts in a fraction of the time the
// ~480 modules of build/cli/ take. A build without the bundle (`tsc` alone) runs the same CLI from
// build/cli/bin.js.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node ≥ 22.1 keeps V8's compiled code on disk between runs (as tsc does); older Node has no such
// API and compiles as before.
module.enableCompileCache?.();

const bundle = new URL('../build/cli.bundle.js', import.meta.url);
await import(existsSync(bundle) ? bundle.href : '../build/cli/bin.js');
