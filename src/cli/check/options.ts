// Options shared by `check` and `update`, parsed once into the settings a golden run needs.
import { parseShard } from '../../core/golden/shard.js';
import type { Shard } from '../../core/golden/shard.js';
import { resolveGoldenDir } from '../../io/golden-store.js';
import { UsageError, parseChoice } from '../args.js';
import { cliWorkerScript } from './cli-worker.js';
import { defaultJobs, parseJobs } from './golden-jobs.js';
import type { WorkerScript } from './golden-jobs.js';

export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_GOLDEN_DIR = 'golden';

/**
 * The variables CI providers set on every job, for those that do not set CI itself or where a
 * job may unset it (the lists of ci-info and std-env, which Jest and Vitest use, trimmed to the
 * providers' own names: generic ones such as BUILD_NUMBER are set on developer machines too).
 */
export const CI_PROVIDER_VARIABLES = [
  'GITHUB_ACTIONS', // GitHub Actions
  'GITLAB_CI', // GitLab CI/CD
  'BUILDKITE', // Buildkite
  'CIRCLECI', // CircleCI
  'TRAVIS', // Travis CI
  'JENKINS_URL', // Jenkins
  'HUDSON_URL', // Hudson
  'TF_BUILD', // Azure Pipelines, Team Foundation Server
  'BITBUCKET_BUILD_NUMBER', // Bitbucket Pipelines
  'TEAMCITY_VERSION', // TeamCity
  'CODEBUILD_BUILD_ID', // AWS CodeBuild
  'DRONE', // Drone
  'APPVEYOR', // AppVeyor
  'CIRRUS_CI', // Cirrus CI
  'SEMAPHORE', // Semaphore
  'bamboo_planKey', // Bamboo
  'GO_PIPELINE_LABEL', // GoCD
  'BUILDER_OUTPUT', // Google Cloud Build
  'HARNESS_BUILD_ID', // Harness
  'CONTINUOUS_INTEGRATION', // Travis CI, Cirrus CI (older name of CI)
] as const;

function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * "Running in CI", the way Jest (ci-info) and Vitest (std-env) decide: the CI variable when it
 * is set — any value but '', 'false' and '0' means CI, and CI=false or CI=0 opts out even on a
 * provider — else any provider variable above that is set (to anything but '', 'false', '0').
 */
export function ciFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env['CI'];
  if (ci === 'false' || ci === '0') return false;
  if (isOn(ci)) return true;
  return CI_PROVIDER_VARIABLES.some((name) => isOn(env[name]));
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

/** `--jobs N`, shared by check, update and view. */
export const JOBS_OPTION = { jobs: { type: 'string' } } as const;

/** `--verbose`: the text report lists clean passes too (by default it counts them). */
export const VERBOSE_OPTION = { verbose: { type: 'boolean', short: 'v' } } as const;

export const VERBOSE_HELP = `  -v, --verbose           text format: list every transcript; by default a clean pass
                          (no finding) is only counted, so a failure is not buried`;

export const JOBS_HELP = `  --jobs N                transcripts checked in parallel: this process plus N-1 worker
                          threads, started when the transcripts hold 2 MiB or more (default:
                          the available cores); 1 runs everything in one thread. The output
                          is the same for every N`;

/** The lanes of a golden run: `--jobs N` (a positive integer), default the available cores. */
export function jobsOption(value: string | undefined): { jobs: number; workerScript?: WorkerScript } {
  const jobs = value === undefined ? defaultJobs() : parseJobs(value);
  if (jobs === undefined) {
    throw new UsageError('Option --jobs: expected a whole number from 1 to 256 (1 runs in one thread).');
  }
  const workerScript = cliWorkerScript();
  return workerScript ? { jobs, workerScript } : { jobs };
}
