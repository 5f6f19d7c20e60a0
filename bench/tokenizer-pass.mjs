// The tokenizer-only floor as a whole process (issue 16): what any tool that must know token
// counts pays for the same inputs as `check`. It expands the inputs as `check` does, reads each
// file with the project's loader (size cap, BOM, every aider session), parses it with
// `readTranscript` and counts every artifact once with the o200k tokenizer, no cache. Plain
// JavaScript over the tsc build (`npm run build`), so that, like `node bin/context-stability.js`,
// it starts without tsx's loader:
//   node bench/tokenizer-pass.mjs INPUT… [!EXCLUSION…]     (from the folder check runs in)
// Prints one JSON line: { files, transcripts, unreadable, artifacts, tokens }.
import { DEFAULT_POLICY } from '../build/core/policy/index.js';
import { countArtifactTokens } from '../build/core/tokens/count.js';
import { expandInputs } from '../build/io/expand-inputs.js';
import { loadTranscripts } from '../build/io/load-transcript.js';
import { loadTokenizer } from '../build/tokens/load.js';

const cwd = process.cwd();
const tokenizer = await loadTokenizer(DEFAULT_POLICY.tokenizer);
const { files } = await expandInputs(process.argv.slice(2), { cwd });
const tally = { files: files.length, transcripts: 0, unreadable: 0, artifacts: 0, tokens: 0 };
for (const file of files) {
  for (const { result } of await loadTranscripts(file, { cwd })) {
    tally.transcripts++;
    if (!result.ok) {
      tally.unreadable++;
      continue;
    }
    tally.artifacts += result.transcript.artifacts.length;
    for (const a of result.transcript.artifacts) {
      tally.tokens += countArtifactTokens(a, tokenizer, DEFAULT_POLICY);
    }
  }
}
process.stdout.write(`${JSON.stringify(tally)}\n`);
