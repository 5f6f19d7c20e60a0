// The caps on one transcript, shared by every command that reads transcripts: its size in bytes
// and its number of records. Both are checked before the work that would grow with them.
import { DEFAULT_MAX_RECORDS } from '../core/text/jsonl.js';
import { DEFAULT_MAX_FILE_BYTES } from '../io/read-input.js';
import { UsageError, parseByteSize, recordCount } from './args.js';

export const LIMIT_OPTIONS = {
  'max-file-size': { type: 'string' },
  'max-records': { type: 'string' },
} as const;

const MIB = 1024 * 1024;

/** Help lines for LIMIT_OPTIONS, aligned with the other commands' help. */
export const LIMIT_HELP = `  --max-file-size BYTES   refuse larger transcripts (e.g. 52428800 or 50M; default ${DEFAULT_MAX_FILE_BYTES / MIB}M)
  --max-records N         refuse transcripts with more records: JSONL lines, or elements of
                          one JSON array or members of one object (default ${DEFAULT_MAX_RECORDS})`;

/** What loadTranscript takes; a cap left out keeps its default. */
export interface InputLimits {
  maxFileBytes?: number;
  maxRecords?: number;
}

/** Parses the two options; a bad value is a UsageError (exit 2). */
export function parseLimits(values: {
  'max-file-size'?: string | undefined;
  'max-records'?: string | undefined;
}): InputLimits {
  const size = values['max-file-size'];
  const records = values['max-records'];
  return {
    ...(size !== undefined ? { maxFileBytes: parseByteSize('--max-file-size', size) } : {}),
    ...(records !== undefined ? { maxRecords: parseRecordCount('--max-records', records) } : {}),
  };
}

function parseRecordCount(option: string, value: string): number {
  const n = recordCount(value);
  if (n === undefined)
    throw new UsageError(`Option ${option} needs a whole number of at least 1, e.g. 100000 or 100k.`);
  return n;
}
