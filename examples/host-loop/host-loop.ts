// A host loop that follows the context guardian's runtime contract (docs/host-loop.md), offline:
// a scripted model audits five log files, one major action at a time. Every model call goes
// through the stabilizer, whose guardian link measures the pressure and halts at critical.
//   npx tsx --tsconfig examples/host-loop/tsconfig.json examples/host-loop/host-loop.ts --root DIR [--budget N]
import { parseArgs } from 'node:util';
import {
  ContextEscalatedError,
  ContextHaltedError,
  createContextStabilizer,
  createGuardianLink,
  formatDiagnostic,
  guardian,
  readGuardianFiles,
  saveCheckpoint,
  stabilizeOpenAIRequest,
  writeSummary,
} from 'context-stability';
import type { OpenAIMessage } from 'context-stability';

type Signal = typeof guardian.STATUS_OK | guardian.GuardianSignal;

/** The exit codes of `context-stability guardian`: the host's caller can branch on them. */
const EXIT: Record<Signal, number> = {
  'STATUS:OK': 0,
  'STATUS:MISSING_STATE': 3,
  'STATUS:HALT_CONTEXT_LIMIT': 4,
  'STATUS:COMPLETE': 5,
};

const { values } = parseArgs({
  options: { root: { type: 'string' }, budget: { type: 'string' } },
});
const root = values.root ?? '.agent-state';
const budget = Number(values.budget ?? '1000');
const FILES = { state: 'task-state.json', summary: 'summaries/latest-summary.md' };
const LOGS = ['day1.log', 'day2.log', 'day3.log', 'day4.log', 'day5.log'];
const SYSTEM =
  'You audit web server logs. Read one log at a time with read_log and report its server errors.';
const now = (): string => new Date().toISOString();

/** The tool: day N's log, longer each day, with a customer's address in it (masked before the model). */
function readLog(file: string): string {
  const day = LOGS.indexOf(file) + 1;
  const lines: string[] = [];
  for (let i = 0; i < day * 6; i++) {
    const status = i % 7 === 3 ? 500 : 200;
    lines.push(`2025-03-0${day}T10:${String(i).padStart(2, '0')}:00Z GET /api/orders/${1000 + i} ${status}`);
  }
  lines.push(`2025-03-0${day}T11:00:00Z support ticket opened by jane.doe@example.com`);
  return lines.join('\n');
}

let calls = 0;

/** The scripted model: it sees only what the stabilizer sends. */
function scriptedModel(messages: readonly OpenAIMessage[]): OpenAIMessage {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool' && typeof last.content === 'string') {
    const lines = last.content.split('\n');
    const errors = lines.filter((l) => / 500$/.test(l)).length;
    const ticket = lines.find((l) => l.includes('support ticket')) ?? '';
    return { role: 'assistant', content: `${errors} server errors; ${ticket.slice(21)}` };
  }
  const request = [...messages].reverse().find((m) => m.role === 'user');
  const file = /read (\S+\.log)/.exec(String(request?.content))?.[1] ?? '';
  const id = `call_${++calls}`;
  const args = JSON.stringify({ file });
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'read_log', arguments: args } }],
  };
}

/** The startup branch (seed 003): initialize, stop on unsafe state, rewrite a stale summary. */
async function startup(): Promise<Signal> {
  const files = await readGuardianFiles(root);
  const decision = guardian.decideStartup(files.state, files.summary, FILES);
  switch (decision.kind) {
    case 'initialize': {
      const state = guardian.initialState({
        updated_at: now(),
        goal: `Report the server errors of ${LOGS.join(', ')}.`,
        current_phase: 'plan',
        constraints: ['read-only: never change a log'],
      });
      await saveCheckpoint(root, state, guardian.renderSummary(state));
      console.log('startup: initialized (next_action START)');
      return guardian.STATUS_OK;
    }
    case 'missing_state':
      for (const d of decision.diagnostics) console.error(formatDiagnostic(d));
      console.log(`startup: missing state (${decision.reason})`);
      return guardian.STATUS_MISSING_STATE;
    case 'complete':
      if (decision.summary.rewrite) await writeSummary(root, guardian.renderSummary(decision.state));
      return guardian.STATUS_COMPLETE;
    case 'ready': {
      const { state, summary } = decision;
      if (summary.rewrite) {
        await writeSummary(root, guardian.renderSummary(state));
        console.log('startup: summary rewritten from the durable state');
      }
      if (state.halt !== undefined) {
        console.log(`startup: halted since ${state.halt.at}; a human runs guardian resume`);
        return guardian.STATUS_HALT_CONTEXT_LIMIT;
      }
      console.log(`startup: ready at turn ${state.turn}, next_action: ${state.next_action}`);
      return guardian.STATUS_OK;
    }
  }
}

async function run(): Promise<Signal> {
  const started = await startup();
  if (started !== guardian.STATUS_OK) return started;

  const link = createGuardianLink({ root });
  const stabilizer = createContextStabilizer({
    policy: { budget },
    guardian: link,
    onWarning: (w) => console.log(`warning: ${w.code}`),
  });
  // Each run starts a fresh conversation: what matters of earlier runs is in the durable state.
  const history: OpenAIMessage[] = [{ role: 'system', content: SYSTEM }];
  let asked = '';
  let reading = '';

  for (let step = 0; step < 40; step++) {
    // 1. Read fresh state: the disk, not memory, says what is next.
    const files = await readGuardianFiles(root);
    const decision = guardian.decideStartup(files.state, files.summary, FILES);
    if (decision.kind === 'complete') return guardian.STATUS_COMPLETE;
    if (decision.kind !== 'ready') return guardian.STATUS_MISSING_STATE;
    const state = decision.state;

    if (state.next_action === guardian.START_ACTION) {
      // Planning changes state: checkpoint it (a fresh summary is written with it).
      await link.checkpoint({
        current_phase: 'reading logs',
        next_action: `read ${LOGS[0]}`,
        append: { decisions: ['one log per step, oldest first'] },
      });
      console.log(`plan: checkpoint, next_action: read ${LOGS[0]}`);
      continue;
    }

    // 3. The working bundle: the fields the next action needs, rebuilt from durable state.
    if (asked !== state.next_action) {
      const bundle = guardian.renderBundleMarkdown(guardian.buildWorkingBundle(state));
      history.push({ role: 'user', content: bundle });
      asked = state.next_action;
    }

    // 2 and 4. One major action, a model call: the stabilizer measures the pressure and its
    // guardian link applies the gate before the model sees anything.
    let reply: OpenAIMessage;
    try {
      const body = await stabilizeOpenAIRequest(
        stabilizer,
        { model: 'scripted', messages: history },
        { session: 'host-loop' },
      );
      reply = scriptedModel(body.messages);
    } catch (error) {
      if (error instanceof ContextHaltedError) {
        // The halt rule: the link wrote checkpoint + summary with the halt; stop and wait.
        console.log(error.message.split('\n')[0]);
        return error.status;
      }
      if (error instanceof ContextEscalatedError) {
        // The policy cannot be honoured: with a link this is pressure 1.0, so the halt is latched too.
        console.log(error.message.split('\n')[0]);
        return guardian.STATUS_HALT_CONTEXT_LIMIT;
      }
      throw error;
    }
    const report = link.last;
    const p = report?.pressure;
    const shown = p ? `pressure ${p.value} (${p.level}, must-keep ${p.mustKeepTokens} of ${p.budget})` : '';
    history.push(reply);

    const call = reply.tool_calls?.[0];
    if (call !== undefined) {
      // Reading a log changes no state: no checkpoint is due for it.
      reading = (JSON.parse(call.function.arguments) as { file: string }).file;
      history.push({ role: 'tool', tool_call_id: call.id, content: readLog(reading) });
      console.log(`call: ${shown} -> read_log ${reading}`);
      // 5. At warning and above a fresh summary is due before the next major action.
      if (report?.freshSummaryDue === true) {
        await link.checkpoint({});
        console.log('summary: fresh summary written');
      }
      continue;
    }

    // 5. Persist state: the finding changed it, so checkpoint now (state first, then summary).
    const finding = `${reading}: ${String(reply.content)}`;
    const next = LOGS[LOGS.indexOf(reading) + 1];
    const saved = await link.checkpoint({
      last_action: { summary: `audited ${reading}`, outcome: 'success' },
      next_action: next !== undefined ? `read ${next}` : 'DONE',
      append: { completed_steps: [`audited ${reading}`], tool_outputs: [finding], artifacts: [reading] },
    });
    console.log(
      `call: ${shown} -> finding; checkpoint turn ${saved.turn}, next_action: ${saved.next_action}`,
    );
  }
  return guardian.STATUS_OK;
}

run().then(
  (signal) => {
    // The signal is the last line, as the guardian CLI prints it: the caller stops on any but OK.
    console.log(signal);
    process.exitCode = EXIT[signal];
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
