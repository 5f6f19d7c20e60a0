// The esbuild options every bundle of our CLI code shares: scripts/bundle-cli.mjs (the CLI) and the
// benchmark's tokenizer-only pass (bench/process-inputs.ts), which must start the way the CLI does.
//
// gpt-tokenizer stays external: its encodings are megabytes each and tokens/load.ts imports only the
// one a policy names. Bundled CommonJS (yaml) calls require() for Node built-ins; an ES module has
// none of its own, so the banner makes one.
/**
 * zod's namespace export re-exports every locale (`z.locales`, about 360 KB, 14% of the bundle);
 * we use none (messages are ours, and zod's English default is imported on its own). The bundle
 * gets an empty module in its place: a smaller file to read and compile at every start.
 * @type {import('esbuild').Plugin}
 */
const noZodLocales = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'context-stability-empty' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'context-stability-empty' }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions} */
export const BUNDLE_OPTIONS = {
  plugins: [noZodLocales],
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
