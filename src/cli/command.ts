// The contract between the CLI router (main.ts) and each command module.

/** Everything a command may touch of the outside world, injected so commands run in-process in tests. */
export interface CliIO {
  /**
   * May throw when standard output cannot be written: runCli ends the run with one line and exit 2
   * (a closed pipe is dropped quietly by the process's own io instead; main.ts).
   */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Whether stdout and stderr are terminals (absent: neither is). With env, it decides colour
   * (src/cli/style.ts).
   */
  isTTY?: { stdout?: boolean; stderr?: boolean };
}

/** Exit codes (DESIGN §7). */
export const EXIT_OK = 0;
/** Violations or drift. */
export const EXIT_FINDINGS = 1;
/** Bad usage or unreadable input. */
export const EXIT_INPUT = 2;

export interface Command {
  /** Words that select the command, e.g. `['inspect']` or `['policy', 'validate']`. */
  path: string[];
  /** One line for the command list. */
  summary: string;
  /** Full `--help` text: usage line, options, examples. */
  help: string;
  run(args: string[], io: CliIO): Promise<number>;
}
