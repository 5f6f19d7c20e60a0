// Repair before escalating (DESIGN §4 stage 9, issue 27): a request that would start with an
// assistant turn where the API requires a user turn first (Anthropic Messages; Chat Completions and
// Responses take an assistant turn first) gets a placeholder user turn before it, with the text of
// the policy's `repair.leading_user_text`. The verdict and the `provider` check verify the repaired
// request, so only a context no repair can make valid escalates.
import { DEFAULT_POLICY } from '../policy/default.js';
import type { Policy } from '../policy/schema.js';
import type { StabilizeEvent } from '../stabilize/types.js';
import type { EmitApi } from './parts.js';

/** What an emitter needs from the policy (emitContext, the verdict, the notes). */
export interface EmitOptions {
  /** The placeholder user turn's text; default: the policy default of `repair.leading_user_text`. */
  leadingUserText?: string;
}

export const DEFAULT_LEADING_USER_TEXT: string = DEFAULT_POLICY.repair.leading_user_text;

/**
 * The emit options a policy sets. `mask` (the stabilizer's masker): the placeholder text is the
 * policy's, not user data, but it goes out through the same masking as every text of the request.
 */
export function emitOptionsOf(policy: Policy, mask: (text: string) => string = (t) => t): EmitOptions {
  return { leadingUserText: mask(policy.repair.leading_user_text) };
}

export function leadingUserText(opts: EmitOptions = {}): string {
  return opts.leadingUserText ?? DEFAULT_LEADING_USER_TEXT;
}

/** The APIs whose requests must open with a user turn, by the name the notes and events give them. */
export const USER_FIRST_APIS: Readonly<Partial<Record<EmitApi, string>>> = {
  anthropic: 'the Anthropic Messages API',
};

/** The emit note on the item the placeholder user turn was put before (PartLog adds the API). */
export function repairedNote(api: EmitApi): string {
  return `repaired: a placeholder user turn was put before it (repair.leading_user_text) because ${USER_FIRST_APIS[api] ?? api} requires a user turn first`;
}

/** The `repaired` event: which request was repaired and before which item; no content. */
export function repairedEvent(api: EmitApi, before: string): StabilizeEvent {
  return {
    level: 'major',
    code: 'repaired',
    message: `the ${api} request starts with an assistant turn: a placeholder user turn (repair.leading_user_text) was put before it, because ${USER_FIRST_APIS[api] ?? api} requires a user turn first`,
    id: before,
  };
}
