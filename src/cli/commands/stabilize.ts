import { emitOptionsOf } from '../../core/emit/repair.js';
import { maskString } from '../../core/stabilize/finalize.js';
import { createMasker } from '../../core/stabilize/stabilize.js';
// `stabilize FILE`: runs the stabilizer and the checks on one transcript and prints a summary,
// the report of DESIGN §7 (`--json`) or the stabilized context as a provider request (`--emit`).
import {
  cachePrefixCheck,
  cachePrefixMinShare,
  cachePrefixSeverity,
  replayCachePrefix,
} from '../../core/cache/prefix.js';
import { EMIT_FORMATS, emitContext, resolveEmitFormat } from '../../core/emit/index.js';
import { buildReport, failingChecks } from '../../core/report/report.js';
import { runRetention } from '../../core/retention/index.js';
import { compareFindings } from '../../core/report/severity-order.js';
import { stabilizeTranscript } from '../../core/stabilize/stabilize.js';
import { ACTIONS } from '../../core/stabilize/types.js';
import { inertJson, shownName } from '../../core/text/shown-name.js';
import type { LedgerEntry, StabilizeResult } from '../../core/stabilize/types.js';
import type { CheckResult } from '../../core/validate/types.js';
import { validateResult } from '../../core/validate/validate.js';
import { PROGRAM, UsageError, parseChoice, parseOptions } from '../args.js';
import { EXIT_FINDINGS, EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { STABILIZE_REPORT_SCHEMA } from '../json-schemas.js';
import { styleFor, styleStabilizeText } from '../style.js';
import { PREPARE_HELP, PREPARE_OPTIONS, inputFormatOption, prepare } from '../prepare.js';

const OPTIONS = {
  ...PREPARE_OPTIONS,
  json: { type: 'boolean' },
  emit: { type: 'string' },
} as const;

/** Violations listed per check in the text summary; `--json` has them all. */
const MAX_VIOLATIONS_SHOWN = 20;

const HELP = `Usage: ${PROGRAM} stabilize FILE [options]

Stabilizes one transcript under the policy (trim, mask, deduplicate to fit the budget), runs
the checks on the result and prints a summary: status, budget, what was kept and dropped and
why, failing checks with file:line, events. Never prints message content.

Options:
  --json                  print the full report as JSON: schema_version (${STABILIZE_REPORT_SCHEMA}),
                          context, ledger, summaries, checks, events
  --emit FORMAT           print the stabilized context as a request body instead:
                          ${EMIT_FORMATS.join(', ')} (same = the request of the transcript's
                          own API: Claude Code sessions are written for the Anthropic API,
                          Codex rollouts for the OpenAI Responses API); the body is exactly
                          the provider's shape, with no schema_version
${PREPARE_HELP}
  -h, --help              show this help

--json and --emit cannot be combined. The context in --json and --emit output is masked by
the policy's PII detectors; the summary holds no content at all.
Exit codes: 0 all checks pass (warnings allowed), 1 a check with severity error fails (an
escalated status is the failing check \`status\`; with --emit openai|anthropic|responses the
provider check applies that API's request rules to what is printed, the OpenAI rules for
responses), 2 bad usage, an invalid policy or
an unreadable transcript (when only some JSONL records are unreadable, the rest is still
stabilized and printed).

Examples:
  ${PROGRAM} stabilize session.jsonl
  ${PROGRAM} stabilize --json --policy ci/strict.yml session.jsonl > report.json
  ${PROGRAM} stabilize --emit openai chat.json > request.json
  ${PROGRAM} stabilize --session 2 aider-history.md
`;

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `kept 9 (protected 8, in_budget 1)` lines, actions in pipeline order, reasons by count. */
function ledgerLines(ledger: readonly LedgerEntry[]): string[] {
  const byAction = new Map<string, Map<string, number>>();
  for (const e of ledger) {
    const reasons = byAction.get(e.action) ?? new Map<string, number>();
    reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + 1);
    byAction.set(e.action, reasons);
  }
  const width = Math.max(...ACTIONS.map((a) => a.length));
  const lines: string[] = [];
  for (const action of ACTIONS) {
    const reasons = byAction.get(action);
    if (!reasons) continue;
    const total = [...reasons.values()].reduce((a, b) => a + b, 0);
    const detail = [...reasons.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ');
    lines.push(`  ${action.padEnd(width)} ${String(total).padStart(4)}  (${detail})`);
  }
  return lines;
}

/** One `file:line:column: check (severity): message [id]` line per violation, capped per check. */
/** What broke first: errors before warnings, then the finding order (pii, task, recency, …). */
function byFinding(a: CheckResult, b: CheckResult): number {
  return compareFindings({ severity: a.severity, check: a.name }, { severity: b.severity, check: b.name });
}

function violationLines(file: string, check: CheckResult, cap: number): string[] {
  const shown = check.violations.slice(0, cap).map((v) => {
    const id = v.id === '*' ? '' : ` [${v.id}]`;
    const at = v.column !== undefined ? `${v.line}:${v.column}` : `${v.line}`;
    return shownName(`${file}:${at}: ${check.name} (${v.severity ?? check.severity}): ${v.message}${id}`);
  });
  const more = check.violations.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more ${check.name} violations (--json lists them all)`);
  return shown;
}

function renderSummary(result: StabilizeResult, checks: readonly CheckResult[], artifacts: number): string {
  const { used, limit } = result.budget;
  const percent = limit > 0 ? Math.round((used / limit) * 100) : 0;
  const lines = [
    `${result.transcript}: ${result.status}`,
    `  budget ${used} of ${limit} tokens (${percent}%); ${result.context.length} of ${plural(artifacts, 'artifact')} in the context`,
    ...ledgerLines(result.ledger),
  ];
  const invalidSummaries = result.summaries.filter((s) => s.status !== 'valid').length;
  if (result.summaries.length > 0) {
    lines.push(`  summaries: ${result.summaries.length - invalidSummaries} valid, ${invalidSummaries} not`);
  }

  const active = checks.filter((c) => c.severity !== 'off');
  const failed = active.filter((c) => !c.ok).sort(byFinding);
  lines.push(
    `checks: ${active.length - failed.length} of ${active.length} passed` +
      (failed.length > 0 ? `, failing: ${failed.map((c) => `${c.name} (${c.severity})`).join(', ')}` : ''),
  );
  for (const check of failed) {
    lines.push(...violationLines(result.transcript, check, MAX_VIOLATIONS_SHOWN).map((l) => `  ${l}`));
  }
  if (result.events.length > 0) {
    lines.push('events:');
    for (const e of result.events) lines.push(`  [${e.level}] ${e.code}: ${e.message}`);
  }
  // The transcript's name, ids and tool names are shown escaped, one line each.
  return `${lines.map(shownName).join('\n')}\n`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  if (positionals.length !== 1) throw new UsageError('stabilize needs exactly one FILE.');
  if (values.json && values.emit !== undefined) {
    throw new UsageError(
      '--emit and --json cannot be combined: --emit prints the request body, --json the report.',
    );
  }
  const emit = values.emit === undefined ? undefined : parseChoice('--emit', values.emit, EMIT_FORMATS);
  const prepared = await prepare(
    {
      file: positionals[0] as string,
      policy: values.policy,
      format: inputFormatOption('stabilize', values, io, 'its output formats in --json and --emit'),
      session: values.session,
      maxFileSize: values['max-file-size'],
      maxRecords: values['max-records'],
    },
    io,
  );
  if (!prepared) return EXIT_INPUT;
  const { transcript, policy, rules, tokenizer, piiKey } = prepared;

  const cache = new Map<string, number>();
  // With --emit openai|anthropic|responses, the verdict and the provider check apply that API's rules
  // (the OpenAI rules for responses) to what is printed.
  const format = emit === undefined ? undefined : resolveEmitFormat(emit, transcript.format);
  const result = stabilizeTranscript(transcript, {
    policy,
    tokenizer,
    rules,
    cache,
    piiKey,
    ...(format ? { emit: format } : {}),
  });
  const checks = validateResult(transcript, result, {
    policy,
    tokenizer,
    rules,
    cache,
    ...(format ? { emit: format } : {}),
  });
  // The optional cache_prefix check, as `check`, `update` and the Action run it
  // (src/cli/check/evaluate.ts): only when the policy enables it, since the replay stabilizes the
  // history once per measured model call. It measures the requests of the policy's target, as there.
  const cacheSeverity = cachePrefixSeverity(policy);
  const replay =
    cacheSeverity === undefined
      ? undefined
      : replayCachePrefix(transcript, { policy, tokenizer, rules, piiKey });
  if (replay && cacheSeverity !== undefined) {
    checks.push(cachePrefixCheck(replay.points, cacheSeverity, cachePrefixMinShare(policy)));
  }
  // The retention check (on at warning unless the policy turns it off), as `check` runs it.
  const retention = runRetention(transcript, result, { policy, tokenizer, rules, piiKey });
  if (retention) checks.push(retention.check);
  // An escalated status is the failing `status` check; a warning status is reported, like every warning.
  const failing = failingChecks(checks);
  const findings = failing.length > 0;

  if (format !== undefined) {
    // With the transcript, a native document keeps the fields that make it stabilize the same way.
    // The placeholder user turn of a repaired request says what the policy says (masked like any text).
    const masker = createMasker(policy, rules, { key: piiKey });
    const repair = emitOptionsOf(policy, (t) => maskString(t, masker, {}));
    const body = emitContext(result.context, format, transcript, repair);
    io.stdout(inertJson(`${JSON.stringify(body, null, 2)}\n`));
    // stdout is the request body: say on stderr why the run fails, if it does.
    for (const check of [...failing].sort(byFinding)) {
      for (const line of violationLines(result.transcript, check, MAX_VIOLATIONS_SHOWN))
        io.stderr(`${line}\n`);
    }
  } else if (values.json) {
    const report = { schema_version: STABILIZE_REPORT_SCHEMA, ...buildReport(result, checks) };
    if (replay) report.cache_prefix = replay.summary;
    if (retention) report.retention = retention.report;
    io.stdout(inertJson(`${JSON.stringify(report, null, 2)}\n`));
  } else {
    const summary = renderSummary(result, checks, transcript.artifacts.length);
    io.stdout(styleStabilizeText(summary, styleFor(io, 'stdout'), !findings));
  }

  if (prepared.partial) return EXIT_INPUT;
  return findings ? EXIT_FINDINGS : EXIT_OK;
}

export const stabilizeCommand: Command = {
  path: ['stabilize'],
  summary: 'stabilize one transcript under the policy: summary, --json report or --emit request',
  help: HELP,
  run,
};
