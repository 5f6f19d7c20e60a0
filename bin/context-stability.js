#!/usr/bin/env node
// The CLI in one bundled file (scripts/bundle-cli.mjs): it starts in a fraction of the time the
// ~480 modules of build/cli/ take. A build without the bundle (`tsc` alone) runs the same CLI from
// build/cli/bin.js.
import { existsSync } from 'node:fs';

const bundle = new URL('../build/cli.bundle.js', import.meta.url);
await import(existsSync(bundle) ? bundle.href : '../build/cli/bin.js');
