// Issue 11, "done when": a canary test plants PII in every field of every format and finds none in
// any output channel. The transcripts (pii-canary-fixtures.ts) hold one email, phone, SSN, card,
// IBAN, IP address and token in every field a reader keeps: ids, call ids, uuids, tool names,
// tags, scope, provenance, meta, roles, text, arguments and outputs (as JSON values and keys),
// thinking, documents; a policy holds them in invalid values. The built CLI and the bundled
// action run over them in a temp workspace: check (every format, with and without goldens,
// drift), update, stabilize (--json, --emit), inspect, explain, policy validate, and the action's
// log, annotations, job summary, outputs, PR comment, report and goldens. One test per channel
// and format; a failure names the canary type, the field it was planted in and where it showed
// up, never the value. The CLI runs in-process (runInProcess, `main` with an in-memory IO) except one
// run per command and output format, through the built bin as a child process (runBuilt): update,
// check's text, json, markdown and github outputs (with goldens), inspect, inspect --json, policy
// validate, each stabilize mode on the first transcript, and the first explain. Run `npm run build`
// (and `npm run dist` for the action) first.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskText } from '../../src/core/pii/mask.js';
import { builtinDetectors } from '../../src/core/pii/registry.js';
import { startFakeGitHub } from '../support/fake-github.js';
import type { FakeGitHub } from '../support/fake-github.js';
import { ensureDist, pullRequestEvent, removeTempDirs, runDist } from '../action/support.js';
import type { RunResult } from '../action/support.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';
import type { Run } from './check-cli.js';
import {
  BAD_POLICY,
  CANARY_TYPES,
  FIXTURES,
  FORMATS,
  ALL_SITES,
  canaries,
  findCanaries,
  payload,
  siteOf,
} from './pii-canary-fixtures.js';
import type { Fmt } from './pii-canary-fixtures.js';

const CHANNELS = [
  'update: stdout/stderr',
  'update: golden files',
  'check without goldens (writes them): stdout/stderr and golden files',
  'check --ci without goldens',
  'check --format text',
  'check --format json',
  'check --format markdown',
  'check --format github',
  'check drift --format text, and its --report file',
  'check drift --format json',
  'check drift --format markdown',
  'check drift --format github',
  'check --base-policy',
  'inspect',
  'inspect --json',
  'stabilize (summary)',
  'stabilize --json',
  'stabilize --emit openai',
  'stabilize --emit anthropic',
  'stabilize --emit native',
  'explain',
  'policy validate (bad policy)',
  'check --policy (bad policy)',
  'stabilize --policy (bad policy)',
  'action update: log',
  'action update: job summary, outputs and goldens',
  'action check (drift, pull request): log',
  'action check: annotations',
  'action check: job summary',
  'action check: outputs',
  'action check: PR comment',
  'action check: report file',
  'action (bad policy): log, annotations, job summary and outputs',
] as const;
type Channel = (typeof CHANNELS)[number];
/** Where a hit belongs: the format of the field its canary was planted in. */
type Row = Fmt | 'unattributed';
const ROWS: Row[] = [...FORMATS, 'unattributed'];

interface Output {
  label: string;
  text: string;
  /** The transcript the output is about; hits that name no site are blamed on it. */
  format?: Fmt;
}

const outputs = new Map<Channel, Output[]>(CHANNELS.map((c) => [c, []]));
const runs = new Map<string, Run | RunResult>();
const dirs: string[] = [];
let fake: FakeGitHub | undefined;

const TRANSCRIPTS = FIXTURES.filter((f) => f.format !== 'policy');
const VALID = TRANSCRIPTS.filter((f) => f.format !== 'native-invalid');
const formatOfPath = (p: string): Fmt | undefined =>
  TRANSCRIPTS.find((f) => p.includes(`transcripts/${f.file}`))?.format;

function add(channel: Channel, label: string, text: string, format?: Fmt): void {
  outputs.get(channel)?.push({ label, text, format: format ?? formatOfPath(label) });
}

function addRun(channel: Channel, label: string, run: Run, format?: Fmt): void {
  runs.set(label, run);
  add(channel, `${label}: stdout`, run.stdout, format);
  add(channel, `${label}: stderr`, run.stderr, format);
}

/** Every file under dir (goldens, reports), read as text, labelled by its workspace path. */
async function addFiles(channel: Channel, root: string, dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    add(channel, path.relative(root, file), await readFile(file, 'utf8'));
  }
}

/** Runs the jobs with at most `limit` at a time (the CLI is CPU-bound; CI machines have 2 cores). */
async function pool(jobs: (() => Promise<void>)[], limit = 3): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) await jobs[next++]?.();
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function workspace(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cs-canary-'));
  dirs.push(dir);
  await mkdir(path.join(dir, 'transcripts'));
  for (const f of TRANSCRIPTS) await writeFile(path.join(dir, 'transcripts', f.file), f.text);
  await writeFile(path.join(dir, 'bad-policy.yml'), BAD_POLICY);
  // A tighter budget, another replacement and a tool-output cap: fates and masked texts drift.
  await writeFile(
    path.join(dir, 'drift.yml'),
    'version: 1\nbudget: 2000\nkeep_recent: 1\npii:\n  replacement: "<{TYPE}>"\ntool_output:\n  max_tokens: 64\n',
  );
  return dir;
}

function addAction(prefix: 'update' | 'check' | 'bad', run: RunResult): void {
  runs.set(`action ${prefix}`, run);
  const log = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  const outputsText = JSON.stringify(run.outputs);
  if (prefix === 'update') {
    add('action update: log', 'action update log', log);
    add('action update: job summary, outputs and goldens', 'job summary', run.summary);
    add('action update: job summary, outputs and goldens', 'outputs', outputsText);
  } else if (prefix === 'check') {
    add('action check (drift, pull request): log', 'action check log', log);
    for (const a of run.log.annotations)
      add(
        'action check: annotations',
        `::${a.level} at ${a.file ?? '(no file)'}:${a.line ?? ''}`,
        JSON.stringify(a),
      );
    add('action check: job summary', 'job summary', run.summary);
    add('action check: outputs', 'outputs', outputsText);
  } else {
    const channel = 'action (bad policy): log, annotations, job summary and outputs';
    const annotations = JSON.stringify(run.log.annotations);
    add(channel, 'log', log);
    add(channel, 'annotations', annotations);
    add(channel, 'job summary', run.summary);
    add(channel, 'outputs', outputsText);
  }
}

const explained: { label: string; code: number }[] = [];

beforeAll(async () => {
  assertBuilt();
  ensureDist();
  fake = await startFakeGitHub();
  const ws = await workspace();
  const actionWs = await workspace();
  // In-process by default; `runBuilt` for the process-level run of a command and output format.
  const cli =
    (channel: Channel, args: string[], format?: Fmt, runner: typeof runBuilt = runInProcess) =>
    async () =>
      addRun(channel, args.join(' '), await runner(args, ws), format);
  const T = 'transcripts';
  let inspectJson = '';

  // Phase 1: everything that needs no golden.
  const perFile = TRANSCRIPTS.flatMap((f, i) => {
    const file = `${T}/${f.file}`;
    const runner = i === 0 ? runBuilt : runInProcess;
    return [
      cli('stabilize (summary)', ['stabilize', file], f.format, runner),
      cli('stabilize --json', ['stabilize', '--json', file], f.format, runner),
      cli('stabilize --emit openai', ['stabilize', '--emit', 'openai', file], f.format, runner),
      cli('stabilize --emit anthropic', ['stabilize', '--emit', 'anthropic', file], f.format, runner),
      cli('stabilize --emit native', ['stabilize', '--emit', 'native', file], f.format, runner),
    ];
  });
  await pool([
    async () => {
      await cli('update: stdout/stderr', ['update', T], undefined, runBuilt)();
      await addFiles('update: golden files', ws, path.join(ws, 'golden'));
    },
    async () => {
      await cli('check without goldens (writes them): stdout/stderr and golden files', [
        'check',
        '--golden-dir',
        'golden-new',
        T,
      ])();
      await addFiles(
        'check without goldens (writes them): stdout/stderr and golden files',
        ws,
        path.join(ws, 'golden-new'),
      );
    },
    cli('check --ci without goldens', ['check', '--ci', '--golden-dir', 'golden-ci', T]),
    cli('inspect', ['inspect', T], undefined, runBuilt),
    async () => {
      const run = await runBuilt(['inspect', '--json', T], ws);
      addRun('inspect --json', 'inspect --json transcripts', run);
      inspectJson = run.stdout;
    },
    cli('policy validate (bad policy)', ['policy', 'validate', 'bad-policy.yml'], undefined, runBuilt),
    cli('check --policy (bad policy)', ['check', '--policy', 'bad-policy.yml', T]),
    cli('stabilize --policy (bad policy)', ['stabilize', '--policy', 'bad-policy.yml', `${T}/native.json`]),
    async () => {
      addAction('update', await runDist({ workspace: actionWs, inputs: { mode: 'update', transcripts: T } }));
      await addFiles(
        'action update: job summary, outputs and goldens',
        actionWs,
        path.join(actionWs, 'golden'),
      );
    },
    async () =>
      addAction(
        'bad',
        await runDist({ workspace: actionWs, inputs: { transcripts: T, policy: 'bad-policy.yml' } }),
      ),
    ...perFile,
  ]);

  // Phase 2: against the goldens update wrote; explain the ids inspect listed.
  const listed = (
    JSON.parse(inspectJson || '{"files":[]}') as {
      files: { file: string; artifacts?: { id: string; kind: string; answers?: string }[] }[];
    }
  ).files;
  let explainRunner: typeof runBuilt = runBuilt;
  const explainJobs = listed.flatMap(({ file, artifacts = [] }) => {
    const picks = [artifacts.find((a) => a.answers !== undefined), artifacts.at(-1)].filter(
      (a) => a !== undefined,
    );
    return [...new Set(picks.map((a) => a.id))].map((id) => async () => {
      // The first explain through the built bin, the others in-process.
      const runner = explainRunner;
      explainRunner = runInProcess;
      const run = await runner(['explain', file, id], ws);
      const label = `explain ${file} (artifact ${artifacts.findIndex((a) => a.id === id)})`;
      addRun('explain', label, run, formatOfPath(file));
      explained.push({ label, code: run.code });
    });
  });
  await pool([
    cli('check --format text', ['check', T], undefined, runBuilt),
    cli('check --format json', ['check', '--format', 'json', T], undefined, runBuilt),
    cli('check --format markdown', ['check', '--format', 'markdown', T], undefined, runBuilt),
    cli('check --format github', ['check', '--format', 'github', T], undefined, runBuilt),
    async () => {
      const args = ['check', '--policy', 'drift.yml', '--report', 'reports/drift.json', T];
      addRun(
        'check drift --format text, and its --report file',
        args.join(' '),
        await runInProcess(args, ws),
      );
      await addFiles('check drift --format text, and its --report file', ws, path.join(ws, 'reports'));
    },
    cli('check drift --format json', ['check', '--policy', 'drift.yml', '--format', 'json', T]),
    cli('check drift --format markdown', ['check', '--policy', 'drift.yml', '--format', 'markdown', T]),
    cli('check drift --format github', ['check', '--policy', 'drift.yml', '--format', 'github', T]),
    cli('check --base-policy', ['check', '--base-policy', 'drift.yml', '--format', 'markdown', T]),
    async () => {
      const run = await runDist({
        workspace: actionWs,
        apiUrl: fake?.url,
        event: pullRequestEvent(11),
        inputs: { transcripts: T, policy: 'drift.yml', 'report-path': 'out/report.json' },
      });
      addAction('check', run);
      await addFiles('action check: report file', actionWs, path.join(actionWs, 'out'));
      for (const c of fake?.comments ?? []) add('action check: PR comment', `comment ${c.id}`, c.body);
      for (const r of fake?.requests ?? [])
        add('action check: PR comment', `${r.method} ${r.path}`, JSON.stringify(r.body ?? ''));
    },
    ...explainJobs,
  ]);
}, 180_000);

afterAll(async () => {
  await fake?.close();
  await removeTempDirs();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The leaks of one channel for one row: type, planted field and where found; never the value. */
function leaks(channel: Channel, row: Row): string[] {
  const found: string[] = [];
  for (const out of outputs.get(channel) ?? []) {
    for (const hit of findCanaries(out.text)) {
      const site = hit.index === null ? undefined : siteOf(hit.index);
      const owner: Row = site?.format ?? out.format ?? 'unattributed';
      if (owner !== row) continue;
      const where = site
        ? `planted in ${site.family} (site ${site.index})`
        : 'a piece of a canary, field unknown';
      found.push(`${hit.type} ${where}, found in ${out.label} at offset ${hit.offset}`);
    }
  }
  return found;
}

describe('the canaries', () => {
  it('every planted value is masked by the default detectors and found again by the search', () => {
    const detectors = builtinDetectors();
    const problems: string[] = [];
    for (const site of ALL_SITES) {
      const text = payload(site.index);
      const masked = maskText(text, detectors, { replacement: '[REDACTED_{TYPE}]', allow: [] }).text;
      const left = findCanaries(masked).map((h) => `${h.type} survives masking at site ${site.index}`);
      const seen = findCanaries(text);
      const missed = CANARY_TYPES.filter((t) => !seen.some((h) => h.type === t && h.index === site.index));
      problems.push(...left, ...missed.map((t) => `${t} of site ${site.index} not found by the search`));
    }
    expect(problems).toEqual([]);
    // The secret is built at run time; its shape is a classic GitHub token.
    expect(canaries(1).secret).toMatch(/^ghp_[A-Za-z0-9]{36,}$/);
  });

  it('every channel captured output', () => {
    const empty = CHANNELS.filter((c) => (outputs.get(c) ?? []).every((o) => o.text.trim() === ''));
    expect(empty).toEqual([]);
  });

  it('every valid transcript loads, pairs and stabilizes to a masked context', () => {
    for (const f of VALID) {
      const run = runs.get(`stabilize --json transcripts/${f.file}`) as Run | undefined;
      expect(run?.code, `stabilize --json ${f.format}: exit code`).toBeLessThan(2);
      const report = JSON.parse(run?.stdout ?? '{}') as { context?: unknown[] };
      expect(report.context?.length ?? 0, `stabilize --json ${f.format}: context items`).toBeGreaterThan(3);
      // Aliases of the default strategy (numbered): [EMAIL_1], [SECRET_1]…
      expect(/\[[A-Z_]+_\d+\]/.test(run?.stdout ?? ''), `stabilize --json ${f.format}: masked text`).toBe(
        true,
      );
    }
  });

  it('update writes the golden of every valid transcript, and the drift run diffs against it', () => {
    const written = (outputs.get('update: golden files') ?? []).map((o) => o.format);
    expect(VALID.filter((f) => !written.includes(f.format)).map((f) => f.format)).toEqual([]);
    const drift = outputs.get('check drift --format text, and its --report file')?.[0]?.text ?? '';
    const diffed = VALID.filter((f) => drift.includes(`semantic diff of golden/transcripts/${f.file}`));
    expect(diffed.map((f) => f.format)).toEqual(VALID.map((f) => f.format));
  });

  it('explain explains the ids inspect lists; the bad policy is refused; the action posted its comment', () => {
    expect(explained.length).toBeGreaterThanOrEqual(VALID.length);
    // A file with unreadable records is still explained, with exit 2.
    expect(explained.filter((e) => e.code !== (e.label.includes('native-invalid') ? 2 : 0))).toEqual([]);
    expect(runs.get('policy validate bad-policy.yml')?.code).toBe(2);
    expect(runs.get('action bad')?.code).toBe(1);
    expect(fake?.comments.length).toBe(1);
  });
});

describe.each(CHANNELS)('channel: %s', (channel) => {
  it.each(ROWS)('holds no canary planted in the %s fields', (row) => {
    const found = leaks(channel, row);
    expect(
      found,
      `${found.length} canaries of the ${row} fields in ${channel}:\n${found.join('\n')}\n`,
    ).toEqual([]);
  });
});
