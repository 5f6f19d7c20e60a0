// A name or id from an input file or the command line, as a message may show it: whatever a
// default detector finds is masked. Messages reach logs, annotations and PR comments, where PII
// must never go, and their text is made before any policy is known, so the fixed default set
// decides.
import { maskText } from './mask.js';
import { defaultDetectors } from './registry.js';

const DETECTORS = defaultDetectors();
const OPTIONS = { replacement: '[REDACTED_{TYPE}]', allow: [] as string[] };

export function maskedForMessage(text: string): string {
  return maskText(text, DETECTORS, OPTIONS).text;
}
