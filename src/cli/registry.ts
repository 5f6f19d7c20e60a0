// Every CLI command, in the order `--help` lists them. Adding a command is one line here.
import type { Command } from './command.js';
import { inspectCommand } from './commands/inspect.js';
import { policyCommands } from './commands/policy.js';

export const COMMANDS: readonly Command[] = [inspectCommand, ...policyCommands];
