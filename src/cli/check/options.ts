// Options shared by `check` and `update`, parsed once into the settings a golden run needs.
import { parseShard } from '../../core/golden/shard.js';
import type { Shard } from '../../core/golden/shard.js';
import { resolveGoldenDir } from '../../io/golden-store.js';
import { UsageError, parseChoice } from '../args.js';

export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_GOLDEN_DIR = 'golden';

/** Jest and Vitest semantics: any value but '', 'false' and '0' means "running in CI". */
export function ciFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

export function requireGlobs(command: string, positionals: readonly string[]): string[] {
  if (positionals.length === 0) {
    throw new UsageError(`${command} needs at least one transcript FILE, folder or quoted glob.`);
  }
  return [...positionals];
}

export function goldenDirOption(value: string | undefined, cwd: string): string {
  const resolved = resolveGoldenDir(value ?? DEFAULT_GOLDEN_DIR, cwd);
  if (!resolved.ok) throw new UsageError(`Option --golden-dir: ${resolved.reason}`);
  return resolved.dir;
}

export function shardOption(value: string | undefined): Shard | null {
  if (value === undefined) return null;
  const parsed = parseShard(value);
  if (!parsed.ok) throw new UsageError(`Option --shard: ${parsed.reason}.`);
  return { index: parsed.index, total: parsed.total };
}

export function formatOption(value: string | undefined): OutputFormat {
  return parseChoice('--format', value ?? 'text', OUTPUT_FORMATS);
}
