// What CI runs on a recorded session: `update` to write its golden, then `check --format json`,
// in-process with the CLI's own entry (test/cli/fake-io.ts), from `cwd` with the given policy file.
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../cli/fake-io.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

async function cli(cwd: string, args: string[]): Promise<CliRun> {
  const io = fakeIO(cwd);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

export async function updateThenCheck(
  cwd: string,
  file: string,
  policyFile: string,
): Promise<{ update: CliRun; check: CliRun }> {
  const update = await cli(cwd, ['update', file, '--policy', policyFile]);
  const check = await cli(cwd, ['check', file, '--policy', policyFile, '--format', 'json']);
  return { update, check };
}
