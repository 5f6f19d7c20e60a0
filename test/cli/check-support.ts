// A throwaway repository for the check/update/merge tests: the fixture transcripts and policies of
// test/fixtures/check copied into a temp folder, and the three commands run in-process.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { runCli } from '../../src/cli/main.js';
import { checkCommand } from '../../src/cli/commands/check.js';
import { mergeCommand } from '../../src/cli/commands/merge.js';
import { updateCommand } from '../../src/cli/commands/update.js';
import { fakeIO } from './fake-io.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/check/', import.meta.url));

/** Planted in the fixtures: must never appear in any output or golden. */
export const PII = ['dana.miller@example.org', '4111 1111 1111 1111'];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export class TempRepo {
  readonly root: string;
  readonly dir: string;

  constructor() {
    this.root = mkdtempSync(path.join(tmpdir(), 'cs-check-'));
    this.dir = path.join(this.root, 'repo');
    mkdirSync(this.dir);
    cpSync(path.join(FIXTURES, 'transcripts'), path.join(this.dir, 'transcripts'), { recursive: true });
    for (const policy of ['policy.yml', 'policy-tight.yml']) {
      cpSync(path.join(FIXTURES, policy), path.join(this.dir, policy));
    }
  }

  path(rel: string): string {
    return path.join(this.dir, rel);
  }

  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }

  write(rel: string, text: string): void {
    mkdirSync(path.dirname(this.path(rel)), { recursive: true });
    writeFileSync(this.path(rel), text);
  }

  /** Every file below `rel`, '/'-separated and sorted, with its content. */
  tree(rel = 'golden'): Record<string, string> {
    const out: Record<string, string> = {};
    let entries: string[];
    try {
      entries = readdirSync(this.path(rel), { recursive: true, encoding: 'utf8' });
    } catch {
      return out;
    }
    for (const entry of entries.map((e) => e.split(path.sep).join('/')).sort()) {
      try {
        out[`${rel}/${entry}`] = this.read(`${rel}/${entry}`);
      } catch {
        // a folder
      }
    }
    return out;
  }

  /** Runs `context-stability ARGS` in-process; CI is unset unless `env` sets it. */
  async cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const io = fakeIO(this.dir, env);
    const code = await runCli(args, io, [checkCommand, updateCommand, mergeCommand]);
    return { code, stdout: io.out(), stderr: io.err() };
  }

  /** `check … --format json`, parsed. */
  async checkJson(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ run: Run; report: CheckReport }> {
    const run = await this.cli(['check', '--format', 'json', ...args], env);
    return { run, report: JSON.parse(run.stdout) as CheckReport };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function outcomes(report: CheckReport): Record<string, string> {
  return Object.fromEntries(report.transcripts.map((t) => [t.transcript, t.outcome]));
}
