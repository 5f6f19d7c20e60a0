// Verbose tool outputs of a coding agent: source listings, test runs, logs, stack traces, file
// listings and JSON API responses. Sizes are given in tokens (1 token ≈ 4 characters).

import type { Rng } from '../rng.js';
import {
  ADJECTIVES,
  DIRS,
  ERRORS,
  EXTS,
  IDENTS,
  LOG_LEVELS,
  MODULES,
  MONTHS,
  NOUNS,
  TYPES,
  VERBS,
} from './vocab.js';

export const CHARS_PER_TOKEN = 4;

/** A verbose-output size: log-uniform between 200 and 5,000 tokens, so most outputs are mid-sized. */
export function verboseTokens(rng: Rng): number {
  return Math.round(200 * Math.pow(25, rng.next()));
}

function fillLines(targetChars: number, line: (i: number) => string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < targetChars; i++) {
    const l = line(i);
    lines.push(l);
    size += l.length + 1;
  }
  return lines.join('\n');
}

export function filePath(rng: Rng): string {
  return `${rng.pick(DIRS)}/${rng.pick(MODULES)}${rng.chance(0.3) ? `-${rng.pick(NOUNS)}` : ''}.${rng.pick(EXTS)}`;
}

export function testPath(rng: Rng): string {
  return `test/${rng.pick(MODULES)}/${rng.pick(VERBS)}.test.ts`;
}

function clock(rng: Rng): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(rng.int(8, 19))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}.${pad(rng.int(0, 999), 3)}`;
}

export function codeLine(rng: Rng): string {
  const a = rng.pick(IDENTS);
  const b = rng.pick(IDENTS);
  switch (rng.int(0, 7)) {
    case 0:
      return `  const ${a} = ${rng.pick(VERBS)}${cap(rng.pick(NOUNS))}(${b}, { ${rng.pick(IDENTS)}: ${rng.int(0, 64)} });`;
    case 1:
      return `  if (${a}.length > ${b}.${rng.pick(IDENTS)}) return ${rng.pick(['null', 'undefined', a, '[]'])};`;
    case 2:
      return `export function ${rng.pick(VERBS)}${cap(rng.pick(NOUNS))}(${a}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`;
    case 3:
      return `  for (const ${a} of ${b}) ${rng.pick(IDENTS)}.push(${a});`;
    case 4:
      return `  // ${rng.pick(VERBS)} the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} before the ${rng.pick(NOUNS)} is ${rng.pick(['flushed', 'emitted', 'cached'])}`;
    case 5:
      return `import { ${rng.pick(VERBS)}${cap(rng.pick(NOUNS))} } from './${rng.pick(MODULES)}.js';`;
    case 6:
      return '}';
    default:
      return `  ${a}.${rng.pick(IDENTS)} = ${b}?.${rng.pick(IDENTS)} ?? ${rng.int(0, 1000)};`;
  }
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `read` output in the numbered-line style agents get back (`    12→code`). */
export function sourceListing(rng: Rng, tokens: number): string {
  return fillLines(tokens * CHARS_PER_TOKEN, (i) => `${String(i + 1).padStart(6)}→${codeLine(rng)}`);
}

export function stackTrace(rng: Rng, errorName: string, message: string, depth: number): string {
  const frames = [`${errorName}: ${message}`];
  for (let i = 0; i < depth; i++) {
    const fn = `${rng.pick(VERBS)}${cap(rng.pick(NOUNS))}`;
    frames.push(`    at ${fn} (/workspace/${filePath(rng)}:${rng.int(1, 400)}:${rng.int(1, 80)})`);
  }
  frames.push('    at processTicksAndRejections (node:internal/process/task_queues:95:5)');
  return frames.join('\n');
}

export interface TestFailure {
  testFile: string;
  testName: string;
  /** The first error line: the same across retries of one run, as in real repeated failures. */
  errorLine: string;
}

export function testFailure(rng: Rng, testFile: string): TestFailure {
  const expected = rng.int(0, 99);
  const errorLine = rng.chance(0.6)
    ? `AssertionError: expected ${expected + rng.int(1, 5)} to be ${expected} // Object.is equality`
    : `${rng.pick(ERRORS)}: Cannot read properties of undefined (reading '${rng.pick(IDENTS)}')`;
  return {
    testFile,
    testName: `${rng.pick(VERBS)}s the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`,
    errorLine,
  };
}

function testHeader(testFile: string): string[] {
  return [`> vitest run ${testFile}`, '', ` RUN  v4.1.0 /workspace`, ''];
}

/** A failing test run: progress lines, the assertion diff, a stack trace and the summary. */
export function failingTestRun(rng: Rng, failure: TestFailure, tokens: number): string {
  const [errorName, ...rest] = failure.errorLine.split(': ');
  const detail = rest.join(': ');
  const head = testHeader(failure.testFile);
  const passing = fillLines(Math.max(0, tokens * CHARS_PER_TOKEN - 1400), () => {
    return ` ✓ ${failure.testFile} > ${rng.pick(VERBS)}s ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.int(1, 40)}ms`;
  });
  const body = [
    ` ❯ ${failure.testFile} (${rng.int(4, 40)} tests | 1 failed) ${rng.int(20, 900)}ms`,
    `   × ${failure.testName}`,
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ` FAIL  ${failure.testFile} > ${failure.testName}`,
    stackTrace(rng, errorName ?? 'Error', detail, rng.int(4, 10)),
    '',
    `- Expected`,
    `+ Received`,
    '',
    ` Test Files  1 failed (1)`,
    `      Tests  1 failed | ${rng.int(3, 39)} passed`,
    `   Duration  ${rng.int(1, 9)}.${rng.int(10, 99)}s`,
  ];
  return [...head, passing, ...body].join('\n');
}

export function passingTestRun(rng: Rng, testFile: string, tokens: number): string {
  const head = testHeader(testFile);
  const lines = fillLines(Math.max(0, tokens * CHARS_PER_TOKEN - 300), () => {
    return ` ✓ ${testFile} > ${rng.pick(VERBS)}s ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.int(1, 40)}ms`;
  });
  const count = rng.int(5, 60);
  return [
    ...head,
    lines,
    '',
    ` Test Files  1 passed (1)`,
    `      Tests  ${count} passed (${count})`,
    `   Duration  ${rng.int(1, 9)}.${rng.int(10, 99)}s`,
  ].join('\n');
}

export function buildLog(rng: Rng, tokens: number): string {
  return fillLines(tokens * CHARS_PER_TOKEN, () => {
    const level = rng.pick(LOG_LEVELS);
    const msg =
      level === 'error' || level === 'warn'
        ? `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} in ${filePath(rng)}: ${rng.pick(VERBS)} skipped`
        : `${rng.pick(VERBS)}d ${filePath(rng)} in ${rng.int(1, 900)}ms`;
    return `[${clock(rng)}] ${level.padEnd(5)} ${rng.pick(MODULES)}: ${msg}`;
  });
}

export function fileListing(rng: Rng, tokens: number): string {
  const header = `total ${rng.int(8, 4000)}`;
  return `${header}\n${fillLines(tokens * CHARS_PER_TOKEN, () => {
    const isDir = rng.chance(0.2);
    const name = isDir ? rng.pick(MODULES) : `${rng.pick(MODULES)}-${rng.pick(NOUNS)}.${rng.pick(EXTS)}`;
    const mode = isDir ? 'drwxr-xr-x' : '-rw-r--r--';
    const size = String(rng.int(64, 99999)).padStart(6);
    const when = `${rng.pick(MONTHS)} ${String(rng.int(1, 28)).padStart(2)} ${clock(rng).slice(0, 5)}`;
    return `${mode}  1 dev  staff ${size} ${when} ${name}`;
  })}`;
}

/** A JSON API response: an envelope with a page of records carrying many fields. */
export function jsonApiResponse(rng: Rng, tokens: number): string {
  const target = tokens * CHARS_PER_TOKEN;
  const data: Record<string, unknown>[] = [];
  let size = 0;
  while (size < target) {
    const record = {
      id: `${rng.pick(NOUNS).slice(0, 3)}_${rng.base62(14)}`,
      object: rng.pick(NOUNS),
      status: rng.pick(['active', 'pending', 'archived', 'failed', 'succeeded']),
      created: `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}T${clock(rng).slice(0, 8)}Z`,
      amount: rng.int(100, 99999) / 100,
      currency: rng.pick(['usd', 'eur', 'gbp']),
      attempts: rng.int(0, 5),
      region: rng.pick(['us-east', 'eu-west', 'ap-south']),
      labels: rng.sample(ADJECTIVES, rng.int(0, 3)),
      metrics: { p50_ms: rng.int(1, 90), p99_ms: rng.int(90, 900), errors: rng.int(0, 12) },
      owner: { team: rng.pick(MODULES), handle: `${rng.pick(IDENTS)}-${rng.pick(NOUNS)}` },
      description: `${cap(rng.pick(VERBS))} the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} for the ${rng.pick(NOUNS)}.`,
    };
    size += JSON.stringify(record, null, 2).length;
    data.push(record);
  }
  return JSON.stringify(
    { object: 'list', has_more: rng.chance(0.5), page: rng.int(1, 9), count: data.length, data },
    null,
    2,
  );
}

export function grepOutput(rng: Rng, tokens: number): string {
  const needle = rng.pick(IDENTS);
  return fillLines(tokens * CHARS_PER_TOKEN, () => {
    return `${filePath(rng)}:${rng.int(1, 400)}:  ${codeLine(rng)
      .trim()
      .replace(/\b\w+\b/, needle)}`;
  });
}

/** Any verbose output type except test runs (those are driven by the retry loop). */
export function verboseOutput(rng: Rng): { command: string; output: string; exitCode: number } {
  const tokens = verboseTokens(rng);
  switch (rng.int(0, 4)) {
    case 0:
      return {
        command: `npm run build -- --${rng.pick(['verbose', 'watch=false'])}`,
        output: buildLog(rng, tokens),
        exitCode: 0,
      };
    case 1:
      return { command: `ls -la ${rng.pick(DIRS)}`, output: fileListing(rng, tokens), exitCode: 0 };
    case 2: {
      const path = `/v1/${rng.pick(NOUNS)}s?limit=${rng.int(10, 100)}`;
      return { command: `curl -s localhost:8080${path}`, output: jsonApiResponse(rng, tokens), exitCode: 0 };
    }
    case 3:
      return { command: `grep -rn ${rng.pick(IDENTS)} src`, output: grepOutput(rng, tokens), exitCode: 0 };
    default:
      return {
        command: `node scripts/${rng.pick(VERBS)}-${rng.pick(NOUNS)}.js`,
        output: `${buildLog(rng, Math.max(50, tokens - 150))}\n${stackTrace(rng, rng.pick(ERRORS), `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`, rng.int(5, 14))}`,
        exitCode: 1,
      };
  }
}
