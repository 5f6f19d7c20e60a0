// Replays a recorded session's `pressure` values through the gate and reports where the agent
// broke the runtime contract. Transcripts without any `pressure` did not run under the guardian
// and yield nothing.
//
// Rules (artifacts in order; side-chain records are skipped; helpers in replay-rules.ts):
// 1. Override. A `user` or `system` artifact ends a halt: it is the human or system override.
// 2. Pressure. An artifact's `pressure` is the host's reading before that artifact. At or above
//    `critical` the session halts there. At or above `compress` a fresh summary is due.
// 3. Major action = an assistant artifact with a tool call other than a checkpoint. Plain
//    assistant text is not one: a recording cannot tell whether it changed the plan.
// 4. Missing pressure. Once any pressure was reported, every major action needs a reading since
//    the previous major action (or on itself). Without one it counts as critical (the fallback
//    rule): that action is a violation and the session is halted from there.
// 5. Went on after a halt. While halted, the first assistant or tool artifact is a violation,
//    except the halt's own bookkeeping: checkpoint calls and their results, an assistant turn
//    that announces STATUS:HALT_CONTEXT_LIMIT, summaries, and results of calls made before the
//    halt. One violation per halt.
// 6. State change with no fresh checkpoint. A tool result that changed state (a write/edit/
//    apply_patch-style tool, a shell command that writes, or the tag `state_change`), failed
//    or not, needs a checkpoint (a checkpoint tool call or an artifact tagged `checkpoint`)
//    before the next major action, and before the session ends. Reported at the tool result.
// 7. No fresh summary. After a reading at or above `compress` (below critical), the action in
//    progress may finish, but before the major action after it a fresh summary is due (a
//    `summary` artifact or tag, or a checkpoint, which writes one). Reported at that action.
import type { Artifact, Transcript } from '../types.js';
import { onMainChain } from '../scope/main-chain.js';
import type { Violation } from '../validate/types.js';
import { evaluateGate, isValidPressure } from './gate.js';
import type { GuardianThresholds } from './gate.js';
import {
  actionCalls,
  isCheckpointArtifact,
  isCheckpointCall,
  isHaltAnnouncement,
  isSummaryArtifact,
  stateChangeOfCall,
} from './replay-rules.js';

interface Halt {
  index: number;
  line: number;
  reported: boolean;
}

interface Pending {
  artifact: Artifact;
  index: number;
  how: string;
}

interface Due {
  line: number;
  actionsSince: number;
}

/** The call a tool result answers, with the index of the assistant artifact that made it. */
interface CallSite {
  index: number;
  checkpoint: boolean;
  change: string | null;
}

function callSites(artifacts: readonly Artifact[]): Map<string, CallSite> {
  const out = new Map<string, CallSite>();
  for (const [index, a] of artifacts.entries()) {
    for (const call of a.tool_calls ?? []) {
      out.set(`${a.id}\u0000${call.id}`, {
        index,
        checkpoint: isCheckpointCall(call),
        change: stateChangeOfCall(call),
      });
    }
  }
  return out;
}

/** Halt bookkeeping (rule 5): what may still happen after a halt without being "going on". */
function exemptFromHalt(a: Artifact, major: boolean, site: CallSite | undefined, halt: Halt): boolean {
  if (a.kind === 'assistant') {
    return !major && (isCheckpointArtifact(a) || isHaltAnnouncement(a) || isSummaryArtifact(a));
  }
  if (a.kind === 'tool') {
    return (
      site?.checkpoint === true ||
      isCheckpointArtifact(a) ||
      isSummaryArtifact(a) ||
      (site !== undefined && site.index < halt.index)
    );
  }
  return true;
}

export function replayGuardian(transcript: Transcript, thresholds: GuardianThresholds): Violation[] {
  const artifacts = transcript.artifacts.filter(onMainChain);
  if (!artifacts.some((a) => isValidPressure(a.pressure))) return [];
  const sites = callSites(artifacts);
  const siteOf = (result: Artifact): CallSite | undefined => {
    const caller = transcript.pairing.resultToCall[result.id];
    return caller === undefined || result.call_id === undefined
      ? undefined
      : sites.get(`${caller}\u0000${result.call_id}`);
  };

  const out: Violation[] = [];
  const flag = (a: Artifact, message: string) => out.push({ id: a.id, line: a.source.line, message });
  let seenPressure = false;
  let readingSinceAction = false;
  let halt: Halt | null = null;
  let pending: Pending | null = null;
  let summaryDue: Due | null = null;

  for (const [index, a] of artifacts.entries()) {
    const line = a.source.line;
    if (a.kind === 'user' || a.kind === 'system') halt = null;

    if (isValidPressure(a.pressure)) {
      seenPressure = true;
      readingSinceAction = true;
      const gate = evaluateGate({ pressure: a.pressure, first_turn: false }, thresholds);
      if (gate.halt) halt ??= { index, line, reported: false };
      else if (gate.level === 'compress') summaryDue ??= { line, actionsSince: 0 };
    }

    const major = actionCalls(a).length > 0;
    if (major && seenPressure && !readingSinceAction && halt === null) {
      flag(
        a,
        'major action with no pressure reported since the previous one: after the first turn a missing pressure counts as critical, so the session had to halt (STATUS:HALT_CONTEXT_LIMIT) instead',
      );
      halt = { index, line, reported: true };
    }

    const site = a.kind === 'tool' ? siteOf(a) : undefined;
    const current: Halt | null = halt;
    if (current !== null && !current.reported && !exemptFromHalt(a, major, site, current)) {
      flag(
        a,
        `the session went on after STATUS:HALT_CONTEXT_LIMIT: pressure at line ${current.line} was at or above critical (${thresholds.critical}); autonomous work must stop until a user or system override`,
      );
      current.reported = true;
    }

    if (isCheckpointArtifact(a)) pending = null;
    if (isSummaryArtifact(a)) summaryDue = null;

    if (major) {
      const waiting: Pending | null = pending;
      if (waiting !== null && waiting.index < index) {
        flag(
          waiting.artifact,
          `${waiting.how} changed state, and the next major action (line ${line}) came with no checkpoint in between`,
        );
        pending = null;
      }
      const due: Due | null = summaryDue;
      if (due !== null) {
        if (due.actionsSince >= 1) {
          flag(
            a,
            `pressure at line ${due.line} was at or above compress (${thresholds.compress}), and this major action came with no fresh summary since`,
          );
          summaryDue = null;
        } else due.actionsSince += 1;
      }
      readingSinceAction = false;
    }

    if (a.kind === 'tool' && site?.checkpoint !== true) {
      const how = a.tags?.includes('state_change')
        ? 'a tool result tagged state_change'
        : site !== undefined
          ? site.change
          : a.tool !== undefined
            ? stateChangeOfCall({ id: '', name: a.tool, arguments: '' })
            : null;
      if (how !== null) pending ??= { artifact: a, index, how };
    }
  }

  const left: Pending | null = pending;
  if (left !== null) {
    flag(left.artifact, `${left.how} changed state, and the session ended with no checkpoint after it`);
  }
  return out.sort((x, y) => x.line - y.line);
}
