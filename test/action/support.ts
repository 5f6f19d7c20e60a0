// Runs the action as the runner does: a clean environment with one INPUT_<NAME> per action.yml
// input (its default unless the test sets it), the GITHUB_* files and variables, and a workspace of
// its own. runDist runs the built bundle (dist/index.js) as a process; runInProcess runs the same
// steps as src/action/main.ts (startAction, src/action/start.ts) from src in this process (no node cold start), with that environment
// as process.env and stdout, stderr and the exit code captured for the run. The job log (stdout) is
// parsed the way the runner reads it: workflow commands, stop-commands blocks, annotations with
// their unescaped properties.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(ROOT, 'dist', 'index.js');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'action');
export const FAKE_TOKEN = 'ghs_faketoken0000000000000000000000000';

const temps: string[] = [];

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Removes every workspace and runner folder made so far (call from afterAll). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** `.ci/run` builds dist before the tests; a local run builds it once when it is missing. */
export function ensureDist(): void {
  if (existsSync(DIST)) return;
  execFileSync('npm', ['run', 'dist'], { cwd: ROOT, stdio: 'pipe' });
}

/** A temp workspace holding the fixture policies and transcripts (and, on request, inject.jsonl). */
export async function makeWorkspace(opts: { inject?: boolean } = {}): Promise<string> {
  const dir = await tempDir('cs-action-');
  await cp(path.join(FIXTURES, 'transcripts'), path.join(dir, 'transcripts'), { recursive: true });
  for (const file of ['policy.yml', 'policy-tight.yml'])
    await cp(path.join(FIXTURES, file), path.join(dir, file));
  if (opts.inject)
    await cp(path.join(FIXTURES, 'inject.jsonl'), path.join(dir, 'transcripts', 'inject.jsonl'));
  return dir;
}

/** Each input of action.yml with its default, as the runner passes them. */
async function actionDefaults(): Promise<Record<string, string>> {
  const manifest = parse(await readFile(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  return Object.fromEntries(
    Object.entries(manifest.inputs).map(([name, spec]) => [
      name,
      String(spec.default ?? '').replace('${{ github.token }}', FAKE_TOKEN),
    ]),
  );
}

export interface RunOptions {
  workspace: string;
  inputs: Record<string, string>;
  /** A pull_request event for PR `number` unless `name` says otherwise. */
  event?: { name: string; payload?: unknown };
  apiUrl?: string;
  runId?: string;
}

export type Level = 'error' | 'warning' | 'notice';

export interface ParsedAnnotation {
  level: Level;
  file?: string;
  line?: number;
  col?: number;
  title?: string;
  message: string;
}

export interface ParsedLog {
  /** Commands the runner would process (outside stop-commands blocks), by name. */
  commands: { name: string; raw: string }[];
  annotations: ParsedAnnotation[];
  /** The text of each stop-commands block. */
  blocks: string[];
  /** Lines outside any block. */
  outside: string[];
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  log: ParsedLog;
  summary: string;
  outputs: Record<string, string>;
}

function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

/** The runner's reading of stdout: `::name k=v,…::data` after leading spaces; stop-commands blocks. */
export function parseLog(stdout: string): ParsedLog {
  const log: ParsedLog = { commands: [], annotations: [], blocks: [], outside: [] };
  let stopToken: string | null = null;
  let block: string[] = [];
  for (const line of stdout.split('\n')) {
    const trimmed = line.trimStart();
    if (stopToken !== null) {
      if (trimmed === `::${stopToken}::`) {
        log.blocks.push(block.join('\n'));
        stopToken = null;
      } else block.push(line);
      continue;
    }
    log.outside.push(line);
    const match = /^::([^\s:]+)(?: ([^:]*))?::(.*)$/s.exec(trimmed);
    if (!match) continue;
    const [, name = '', props = '', data = ''] = match;
    log.commands.push({ name, raw: line });
    if (name === 'stop-commands') {
      stopToken = data;
      block = [];
    } else if (name === 'error' || name === 'warning' || name === 'notice') {
      const annotation: ParsedAnnotation = { level: name, message: unescapeData(data) };
      for (const pair of props === '' ? [] : props.split(',')) {
        const eq = pair.indexOf('=');
        const key = pair.slice(0, eq);
        const value = unescapeProperty(pair.slice(eq + 1));
        if (key === 'file' || key === 'title') annotation[key] = value;
        if (key === 'line' || key === 'col') annotation[key] = Number(value);
      }
      log.annotations.push(annotation);
    }
  }
  return log;
}

/** GITHUB_OUTPUT's `name<<DELIMITER … DELIMITER` records. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!head) continue;
    const [, name = '', delimiter = ''] = head;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
    outputs[name] = value.join('\n');
  }
  return outputs;
}

let runs = 0;

interface Runner {
  env: Record<string, string>;
  summaryFile: string;
  outputFile: string;
}

/** The runner's files (summary, outputs, event, RUNNER_TEMP) and the step's environment. */
async function prepareRunner(opts: RunOptions): Promise<Runner> {
  const files = await tempDir('cs-runner-');
  const summaryFile = path.join(files, 'step_summary.md');
  const outputFile = path.join(files, 'output.txt');
  await writeFile(summaryFile, '');
  await writeFile(outputFile, '');
  const runnerTemp = path.join(files, 'temp');
  await mkdir(runnerTemp);
  const event = opts.event ?? { name: 'push', payload: {} };
  const eventFile = path.join(files, 'event.json');
  await writeFile(eventFile, JSON.stringify(event.payload ?? {}));

  const inputs = { ...(await actionDefaults()), ...opts.inputs };
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: files,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: runnerTemp,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'acme/agents',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: opts.apiUrl ?? 'http://127.0.0.1:9',
    GITHUB_RUN_ID: opts.runId ?? String(1000 + ++runs),
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return { env, summaryFile, outputFile };
}

async function collect(
  runner: Runner,
  run: { code: number | null; stdout: string; stderr: string },
): Promise<RunResult> {
  return {
    ...run,
    log: parseLog(run.stdout),
    summary: await readFile(runner.summaryFile, 'utf8'),
    outputs: parseOutputs(await readFile(runner.outputFile, 'utf8')),
  };
}

/** Runs dist/index.js; asynchronous, so that a fake server in this process can answer it. */
export async function runDist(opts: RunOptions): Promise<RunResult> {
  const runner = await prepareRunner(opts);
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [DIST],
      { cwd: opts.workspace, env: runner.env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, out, err) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code: status, stdout: out, stderr: err });
      },
    );
  });
  return collect(runner, run);
}

type Write = typeof process.stdout.write;

/** A stream write that appends to `sink` instead (and calls back, as a write does). */
function capture(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as Write;
}

/**
 * What src/action/main.ts does, from src, in this process: the runner's environment is process.env
 * for the run (@actions/core reads GITHUB_OUTPUT from it and sets process.exitCode; the log goes to
 * process.stdout), all restored afterwards. One thread (no workerScript): the fixtures are far below
 * the size at which the bundle starts workers. Tests in a file run one at a time, so no two runs
 * share the process's environment.
 */
export async function runInProcess(opts: RunOptions): Promise<RunResult> {
  const runner = await prepareRunner(opts);
  const { startAction } = await import('../../src/action/start.js');
  const savedEnv = { ...process.env };
  const savedExitCode = process.exitCode;
  const savedOut = process.stdout.write;
  const savedErr = process.stderr.write;
  let stdout = '';
  let stderr = '';
  let code: number;
  try {
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, runner.env);
    process.exitCode = undefined;
    process.stdout.write = capture((text) => (stdout += text));
    process.stderr.write = capture((text) => (stderr += text));
    // No worker script: `jobs` runs every transcript in this thread (the bundle tests cover workers).
    await startAction(process.env);
    code = Number(process.exitCode ?? 0);
  } finally {
    process.stdout.write = savedOut;
    process.stderr.write = savedErr;
    process.exitCode = savedExitCode;
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, savedEnv);
  }
  return collect(runner, { code, stdout, stderr });
}

export function pullRequestEvent(number: number): { name: string; payload: unknown } {
  return { name: 'pull_request', payload: { action: 'synchronize', number, pull_request: { number } } };
}

export function byLevel(log: ParsedLog, level: Level): ParsedAnnotation[] {
  return log.annotations.filter((a) => a.level === level);
}
