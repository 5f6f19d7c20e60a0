// Types of bundle-options.mjs for the TypeScript that imports it (bench/process-inputs.ts).
import type { BuildOptions } from 'esbuild';

export declare const BUNDLE_OPTIONS: BuildOptions;
