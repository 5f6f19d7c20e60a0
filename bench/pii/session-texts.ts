// The texts a real `check` scans: every text an output would hold (visibleTexts) of every artifact
// of a seeded generated session corpus (the generator `npm run bench` uses). PII is as sparse as
// in real sessions, unlike the labelled set, where every sample holds some.
import { readTranscript } from '../../src/core/readers/index.js';
import { visibleTexts } from '../../src/core/pii/visible-texts.js';
import { generateCorpus } from '../../test/support/generate/index.js';

export function sessionTexts(seed: number, targetBytes: number): string[] {
  const texts: string[] = [];
  for (const entry of generateCorpus({ seed, count: 40, targetBytes })) {
    const read = readTranscript(entry.text, { file: entry.name });
    if (!read.ok) continue;
    for (const a of read.transcript.artifacts) {
      texts.push(
        ...visibleTexts({
          id: a.id,
          content: a.content,
          ...(a.tool_calls ? { tool_calls: a.tool_calls } : {}),
        }),
      );
    }
  }
  return texts;
}
