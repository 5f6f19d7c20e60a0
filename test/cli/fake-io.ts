// An in-memory CliIO for running commands in-process.
import type { CliIO } from '../../src/cli/command.js';

export interface FakeIO extends CliIO {
  out: () => string;
  err: () => string;
}

/** `isTTY` pretends stdout and/or stderr are terminals (colour decisions: src/cli/style.ts). */
export function fakeIO(
  cwd: string,
  env: Record<string, string | undefined> = {},
  isTTY?: { stdout?: boolean; stderr?: boolean },
): FakeIO {
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
    ...(isTTY !== undefined ? { isTTY } : {}),
    out: () => out,
    err: () => err,
  };
}
