// The CLI router: picks the command from the leading words of argv, handles --help/--version,
// and turns usage errors into a one-line message plus a hint (exit 2), never a stack trace.
import { createRequire } from 'node:module';
import { shownName } from '../core/text/shown-name.js';
import { PROGRAM, UsageError, wantsHelp } from './args.js';
import { EXIT_INPUT, EXIT_OK } from './command.js';
import type { CliIO, Command } from './command.js';
import { COMMANDS } from './registry.js';
import { withStyledStderr } from './style.js';
import { closest } from './suggest.js';

export type { CliIO } from './command.js';

const DEBUG_ENV = 'CONTEXT_STABILITY_DEBUG';

/** Standard output refused a write (a full disk, a closed file): the output is incomplete. */
class StdoutError extends Error {
  constructor(readonly code: string) {
    super(`standard output could not be written (${code})`);
    this.name = 'StdoutError';
  }
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? error.name : 'Error';
}

/** Every write to stdout that throws becomes a StdoutError, which ends the run (runCli). */
function guardStdout(io: CliIO): CliIO {
  return {
    ...io,
    stdout: (text) => {
      try {
        io.stdout(text);
      } catch (error) {
        throw error instanceof StdoutError ? error : new StdoutError(errorCode(error));
      }
    },
  };
}

function stdoutFailure(io: CliIO, error: StdoutError): number {
  // The code (ENOSPC, EIO, EBADF) only: never a path or a byte of the output.
  io.stderr(
    `${PROGRAM}: ${error.message}; the output is incomplete. Check the disk, file or device standard output goes to.\n`,
  );
  return EXIT_INPUT;
}

interface ProcessIO {
  io: CliIO;
  /** Waits for the writes in flight; the write error stdout reported, if any (EPIPE excluded). */
  settle(): Promise<StdoutError | undefined>;
}

/**
 * The process's streams. A write error arrives later, as an 'error' event: from then on every
 * write throws, so the run stops (its locks released on the way out) and main reports it. A closed
 * pipe (`… | head`, EPIPE) is not an error of ours: the output stops quietly and the run goes on
 * to its own result, as for a reader that read everything. Errors of stderr have nowhere to go.
 */
function processIO(): ProcessIO {
  let failed: string | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    failed ??= error.code ?? error.name;
  });
  process.stderr.on('error', () => undefined);
  const io: CliIO = {
    stdout: (text) => {
      if (failed === 'EPIPE') return;
      if (failed !== undefined) throw new StdoutError(failed);
      process.stdout.write(text);
    },
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true },
  };
  const settle = async () => {
    if (failed === undefined && !process.stdout.destroyed)
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    return failed === undefined || failed === 'EPIPE' ? undefined : new StdoutError(failed);
  };
  return { io, settle };
}

export function packageVersion(): string {
  // Two levels below the package root both in src/cli and in build/cli.
  const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
  return pkg.version;
}

function commandName(command: Command): string {
  return command.path.join(' ');
}

/** Top-level help: usage, the command list, global options. */
export function renderCommandList(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => commandName(c).length));
  const rows = commands.map((c) => `  ${commandName(c).padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Stabilizes long LLM-agent transcripts under a policy and checks them against golden snapshots.',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    '  -h, --help     show help (also after any command)',
    '  --version      print the version',
    '',
    `Exit codes: 0 ok, 1 violations or drift, 2 bad usage or unreadable input.`,
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ].join('\n');
}

/** The command whose path is the longest prefix of argv. */
function findCommand(argv: readonly string[], commands: readonly Command[]): Command | undefined {
  let best: Command | undefined;
  for (const command of commands) {
    const matches = command.path.every((word, i) => argv[i] === word);
    if (matches && (!best || command.path.length > best.path.length)) best = command;
  }
  return best;
}

function withTrailingNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function usageFailure(io: CliIO, message: string, helpCommand: string): number {
  // The message may quote an argument: shown escaped, like every name we print.
  io.stderr(`${PROGRAM}: ${shownName(message)}\nRun '${helpCommand} --help' for usage.\n`);
  return EXIT_INPUT;
}

/** A word that starts command paths (e.g. `policy`) given without a valid sub-command. */
function groupHelp(group: string, commands: readonly Command[]): string | undefined {
  const members = commands.filter((c) => c.path.length > 1 && c.path[0] === group);
  if (members.length === 0) return undefined;
  // Sub-commands have their own exit codes (guardian signals); each one's --help lists them.
  return renderCommandList(members)
    .replace(`${PROGRAM} <command>`, `${PROGRAM} ${group} <command>`)
    .replace(/\nStabilizes long LLM-agent[^\n]*\n/, '')
    .replace(/Exit codes: [^\n]*\n/, '')
    .replace(`Run '${PROGRAM} <command> --help'`, `Run '${PROGRAM} ${group} <command> --help'`);
}

/** Runs one CLI invocation against an explicit command set (tests inject their own). */
export async function runCli(
  argv: readonly string[],
  given: CliIO,
  commands: readonly Command[],
): Promise<number> {
  // On a terminal, diagnostics on stderr get their severity coloured (src/cli/style.ts).
  const io = withStyledStderr(guardStdout(given));
  const [first, ...restArgs] = argv;
  if (first === undefined) {
    io.stderr(renderCommandList(commands));
    return EXIT_INPUT;
  }
  if (first === '--help' || first === '-h') {
    io.stdout(renderCommandList(commands));
    return EXIT_OK;
  }
  if (first === 'help') {
    if (restArgs.length === 0) {
      io.stdout(renderCommandList(commands));
      return EXIT_OK;
    }
    return runCli([...restArgs, '--help'], given, commands);
  }
  if (first === '--version') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT_OK;
  }
  if (first.startsWith('-')) {
    return usageFailure(io, `Unknown option ${first.split('=')[0]}: options go after the command.`, PROGRAM);
  }

  const command = findCommand(argv, commands);
  if (!command) {
    const group = groupHelp(first, commands);
    if (group !== undefined) {
      const sub = argv[1];
      if (sub === '--help' || sub === '-h') {
        io.stdout(group);
        return EXIT_OK;
      }
      const names = commands.filter((c) => c.path[0] === first).map((c) => c.path[1] ?? '');
      const suggestion = sub === undefined ? undefined : closest(sub, names);
      const what = sub === undefined ? `'${first}' needs a sub-command` : `Unknown ${first} sub-command`;
      io.stderr(
        `${PROGRAM}: ${what}.${suggestion ? ` Did you mean '${first} ${suggestion}'?` : ''}\n${group}`,
      );
      return EXIT_INPUT;
    }
    const suggestion = closest(first, [...new Set(commands.map((c) => c.path[0] ?? ''))]);
    return usageFailure(
      io,
      `Unknown command '${first.slice(0, 40)}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
      PROGRAM,
    );
  }

  const args = argv.slice(command.path.length);
  if (wantsHelp(args)) {
    io.stdout(withTrailingNewline(command.help));
    return EXIT_OK;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError)
      return usageFailure(io, error.message, `${PROGRAM} ${commandName(command)}`);
    if (error instanceof StdoutError) return stdoutFailure(io, error);
    // Unexpected failures: name the kind only, since an error message may quote input (PII).
    // The stack is shown on explicit request, for the person debugging their own data.
    const kind = error instanceof Error ? error.name : 'Error';
    io.stderr(
      `${PROGRAM}: internal error (${kind}) in '${commandName(command)}'. Set ${DEBUG_ENV}=1 to print the stack trace; please report the bug.\n`,
    );
    if (io.env[DEBUG_ENV] && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return EXIT_INPUT;
  }
}

/** CLI entry point: `bin/context-stability.js` sets the process exit code to its result. */
export async function main(argv: string[], io?: CliIO): Promise<number> {
  if (io) return runCli(argv, io, COMMANDS);
  const real = processIO();
  const code = await runCli(argv, real.io, COMMANDS);
  // A write that failed after the command's last one: reported here, once.
  const late = await real.settle();
  if (late === undefined || code === EXIT_INPUT) return code;
  return stdoutFailure(withStyledStderr(real.io), late);
}
