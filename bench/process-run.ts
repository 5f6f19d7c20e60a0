// Whole-process timing for the process section (issue 16): each command is a fresh `node …`
// process, timed from spawn to exit by the parent, with its CPU time and peak RSS taken by a
// probe around it. Commands are interleaved like the in-process workloads (timing.ts): in each
// round every command runs once, starting from a different one, so a slow spell of a shared
// machine hits them alike. A "command" may be several processes run at the same time (the two
// shards of a sharded run): its time is until the last one exits, its CPU time the sum, its
// peak RSS the largest.
//
// The probe: GNU time (`/usr/bin/time -f '%e %U %S %M' -o FILE`, where %M is the peak RSS of the
// child in KB, worker threads included) when it is there; else bench/rss-wrapper.mjs, which runs
// the entry script inside a node process that writes its own `process.resourceUsage()` at exit.
// BENCH_RSS_PROBE=wrapper forces the wrapper.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './timing.js';
import type { Timing } from './timing.js';

const WRAPPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'rss-wrapper.mjs');
const TIME = '/usr/bin/time';

export type Probe = 'gnu-time' | 'wrapper';

/** One process: `node ARGV…` in `cwd`. */
export interface Command {
  argv: string[];
  cwd: string;
}

export interface ProcessTiming extends Timing {
  /** Peak RSS of every timed run (MB; the largest process of a parallel command). */
  rssMb: number[];
  peakRssMb: number;
  /** Exit codes seen over all runs (warm-up included), sorted. */
  exitCodes: number[];
  /** The last run's stdout, last line (a summary line or a JSON tally). */
  lastLine: string;
}

interface RunOnce {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  exits: number[];
  lastLine: string;
}

let tmpDir: string | undefined;

function scratch(name: string): string {
  tmpDir ??= mkdtempSync(path.join(os.tmpdir(), 'cs-bench-'));
  return path.join(tmpDir, name);
}

export function cleanupProbe(): void {
  if (tmpDir !== undefined) rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = undefined;
}

/** GNU time when `/usr/bin/time -f %M -o FILE true` writes a number, else the node wrapper. */
export function detectProbe(): Probe {
  if (process.env['BENCH_RSS_PROBE'] === 'wrapper') return 'wrapper';
  const out = scratch('probe.txt');
  const r = spawnSync(TIME, ['-f', '%M', '-o', out, 'true'], { stdio: 'ignore' });
  if (r.status !== 0) return 'wrapper';
  try {
    return /^\d+\s*$/.test(readFileSync(out, 'utf8')) ? 'gnu-time' : 'wrapper';
  } catch {
    return 'wrapper';
  }
}

/** The wrapper needs a script path: `-e CODE` (with its node flags) becomes a scratch .mjs file. */
function wrapperArgv(argv: readonly string[], out: string, cwd: string): string[] {
  const e = argv.indexOf('-e');
  if (e < 0) return [WRAPPER, out, ...argv];
  // In cwd, so that its imports resolve as they would from `node -e` there.
  const file = path.join(cwd, '.eval.mjs');
  writeFileSync(file, argv[e + 1] ?? '');
  return [WRAPPER, out, file, ...argv.slice(e + 2)];
}

function parseProbe(probe: Probe, file: string): { cpuMs: number; rssMb: number } {
  const text = readFileSync(file, 'utf8').trim();
  if (probe === 'wrapper') {
    const r = JSON.parse(text) as { maxRssKb: number; userMs: number; systemMs: number };
    return { cpuMs: r.userMs + r.systemMs, rssMb: r.maxRssKb / 1024 };
  }
  // GNU time writes "Command exited with non-zero status N" first when the child fails.
  const last = text.split('\n').pop() ?? '';
  const [, user, system, kb] = last.split(/\s+/).map(Number);
  return { cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, rssMb: (kb ?? 0) / 1024 };
}

function tail(text: string, max: number): string {
  return text.length > max ? text.slice(-max) : text;
}

/** Starts one process under the probe; resolves when it exits. */
function start(cmd: Command, probe: Probe, index: number): Promise<RunOnce> {
  const out = scratch(`run-${index}.txt`);
  rmSync(out, { force: true });
  const [file, args] =
    probe === 'gnu-time'
      ? [TIME, ['-f', '%e %U %S %M', '-o', out, process.execPath, ...cmd.argv]]
      : [process.execPath, wrapperArgv(cmd.argv, out, cmd.cwd)];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: cmd.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout = tail(stdout + d.toString('utf8'), 16_384)));
    child.stderr.on('data', (d: Buffer) => (stderr = tail(stderr + d.toString('utf8'), 4096)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === null || code > 2) {
        reject(
          new Error(`node ${cmd.argv.join(' ')} (in ${cmd.cwd}) failed (${code ?? signal}):\n${stderr}`),
        );
        return;
      }
      let probed: { cpuMs: number; rssMb: number };
      try {
        probed = parseProbe(probe, out);
      } catch {
        reject(new Error(`node ${cmd.argv.join(' ')}: the ${probe} probe wrote nothing.\n${stderr}`));
        return;
      }
      const lines = stdout.trim().split('\n');
      resolve({ wallMs: 0, ...probed, exits: [code], lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}

/** Runs the processes of one command at the same time; wall time until the last one exits. */
export async function runCommand(cmds: readonly Command[], probe: Probe): Promise<RunOnce> {
  const started = performance.now();
  const runs = await Promise.all(cmds.map((c, i) => start(c, probe, i)));
  const wallMs = performance.now() - started;
  return {
    wallMs,
    cpuMs: runs.reduce((n, r) => n + r.cpuMs, 0),
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    exits: runs.flatMap((r) => r.exits),
    lastLine: runs.map((r) => r.lastLine).join(' | '),
  };
}

/** Times every command `runs` times, interleaved, after `warmup` untimed rounds. */
export async function timeProcesses<K extends string>(
  commands: Record<K, readonly Command[]>,
  opts: { runs: number; warmup: number; probe: Probe; log?: (line: string) => void },
): Promise<Record<K, ProcessTiming>> {
  const names = Object.keys(commands) as K[];
  const seen = new Map<K, RunOnce[]>(names.map((n) => [n, []]));
  const exits = new Map<K, Set<number>>(names.map((n) => [n, new Set()]));
  const last = new Map<K, string>();
  for (let round = 0; round < opts.warmup + opts.runs; round++) {
    const timed = round >= opts.warmup;
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as K;
      const r = await runCommand(commands[name], opts.probe);
      for (const code of r.exits) exits.get(name)?.add(code);
      last.set(name, r.lastLine);
      if (timed) seen.get(name)?.push(r);
      const which = timed
        ? `run ${round - opts.warmup + 1}/${opts.runs}`
        : `warm-up ${round + 1}/${opts.warmup}`;
      opts.log?.(`${which}: ${name} ${(r.wallMs / 1000).toFixed(2)} s`);
    }
  }
  const out = {} as Record<K, ProcessTiming>;
  for (const name of names) {
    const runs = seen.get(name) ?? [];
    const rssMb = runs.map((r) => r.rssMb);
    out[name] = {
      ...summarize(
        runs.map((r) => r.wallMs),
        runs.map((r) => r.cpuMs),
      ),
      rssMb,
      peakRssMb: Math.max(...rssMb),
      exitCodes: [...(exits.get(name) ?? [])].sort(),
      lastLine: last.get(name) ?? '',
    };
  }
  return out;
}
