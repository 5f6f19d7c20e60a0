// `policy validate [FILE]` and `policy print-default`: check a policy file before CI relies on
// it, and print the commented default as a starting point.
import { formatDiagnostic } from '../../core/diagnostics.js';
import { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from '../../core/policy/default.js';
import { inertJson, shownName } from '../../core/text/shown-name.js';
import type { Diagnostic } from '../../core/types.js';
import { POLICY_FILE_CANDIDATES, loadPolicy } from '../../io/load-policy.js';
import { PROGRAM, UsageError, parseOptions } from '../args.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { Command } from '../command.js';

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function tally(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const parts = [
    ...(errors > 0 ? [count(errors, 'error')] : []),
    ...(warnings > 0 ? [count(warnings, 'warning')] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** Version of the `policy validate --json` report: raised when a field changes meaning or goes. */
export const POLICY_VALIDATE_SCHEMA = 1;

const VALIDATE_HELP = `Usage: ${PROGRAM} policy validate [FILE] [--strict] [--json]

Checks a context policy (YAML or JSON) and reports every problem at once, each as
file:line:column: syntax errors, duplicate keys, invalid values and PII rule patterns are
errors, and so is a misspelt key (budjet, Budget, keep-recent: "did you mean budget?"):
ignoring it would silently apply the default. Other unknown keys are warnings (they are
ignored, so a policy written for a later release still runs); --strict makes them errors.

Without FILE, checks ${POLICY_FILE_CANDIDATES.join(', ')} (the first that exists) under
the working directory; with none of them, the built-in default policy applies.

Options:
  --strict     unknown keys are errors, not warnings
  --json       print { schema_version, file, valid, diagnostics, policy } on stdout
               (policy with every default filled in, or null when invalid; file is
               null for the default)
  -h, --help   show this help

Diagnostics go to stderr, the verdict to stdout.
Exit codes: 0 valid (warnings allowed), 2 invalid or unreadable.

Examples:
  ${PROGRAM} policy validate
  ${PROGRAM} policy validate --strict
  ${PROGRAM} policy validate ci/strict-policy.yml --json

Editors: schema/context-policy.schema.json completes and checks the policy as you
type; see docs/policy.md.
`;

const PRINT_DEFAULT_HELP = `Usage: ${PROGRAM} policy print-default [--json]

Prints the built-in default policy: the one that applies when there is no policy file.
The YAML form is commented, field by field; save it as .github/context-policy.yml and
keep only the keys you change (every key left out takes its default).

Options:
  --json       print the default policy as JSON instead (a policy document, so it has no
               schema_version: its format version is its \`version\` key)
  -h, --help   show this help

Examples:
  ${PROGRAM} policy print-default > .github/context-policy.yml
  ${PROGRAM} policy print-default --json
`;

export const policyValidateCommand: Command = {
  path: ['policy', 'validate'],
  summary: 'check a policy file: every problem with file:line:column',
  help: VALIDATE_HELP,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      json: { type: 'boolean' },
      strict: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError('policy validate takes at most one FILE.');
    const result = await loadPolicy(positionals[0], { cwd: io.cwd, strict: values.strict === true });
    const builtIn = result.source === 'default';

    if (values.json) {
      const report = {
        schema_version: POLICY_VALIDATE_SCHEMA,
        file: builtIn ? null : result.source,
        valid: result.ok,
        diagnostics: result.diagnostics,
        policy: result.ok ? result.policy : null,
      };
      io.stdout(inertJson(`${JSON.stringify(report, null, 2)}\n`));
      return result.ok ? EXIT_OK : EXIT_INPUT;
    }

    for (const d of result.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
    if (builtIn) {
      io.stdout(`✓ no policy file found: the built-in default policy applies (it is valid)\n`);
    } else if (result.ok) {
      io.stdout(`✓ ${shownName(result.source)} is valid${tally(result.diagnostics)}\n`);
    } else {
      io.stdout(`✗ ${shownName(result.source)} is invalid${tally(result.diagnostics)}\n`);
    }
    return result.ok ? EXIT_OK : EXIT_INPUT;
  },
};

export const policyPrintDefaultCommand: Command = {
  path: ['policy', 'print-default'],
  summary: 'print the built-in default policy (commented YAML, or --json)',
  help: PRINT_DEFAULT_HELP,
  async run(args, io) {
    const { values } = parseOptions(args, { json: { type: 'boolean' } }, false);
    io.stdout(values.json ? `${JSON.stringify(DEFAULT_POLICY, null, 2)}\n` : DEFAULT_POLICY_YAML);
    return EXIT_OK;
  },
};

export const policyCommands: Command[] = [policyValidateCommand, policyPrintDefaultCommand];
