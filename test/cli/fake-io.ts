// An in-memory CliIO for running commands in-process.
import type { CliIO } from '../../src/cli/command.js';

export interface FakeIO extends CliIO {
  out: () => string;
  err: () => string;
}

export function fakeIO(cwd: string, env: Record<string, string | undefined> = {}): FakeIO {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    cwd,
    env,
    out: () => out,
    err: () => err,
  };
}
