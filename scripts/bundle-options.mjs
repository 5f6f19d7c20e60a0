// The esbuild options every bundle of our CLI code shares: scripts/bundle-cli.mjs (the CLI) and the
// benchmark's tokenizer-only pass (bench/process-inputs.ts), which must start the way the CLI does.
//
// gpt-tokenizer stays external: its encodings are megabytes each and tokens/load.ts imports only the
// one a policy names. Bundled CommonJS (yaml) calls require() for Node built-ins; an ES module has
// none of its own, so the banner makes one.
/** @type {import('esbuild').BuildOptions} */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['gpt-tokenizer', 'gpt-tokenizer/*'],
  banner: {
    js: "import { createRequire as __csCreateRequire } from 'node:module';\nconst require = __csCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
};
