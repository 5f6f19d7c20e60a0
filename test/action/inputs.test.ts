import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INPUT_NAMES, parseInputs, readRawInputs, splitList } from '../../src/action/inputs.js';
import type { ActionOptions, InputProblem, RawInputs } from '../../src/action/inputs.js';
import { ROOT } from './support.js';

const CWD = '/work/repo';

function raw(inputs: Partial<RawInputs>): RawInputs {
  const empty = Object.fromEntries(INPUT_NAMES.map((n) => [n, ''])) as RawInputs;
  return { ...empty, ...inputs };
}

function options(inputs: Partial<RawInputs>): ActionOptions {
  const parsed = parseInputs(raw(inputs), CWD);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('\n'));
  return parsed.options;
}

function problems(inputs: Partial<RawInputs>): InputProblem[] {
  const parsed = parseInputs(raw(inputs), CWD);
  if (parsed.ok) throw new Error('expected the inputs to be rejected');
  return parsed.problems;
}

describe('readRawInputs', () => {
  it('reads INPUT_<NAME> as the runner sets it (upper case, dashes kept) and trims', () => {
    const inputs = readRawInputs({
      'INPUT_GOLDEN-DIR': ' goldens \n',
      INPUT_TRANSCRIPTS: 'a.jsonl',
      INPUT_golden_dir: 'x',
    });
    expect(inputs['golden-dir']).toBe('goldens');
    expect(inputs.transcripts).toBe('a.jsonl');
    expect(inputs.policy).toBe('');
  });
});

describe('splitList', () => {
  it('splits on newlines and commas, keeps commas inside braces, drops blanks and # comments', () => {
    expect(splitList('a/*.jsonl, b.json\n\n# old ones\n  logs/{x,y}/*.json ,c')).toEqual([
      'a/*.jsonl',
      'b.json',
      'logs/{x,y}/*.json',
      'c',
    ]);
  });
});

describe('parseInputs', () => {
  it('fills the documented defaults', () => {
    expect(options({ transcripts: 'transcripts' })).toEqual({
      mode: 'check',
      transcripts: ['transcripts'],
      reports: [],
      policy: undefined,
      goldenDir: 'golden',
      failOn: ['violations', 'drift', 'new', 'error'],
      annotate: true,
      comment: true,
      githubToken: '',
      commentAuthor: undefined,
      commentHeader: undefined,
      prNumber: undefined,
      commentOn: 'always',
      shard: null,
      basePolicy: undefined,
      reportPath: undefined,
      limits: {},
    });
  });

  it('reads max-file-size and max-records as the CLI options do, in check and update only', () => {
    expect(options({ transcripts: 't', 'max-file-size': '10M', 'max-records': '5k' }).limits).toEqual({
      maxFileBytes: 10 * 1024 * 1024,
      maxRecords: 5000,
    });
    expect(problems({ transcripts: 't', 'max-records': '0' })[0]).toEqual({
      input: 'max-records',
      message: 'Input max-records must be a whole number of at least 1, e.g. 100000 or 100k.',
    });
    expect(problems({ transcripts: 't', 'max-file-size': 'lots' })[0]?.input).toBe('max-file-size');
    expect(problems({ mode: 'merge', reports: 'r', 'max-records': '10' })[0]).toEqual({
      input: 'max-records',
      message: 'Input max-records applies to mode check or update only (mode is merge).',
    });
  });

  it('accepts the action.yml defaults as the runner passes them', async () => {
    const manifest = parse(await readFile(path.join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
    };
    expect(Object.keys(manifest.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    const defaults = Object.fromEntries(
      Object.entries(manifest.inputs).map(([name, spec]) => [name, String(spec.default ?? '')]),
    );
    const parsed = options({ ...defaults, transcripts: 't', 'github-token': 'tok' });
    expect(parsed.failOn).toEqual(['violations', 'drift', 'new', 'error']);
    expect(parsed.goldenDir).toBe('golden');
  });

  it('reads fail-on as a set in canonical order; none alone means never fail', () => {
    expect(options({ transcripts: 't', 'fail-on': 'drift, Violations,drift' }).failOn).toEqual([
      'violations',
      'drift',
    ]);
    expect(options({ transcripts: 't', 'fail-on': 'none' }).failOn).toEqual([]);
    expect(problems({ transcripts: 't', 'fail-on': 'none,drift' })[0]?.message).toContain(
      'cannot be combined',
    );
  });

  it('names the input and the accepted values without echoing the bad value', () => {
    const [problem] = problems({ transcripts: 't', 'fail-on': 'drift,secret-value' });
    expect(problem?.input).toBe('fail-on');
    expect(problem?.message).toContain('violations, drift, new, error, or none');
    expect(problem?.message).not.toContain('secret-value');
  });

  it('reports every bad input at once', () => {
    const found = problems({
      transcripts: 't',
      mode: 'verify',
      annotate: 'yes',
      comment: 'maybe',
      shard: '0/4',
    });
    expect(found.map((p) => p.input).sort()).toEqual(['annotate', 'comment', 'mode', 'shard']);
    expect(found.find((p) => p.input === 'shard')?.message).toContain('1-based');
  });

  it('accepts the YAML booleans core.getBooleanInput accepts', () => {
    expect(options({ transcripts: 't', annotate: 'False', comment: 'TRUE' })).toMatchObject({
      annotate: false,
      comment: true,
    });
  });

  it('parses shard i/n and allows it in check mode only', () => {
    expect(options({ transcripts: 't', shard: '2/4' }).shard).toEqual({ index: 2, total: 4 });
    expect(problems({ transcripts: 't', mode: 'update', shard: '2/4' })[0]).toEqual({
      input: 'shard',
      message: 'Input shard applies to mode check only (mode is update).',
    });
  });

  it('requires transcripts in check and update, reports (and no transcripts) in merge', () => {
    expect(problems({})[0]?.input).toBe('transcripts');
    expect(problems({ mode: 'update' })[0]?.input).toBe('transcripts');
    expect(problems({ mode: 'merge' }).map((p) => p.input)).toEqual(['reports']);
    expect(problems({ mode: 'merge', reports: 'r/*.json', transcripts: 't' }).map((p) => p.input)).toEqual([
      'transcripts',
    ]);
    expect(options({ mode: 'merge', reports: 'r/*.json' }).reports).toEqual(['r/*.json']);
  });

  it('keeps the golden folder inside the workspace', () => {
    expect(options({ transcripts: 't', 'golden-dir': './snapshots/' }).goldenDir).toBe('snapshots');
    const [problem] = problems({ transcripts: 't', 'golden-dir': '../elsewhere' });
    expect(problem?.input).toBe('golden-dir');
    expect(problem?.message).toContain('sub-folder of the working directory');
  });

  it('checks a git-ref base policy spec before anything runs', () => {
    const spec = 'git-ref:origin/main:.github/context-policy.yml';
    expect(options({ transcripts: 't', 'base-policy': spec }).basePolicy).toBe(spec);
    expect(options({ transcripts: 't', 'base-policy': 'old-policy.yml' }).basePolicy).toBe('old-policy.yml');
    const [problem] = problems({ transcripts: 't', 'base-policy': 'git-ref:origin/main' });
    expect(problem?.input).toBe('base-policy');
    expect(problem?.message).toContain('git-ref:REF:path');
  });

  it('accepts a user or App bot login as comment-author', () => {
    expect(options({ transcripts: 't', 'comment-author': 'my-app[bot]' }).commentAuthor).toBe('my-app[bot]');
    expect(problems({ transcripts: 't', 'comment-author': 'two words' })[0]?.input).toBe('comment-author');
  });

  it('reads comment-header: letters, digits, dot, underscore, dash; anything else is refused', () => {
    expect(options({ transcripts: 't', 'comment-header': 'policy-review_2.x' }).commentHeader).toBe(
      'policy-review_2.x',
    );
    for (const bad of ['a b', 'x-->', 'x--!>y', '<b>', '@team', 'a/b', 'ü', 'h'.repeat(65)]) {
      const [problem] = problems({ transcripts: 't', 'comment-header': bad });
      expect(problem?.input).toBe('comment-header');
      expect(problem?.message).toContain('A-Z a-z 0-9 . _ -');
      expect(problem?.message).not.toContain(bad);
    }
  });

  it('reads pr-number as a whole number of at least 1', () => {
    expect(options({ transcripts: 't', 'pr-number': '42' }).prNumber).toBe(42);
    for (const bad of ['0', '-3', '4.0', '1e3', '0x10', '007', '12 ', 'abc', '99999999999999999999']) {
      const found = parseInputs(raw({ transcripts: 't', 'pr-number': bad }), CWD);
      // The runner trims inputs (readRawInputs); untrimmed, '12 ' is still refused here.
      expect(found.ok ? [] : found.problems.map((p) => p.input)).toEqual(['pr-number']);
    }
    expect(problems({ transcripts: 't', 'pr-number': '0' })[0]?.message).toBe(
      'Input pr-number must be a pull request number: a whole number of at least 1, e.g. 42.',
    );
  });

  it('reads comment-on: always (also when empty), failure or change', () => {
    expect(options({ transcripts: 't' }).commentOn).toBe('always');
    expect(options({ transcripts: 't', 'comment-on': 'failure' }).commentOn).toBe('failure');
    expect(options({ mode: 'merge', reports: 'r', 'comment-on': 'change' }).commentOn).toBe('change');
    expect(problems({ transcripts: 't', 'comment-on': 'never' })[0]).toEqual({
      input: 'comment-on',
      message: 'Input comment-on must be one of: always, failure, change.',
    });
  });

  it('refuses the comment inputs in mode update, which never comments, and reports them with the rest', () => {
    const found = problems({
      mode: 'update',
      transcripts: 't',
      'comment-header': 'x',
      'pr-number': '3',
      'comment-on': 'change',
    });
    expect(found).toEqual([
      {
        input: 'comment-header',
        message: 'Input comment-header applies to mode check or merge only (mode is update).',
      },
      {
        input: 'comment-on',
        message: 'Input comment-on applies to mode check or merge only (mode is update).',
      },
      {
        input: 'pr-number',
        message: 'Input pr-number applies to mode check or merge only (mode is update).',
      },
    ]);
    // The default the runner passes is no mistake.
    expect(options({ mode: 'update', transcripts: 't', 'comment-on': 'always' }).commentOn).toBe('always');
    // Bad values and mode problems come together in one run.
    expect(
      problems({ transcripts: 't', 'pr-number': 'x', 'comment-header': 'a b', 'comment-on': 'no' })
        .map((p) => p.input)
        .sort(),
    ).toEqual(['comment-header', 'comment-on', 'pr-number']);
  });
});
