// Strict option parsing for every command: node:util parseArgs, with its errors reworded into
// one-line usage messages (no stack trace) that point at the command's --help.
import { parseArgs } from 'node:util';
import { closest } from './suggest.js';

export const PROGRAM = 'context-stability';

/** One option of a command; `multiple` collects repeated occurrences into an array. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

type Options = Readonly<Record<string, OptionSpec>>;

type OptionValue<S extends OptionSpec> = (S['type'] extends 'boolean' ? boolean : string) extends infer V
  ? S['multiple'] extends true
    ? V[]
    : V
  : never;

export interface ParsedOptions<O extends Options> {
  /** Absent options are undefined: commands apply their own defaults. */
  values: { [K in keyof O]?: OptionValue<O[K]> };
  positionals: string[];
}

/** Bad usage: the router prints the message with a `--help` hint and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** True when `--help`/`-h` appears before a `--` terminator. */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

// The option as typed, without any `=value` part: a value could be a path or a secret.
function optionToken(message: string): string {
  const match = /'(-{1,2}[^'\s=<]{1,60})/.exec(message);
  return match?.[1] ?? 'option';
}

function reword(error: unknown, options: Options): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  const token = optionToken(message);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const names = Object.keys(options).map((n) => `--${n}`);
      const suggestion = token.startsWith('--') ? closest(token, names) : undefined;
      return `Unknown option ${token}.${suggestion ? ` Did you mean ${suggestion}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message)
        ? `Option ${token} takes no value.`
        : `Option ${token} needs a value.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'Unexpected argument: this command takes no positional arguments.';
    default:
      return 'The arguments could not be parsed.';
  }
}

/** parseArgs in strict mode; any parse error becomes a UsageError. */
export function parseOptions<const O extends Options>(
  args: string[],
  options: O,
  allowPositionals = true,
): ParsedOptions<O> {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals });
    return { values: values as ParsedOptions<O>['values'], positionals };
  } catch (error) {
    throw new UsageError(reword(error, options));
  }
}

/** `--max-file-size` style sizes: bytes, or with a K/M/G suffix (powers of 1024). */
export function parseByteSize(option: string, value: string): number {
  const bytes = byteSize(value);
  if (bytes === undefined)
    throw new UsageError(`Option ${option} needs a size in bytes, e.g. 1048576 or 50M.`);
  return bytes;
}

/** `1048576`, `512K`, `50M`, `1GiB` → bytes (powers of 1024); undefined unless a whole size ≥ 1 byte. */
export function byteSize(value: string): number | undefined {
  const match = /^(\d+)\s*([kmg]i?b?)?$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? '').charAt(0).toLowerCase();
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const bytes = Number(match[1]) * factor;
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}

/** `100000`, `100_000` or `100k` → a count; undefined unless a whole number ≥ 1. */
export function recordCount(value: string): number | undefined {
  const match = /^(\d[\d_]*)\s*(k)?$/i.exec(value.trim());
  if (!match) return undefined;
  const n = Number((match[1] ?? '').replace(/_/g, '')) * (match[2] ? 1000 : 1);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** The value if it is one of `allowed`, else a UsageError naming the accepted values. */
export function parseChoice<const T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`Option ${option} accepts ${allowed.join(', ')}.`);
}
