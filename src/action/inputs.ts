// The action's inputs, parsed once into one typed options object before anything runs. The runner
// hands inputs over as INPUT_<NAME> variables (upper-cased, spaces → '_', dashes kept); a bad value
// is an InputProblem naming the input and what it accepts, never an echo of the value itself
// (an input may hold a token or a path the user would rather not see in a log).
import { z } from 'zod';
import { parseShard } from '../core/golden/shard.js';
import type { Shard } from '../core/golden/shard.js';
import { parseGitRefSpec } from '../io/git.js';
import { outputPathProblem } from '../io/output-path.js';
import { resolveGoldenDir } from '../io/golden-store.js';
import { byteSize, recordCount } from '../cli/args.js';
import { parseJobs } from '../cli/check/golden-jobs.js';
import type { InputLimits } from '../cli/input-limits.js';
import { COMMENT_HEADER_PATTERN, COMMENT_ON } from '../github/comment.js';
import type { CommentOn } from '../github/comment.js';

export const MODES = ['check', 'update', 'merge'] as const;
export type ActionMode = (typeof MODES)[number];

/** What may fail the job: transcripts with violations, drifted goldens, missing goldens, unreadable input. */
export const FAIL_CATEGORIES = ['violations', 'drift', 'new', 'error'] as const;
export type FailCategory = (typeof FAIL_CATEGORIES)[number];

export const DEFAULT_REPORT_NAME = 'context-stability-report.json';

export interface ActionOptions {
  mode: ActionMode;
  /** Globs, files or folders of transcripts (check, update). */
  transcripts: string[];
  /** Globs, files or folders of shard reports (merge). */
  reports: string[];
  /** undefined: `.github/context-policy.yml` when present, else the built-in default. */
  policy: string | undefined;
  /**
   * The key of `pii.strategy: hash`: not an input (inputs are logged), the job's
   * CONTEXT_STABILITY_PII_KEY variable, set by run.ts.
   */
  piiKey?: string | undefined;
  /** cwd-relative, '/'-separated (resolveGoldenDir). */
  goldenDir: string;
  failOn: FailCategory[];
  annotate: boolean;
  comment: boolean;
  githubToken: string;
  /** Login the sticky comment is looked up by; undefined: github-actions[bot] (the job token). */
  commentAuthor: string | undefined;
  /** Tells this workflow's sticky comment apart from others' on the PR; undefined: the default one. */
  commentHeader: string | undefined;
  /** The PR to comment on, whatever the event; undefined: the event's pull request. */
  prNumber: number | undefined;
  /** When the comment is posted (commentRules). */
  commentOn: CommentOn;
  shard: Shard | null;
  basePolicy: string | undefined;
  /** As given; undefined: the default name in RUNNER_TEMP (or the workspace). */
  reportPath: string | undefined;
  /** The HTML viewer page (check, update), as given; undefined: the default name in RUNNER_TEMP. */
  htmlPath: string | undefined;
  /** Caps on each transcript (check, update); a cap left out keeps its default. */
  limits: InputLimits;
  /** Transcripts checked in parallel (check, update); undefined: the runner's available cores. */
  jobs: number | undefined;
}

export interface InputProblem {
  input: string;
  message: string;
}

export type ParseInputsResult =
  { ok: true; options: ActionOptions } | { ok: false; problems: InputProblem[] };

/** The names in action.yml; read with the runner's convention (core.getInput). */
export const INPUT_NAMES = [
  'transcripts',
  'reports',
  'policy',
  'golden-dir',
  'mode',
  'fail-on',
  'annotate',
  'comment',
  'github-token',
  'comment-author',
  'comment-header',
  'comment-on',
  'pr-number',
  'shard',
  'base-policy',
  'report-path',
  'html-path',
  'max-file-size',
  'max-records',
  'jobs',
] as const;
export type InputName = (typeof INPUT_NAMES)[number];

export type RawInputs = Record<InputName, string>;

export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** Every input as a trimmed string ('' when unset), as core.getInput reads them. */
export function readRawInputs(env: Readonly<Record<string, string | undefined>>): RawInputs {
  const entries = INPUT_NAMES.map((name) => [name, (env[inputVariable(name)] ?? '').trim()] as const);
  return Object.fromEntries(entries) as RawInputs;
}

/**
 * `a, b` or one per line. A comma inside `{…}` belongs to a glob's alternatives, not the list;
 * lines starting with `#` are comments, as in YAML block scalars people paste globs into.
 */
export function splitList(value: string): string[] {
  const items: string[] = [];
  for (const line of value.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    let depth = 0;
    let start = 0;
    for (let i = 0; i < trimmed.length; i++) {
      const ch = trimmed[i];
      if (ch === '{') depth++;
      else if (ch === '}' && depth > 0) depth--;
      else if (ch === ',' && depth === 0) {
        items.push(trimmed.slice(start, i));
        start = i + 1;
      }
    }
    items.push(trimmed.slice(start));
  }
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

// The YAML 1.2 core schema booleans, exactly what core.getBooleanInput accepts.
const TRUE_WORDS = ['true', 'True', 'TRUE'];
const FALSE_WORDS = ['false', 'False', 'FALSE'];

function booleanInput(name: InputName, fallback: boolean) {
  return z.string().transform((value, ctx) => {
    if (value === '') return fallback;
    if (TRUE_WORDS.includes(value)) return true;
    if (FALSE_WORDS.includes(value)) return false;
    ctx.addIssue({ code: 'custom', message: `Input ${name} must be true or false.` });
    return z.NEVER;
  });
}

const modeInput = z.string().transform((value, ctx): ActionMode => {
  if (value === '') return 'check';
  const mode = MODES.find((m) => m === value);
  if (mode) return mode;
  ctx.addIssue({ code: 'custom', message: `Input mode must be one of: ${MODES.join(', ')}.` });
  return z.NEVER;
});

const failOnInput = z.string().transform((value, ctx): FailCategory[] => {
  const items = splitList(value.toLowerCase());
  if (items.length === 0) return [...FAIL_CATEGORIES];
  if (items.includes('none')) {
    if (items.length === 1) return [];
    ctx.addIssue({
      code: 'custom',
      message: 'Input fail-on: none cannot be combined with other categories.',
    });
    return z.NEVER;
  }
  const unknown = items.filter((item) => !FAIL_CATEGORIES.some((c) => c === item));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `Input fail-on accepts a comma-separated list of ${FAIL_CATEGORIES.join(', ')}, or none; ${unknown.length === 1 ? 'one entry is' : `${unknown.length} entries are`} not among them.`,
    });
    return z.NEVER;
  }
  // In the canonical order, without repeats: the options object does not depend on how it was spelt.
  return FAIL_CATEGORIES.filter((c) => items.includes(c));
});

const shardInput = z.string().transform((value, ctx): Shard | null => {
  if (value === '') return null;
  const parsed = parseShard(value);
  if (parsed.ok) return { index: parsed.index, total: parsed.total };
  ctx.addIssue({ code: 'custom', message: `Input shard: ${parsed.reason}.` });
  return z.NEVER;
});

const optionalText = z.string().transform((value) => (value === '' ? undefined : value));

/** A GitHub login (`octocat`) or an App's bot login (`my-app[bot]`). */
const commentAuthorInput = z.string().transform((value, ctx) => {
  if (value === '') return undefined;
  if (/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/.test(value)) return value;
  ctx.addIssue({
    code: 'custom',
    message:
      'Input comment-author must be a GitHub login (e.g. octocat) or an App bot login (e.g. my-app[bot]).',
  });
  return z.NEVER;
});

/** Sits in the hidden marker and the heading as it is: a narrow alphabet, nothing to escape. */
const commentHeaderInput = z.string().transform((value, ctx) => {
  if (value === '') return undefined;
  if (COMMENT_HEADER_PATTERN.test(value)) return value;
  ctx.addIssue({
    code: 'custom',
    message:
      'Input comment-header must be 1 to 64 letters, digits, dots, underscores or dashes (A-Z a-z 0-9 . _ -), e.g. policy-review.',
  });
  return z.NEVER;
});

const commentOnInput = z.string().transform((value, ctx): CommentOn => {
  if (value === '') return 'always';
  const on = COMMENT_ON.find((c) => c === value);
  if (on) return on;
  ctx.addIssue({ code: 'custom', message: `Input comment-on must be one of: ${COMMENT_ON.join(', ')}.` });
  return z.NEVER;
});

/** A pull request number: digits only, at least 1 (`${{ … }}` of a workflow_run gives it as text). */
const prNumberInput = z.string().transform((value, ctx) => {
  if (value === '') return undefined;
  const n = /^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : NaN;
  if (Number.isSafeInteger(n)) return n;
  ctx.addIssue({
    code: 'custom',
    message: 'Input pr-number must be a pull request number: a whole number of at least 1, e.g. 42.',
  });
  return z.NEVER;
});

/** A policy file, or `git-ref:REF:path` (the policy as committed on the base branch). */
const basePolicyInput = z.string().transform((value, ctx) => {
  if (value === '') return undefined;
  const ref = parseGitRefSpec(value);
  if (ref === null || ref.ok) return value;
  ctx.addIssue({ code: 'custom', message: `Input base-policy: ${ref.reason}` });
  return z.NEVER;
});

/** A cap: '' keeps the default; else a value the CLI option of the same name accepts. */
function limitInput(name: InputName, parse: (value: string) => number | undefined, example: string) {
  return z.string().transform((value, ctx) => {
    if (value === '') return undefined;
    const n = parse(value);
    if (n !== undefined) return n;
    ctx.addIssue({ code: 'custom', message: `Input ${name} must be ${example}.` });
    return z.NEVER;
  });
}

const RAW_SCHEMA = z.object({
  transcripts: z.string().transform(splitList),
  reports: z.string().transform(splitList),
  policy: optionalText,
  'golden-dir': z.string(),
  mode: modeInput,
  'fail-on': failOnInput,
  annotate: booleanInput('annotate', true),
  comment: booleanInput('comment', true),
  'github-token': z.string(),
  'comment-author': commentAuthorInput,
  'comment-header': commentHeaderInput,
  'comment-on': commentOnInput,
  'pr-number': prNumberInput,
  shard: shardInput,
  'base-policy': basePolicyInput,
  'report-path': optionalText,
  'html-path': optionalText,
  'max-file-size': limitInput('max-file-size', byteSize, 'a size in bytes, e.g. 52428800 or 50M'),
  'max-records': limitInput('max-records', recordCount, 'a whole number of at least 1, e.g. 100000 or 100k'),
  jobs: limitInput('jobs', parseJobs, 'a whole number from 1 to 256'),
});

type Parsed = z.infer<typeof RAW_SCHEMA>;

/** Inputs that only one mode reads: giving them to another is a mistake worth stopping for. */
function modeProblems(parsed: Parsed): InputProblem[] {
  const problems: InputProblem[] = [];
  const mode = parsed.mode;
  const only = (input: InputName, modes: string, given: boolean) => {
    if (given)
      problems.push({ input, message: `Input ${input} applies to mode ${modes} only (mode is ${mode}).` });
  };
  if (mode === 'merge') {
    if (parsed.reports.length === 0) {
      problems.push({
        input: 'reports',
        message: 'Input reports is required in mode merge: the shard report files (globs, files or folders).',
      });
    }
    only('transcripts', 'check or update', parsed.transcripts.length > 0);
  } else {
    if (parsed.transcripts.length === 0) {
      problems.push({
        input: 'transcripts',
        message: `Input transcripts is required in mode ${mode}: transcript globs, files or folders, one per line or comma-separated.`,
      });
    }
    only('reports', 'merge', parsed.reports.length > 0);
  }
  if (mode !== 'check') {
    only('shard', 'check', parsed.shard !== null);
    only('base-policy', 'check', parsed['base-policy'] !== undefined);
  }
  if (mode === 'update') {
    // An update never comments. comment-on is checked against its default, which the runner passes.
    only('comment-header', 'check or merge', parsed['comment-header'] !== undefined);
    only('comment-on', 'check or merge', parsed['comment-on'] !== 'always');
    only('pr-number', 'check or merge', parsed['pr-number'] !== undefined);
  }
  if (mode === 'merge') {
    only('policy', 'check or update', parsed.policy !== undefined);
    only('html-path', 'check or update', parsed['html-path'] !== undefined);
    only('max-file-size', 'check or update', parsed['max-file-size'] !== undefined);
    only('max-records', 'check or update', parsed['max-records'] !== undefined);
    only('jobs', 'check or update', parsed.jobs !== undefined);
  }
  return problems;
}

/**
 * Validates every input at once (so one run shows every problem) and resolves what needs the
 * workspace: the golden folder must lie inside it.
 */
export function parseInputs(raw: RawInputs, cwd: string, runnerTemp?: string): ParseInputsResult {
  const result = RAW_SCHEMA.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => ({
      input: String(issue.path[0] ?? 'inputs'),
      message: issue.message,
    }));
    return { ok: false, problems };
  }
  const parsed = result.data;
  const problems = modeProblems(parsed);
  const golden = resolveGoldenDir(parsed['golden-dir'] === '' ? 'golden' : parsed['golden-dir'], cwd);
  if (!golden.ok) problems.push({ input: 'golden-dir', message: `Input golden-dir: ${golden.reason}` });
  for (const input of ['report-path', 'html-path'] as const) {
    const value = parsed[input];
    const problem =
      value === undefined ? null : outputPathProblem(input, value, { workspace: cwd, runnerTemp });
    if (problem) problems.push({ input, message: problem });
  }
  if (problems.length > 0 || !golden.ok) return { ok: false, problems };
  return {
    ok: true,
    options: {
      mode: parsed.mode,
      transcripts: parsed.transcripts,
      reports: parsed.reports,
      policy: parsed.policy,
      goldenDir: golden.dir,
      failOn: parsed['fail-on'],
      annotate: parsed.annotate,
      comment: parsed.comment,
      githubToken: parsed['github-token'],
      commentAuthor: parsed['comment-author'],
      commentHeader: parsed['comment-header'],
      prNumber: parsed['pr-number'],
      commentOn: parsed['comment-on'],
      shard: parsed.shard,
      basePolicy: parsed['base-policy'],
      reportPath: parsed['report-path'],
      htmlPath: parsed['html-path'],
      limits: {
        ...(parsed['max-file-size'] !== undefined ? { maxFileBytes: parsed['max-file-size'] } : {}),
        ...(parsed['max-records'] !== undefined ? { maxRecords: parsed['max-records'] } : {}),
      },
      jobs: parsed.jobs,
    },
  };
}
