// Every CLI command, in the order `--help` lists them. Adding a command is one line here.
import type { Command } from './command.js';
import { calibrateCommand } from './commands/calibrate.js';
import { checkCommand } from './commands/check.js';
import { explainCommand } from './commands/explain.js';
import { guardianCommands } from './commands/guardian.js';
import { inspectCommand } from './commands/inspect.js';
import { mergeCommand } from './commands/merge.js';
import { policyCommands } from './commands/policy.js';
import { stabilizeCommand } from './commands/stabilize.js';
import { updateCommand } from './commands/update.js';
import { viewCommand } from './commands/view.js';

export const COMMANDS: readonly Command[] = [
  inspectCommand,
  stabilizeCommand,
  explainCommand,
  checkCommand,
  updateCommand,
  viewCommand,
  mergeCommand,
  calibrateCommand,
  ...policyCommands,
  ...guardianCommands,
];
