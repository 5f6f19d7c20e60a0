// Child process of deep-text-memory.test.ts (not a test file): runs every place that looks for
// JSON (or, for a shell tool, shell words) inside a transcript's text on N MiB of `[` (a user message, `{"a":[[[…}` as tool-call
// arguments and as a tool output: issue 34, 40 MiB of `[` needed 3.95 GB) and prints, as JSON, the
// peak RSS those calls added and the input's size in bytes.
//
//   node --import tsx test/core/json/deep-text-memory.child.ts MIB [shell]
import { argumentValues } from '../../../src/core/retention/facts.js';
import { shellCommandOf as guardianCommand } from '../../../src/core/guardian/replay-rules.js';
import { findJsonPii } from '../../../src/core/pii/mask-json.js';
import { commandKeys, shellCommandOf } from '../../../src/core/stabilize/families.js';
import { normalizeCommand } from '../../../src/core/stabilize/shell-words.js';
import { maskFields } from '../../../src/core/stabilize/tool-output.js';
import type { ToolCall } from '../../../src/core/types.js';

const mib = Number(process.argv[2]);
const n = Math.floor(mib * 1024 * 1024);
// Flat one-byte strings, made before the baseline is taken.
const open = '['.repeat(n);
const inObject = `{"a":${open}}`;
open.charCodeAt(n - 1);
inObject.charCodeAt(n - 1);
const call: ToolCall = { id: 'c1', name: 'lookup', arguments: inObject };
// A shell tool's arguments that are not JSON are read as a command line, word by word.
const shell: ToolCall = { id: 'c2', name: 'bash', arguments: open };
const quoted = `echo '${open}'`;

const rss = (): number => process.resourceUsage().maxRSS * 1024;
const before = rss();
const shellOnly = process.argv[3] === 'shell';
const results = shellOnly
  ? [commandKeys(shell), normalizeCommand(quoted)]
  : [
      findJsonPii(open, [], []),
      findJsonPii(inObject, [], []),
      commandKeys(call),
      shellCommandOf(call),
      guardianCommand(call),
      argumentValues(call),
      maskFields(inObject, ['a']),
    ];
process.stdout.write(`${JSON.stringify({ bytes: n, added: rss() - before, calls: results.length })}\n`);
