// The three state signals of the runtime contract, spelled exactly as hosts match them.

export const STATUS_MISSING_STATE = 'STATUS:MISSING_STATE';
export const STATUS_HALT_CONTEXT_LIMIT = 'STATUS:HALT_CONTEXT_LIMIT';
export const STATUS_COMPLETE = 'STATUS:COMPLETE';
/** Not a contract signal: the CLI's last line when none of the three applies. */
export const STATUS_OK = 'STATUS:OK';

export type GuardianSignal =
  typeof STATUS_MISSING_STATE | typeof STATUS_HALT_CONTEXT_LIMIT | typeof STATUS_COMPLETE;
