// End-to-end: the CLI's help, usage errors, inspect and policy commands. The scenarios run
// in-process (`cli`: runInProcess, `main` with an in-memory IO); one test per command and output
// format runs the built CLI (`bin/context-stability.js` → build/) as a child process (`spawned`):
// 'lists the commands for --help and help', 'prints the version', inspect's text output in 'exits 2
// for a bad file…', inspect --json over the corpus (the run over every recording), and policy
// print-default (YAML and --json) with validate in 'print-default prints a policy…'. `npm test`
// builds first; when running vitest alone, run `npm run build` before.
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import {
  CORPUS,
  HAS_CORPUS,
  awaitingEntry,
  corpusFiles,
  unclassifiedMessage,
  transcriptNames,
} from '../support/corpus.js';
import { runBuilt, runInProcess, type Run } from './check-cli.js';
import { expectedFor, expectedTranscripts } from './corpus-expectations.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** One CLI run in this process. */
function cli(args: string[], cwd: string = REPO): Promise<Run> {
  return runInProcess(args, cwd);
}

/** One run of the built bin as a child process: the process-level runs of this file. */
function spawned(args: string[], cwd: string = REPO): Promise<Run> {
  return runBuilt(args, cwd);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** String values of a JSON or JSONL text that read like prose: 24+ characters with a space. */
function textValues(file: string, text: string): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.length >= 24 && /\s/.test(v.trim())) out.push(v.trim());
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(visit);
  };
  const docs = file.endsWith('.jsonl') ? text.split('\n') : [text];
  for (const doc of docs) {
    try {
      visit(JSON.parse(doc));
    } catch {
      // malformed JSONL lines hold no values to look for
    }
  }
  return out;
}

beforeAll(() => {
  const built = path.join(REPO, 'build/cli/main.js');
  if (!existsSync(built)) {
    throw new Error(
      'build/cli/main.js is missing: run `npm run build` before the e2e tests (`npm test` does).',
    );
  }
  if (newestMtime(path.join(REPO, 'src')) > statSync(built).mtimeMs) {
    console.warn('e2e: build/ is older than src/: these tests run the last build. Run `npm run build`.');
  }
});

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'cs-e2e-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('help and usage', () => {
  it('lists the commands for --help and help', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await spawned(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Commands:');
      expect(run.stdout).toMatch(/^ {2}inspect /m);
      expect(run.stderr).toBe('');
    }
  });

  it("prints every listed command's help", async () => {
    const list = (await cli(['--help'])).stdout;
    const section = list.slice(list.indexOf('Commands:'), list.indexOf('\nOptions:'));
    const names = [...section.matchAll(/^ {2}(\S+(?: [a-z][\w-]*)?) {2,}/gm)].map((m) => m[1] as string);
    expect(names).toEqual(expect.arrayContaining(['inspect', 'policy validate', 'policy print-default']));
    for (const name of names) {
      const run = await cli([...name.split(' '), '--help']);
      expect(run.code, name).toBe(0);
      expect(run.stdout, name).toContain(name);
      expect(run.stdout.length, name).toBeGreaterThan(80);
    }
  });

  it('prints the version', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const run = await spawned(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('rejects an unknown command and an unknown option with exit 2 and no stack trace', async () => {
    const unknownCommand = await cli(['inspekt', 'x.json']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("Unknown command 'inspekt'. Did you mean 'inspect'?");
    const unknownOption = await cli(['inspect', '--jsno', 'x.json']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain('Unknown option --jsno. Did you mean --json?');
    for (const run of [unknownCommand, unknownOption]) {
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
    }
  });
});

describe('inspect', () => {
  it('exits 2 for a bad file next to a good one, still printing the good one, never the content', async () => {
    await writeFile(
      path.join(tmp, 'good.jsonl'),
      '{"kind":"user","content":"CANARY-GOOD-1 alice@example.com"}\n{"kind":"assistant","content":"ok"}\n',
    );
    await writeFile(
      path.join(tmp, 'bad.json'),
      '{"messages": [\n  {"role": "user", "content": "CANARY-BAD-2 x"},\n  }\n',
    );
    const run = await spawned(['inspect', 'good.jsonl', 'bad.json'], tmp);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('good.jsonl\n  format: native · artifacts: 2');
    expect(run.stderr).toMatch(/^bad\.json:3:\d+: error\[[a-z-]+\]: .+/m);
    for (const text of [run.stdout, run.stderr]) {
      for (const canary of ['CANARY-GOOD-1', 'alice@example.com', 'CANARY-BAD-2'])
        expect(text).not.toContain(canary);
    }
  });
});

describe.skipIf(!HAS_CORPUS)('inspect --json over the recorded corpus', () => {
  // Every recording at once: those awaiting a reader (issue 13) are refused, the others still read.
  const { all, supported: files, awaitingReader, unclassified } = corpusFiles();

  interface InspectFile {
    file: string;
    format: string | null;
    artifact_count: number;
    artifacts: { id: string; sidechain?: boolean; tokens: number }[];
    pairing: { paired_results: number; unpaired_calls: unknown[] } | null;
    diagnostics: {
      severity: string;
      line: number;
      column: number;
      message: string;
    }[];
  }
  let run: Run;
  let supportedOnly: Run;
  let text: Run;
  let byFile: Map<string, InspectFile>;

  beforeAll(async () => {
    [run, supportedOnly, text] = await Promise.all([
      spawned(['inspect', '--json', ...all], CORPUS),
      cli(['inspect', '--json', ...files], CORPUS),
      cli(['inspect', ...all], CORPUS),
    ]);
    byFile = new Map((JSON.parse(run.stdout) as { files: InspectFile[] }).files.map((f) => [f.file, f]));
  });

  it('finds corpus files of every format, every recording classified', () => {
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(new Set(files.map((f) => f.split('/')[0]))).toEqual(
      new Set([
        'aider',
        'anthropic-messages',
        'claude-code',
        'codex',
        'openai-chat',
        'openhands',
        'swe-agent',
      ]),
    );
  });

  it('exits 2 exactly when some supported file has lines that are not JSON, and 2 with a refused file', () => {
    const invalid = files.some(
      (f) => expectedFor(f, readFileSync(path.join(CORPUS, f), 'utf8')).invalidLines > 0,
    );
    expect(supportedOnly.code).toBe(invalid ? 2 : 0);
    expect(JSON.parse(supportedOnly.stdout)).toEqual({
      schema_version: 1,
      files: (JSON.parse(run.stdout) as { files: InspectFile[] }).files.filter((f) =>
        files.flatMap(transcriptNames).includes(f.file),
      ),
    });
    expect(run.code).toBe(awaitingReader.length > 0 || invalid ? 2 : 0);
    expect([...byFile.keys()].sort()).toEqual(all.flatMap(transcriptNames).sort());
  });

  it.each(awaitingReader)('%s: refused with a diagnostic at file:line:column, the run goes on', (file) => {
    const { code, line, column } = awaitingEntry(file)?.diagnostic ?? {};
    const got = byFile.get(file);
    expect(got).toMatchObject({
      format: null,
      artifact_count: 0,
      artifacts: [],
      pairing: null,
    });
    expect(got?.diagnostics.map((d) => `${d.severity} ${d.line}:${d.column}`)).toEqual([
      `error ${line}:${column}`,
    ]);
    expect((got?.diagnostics[0] as { code?: string } | undefined)?.code).toBe(code);
    for (const out of [run, text])
      expect(out.stderr).toContain(`${file}:${line}:${column}: error[${code}]: `);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(`${file}\n  not loaded: `);
  });

  const transcripts = files.flatMap((file) =>
    HAS_CORPUS
      ? [...expectedTranscripts(file, readFileSync(path.join(CORPUS, file), 'utf8'))].map(
          ([name, expected]) => [name, expected] as const,
        )
      : [],
  );
  it.each(transcripts)('%s: format, artifact count and pairing match the raw file', (file, expected) => {
    const got = byFile.get(file);
    expect(got, `${file} missing from the output`).toBeDefined();
    expect({
      format: got?.format,
      artifacts: got?.artifact_count,
      listed: got?.artifacts.length,
      paired: got?.pairing?.paired_results,
      unpairedCalls: got?.pairing?.unpaired_calls.length,
      sidechain: got?.artifacts.filter((a) => a.sidechain === true).length,
      errors: got?.diagnostics.filter((d) => d.severity === 'error').length,
    }).toEqual({
      format: expected.format,
      artifacts: expected.artifacts,
      listed: expected.artifacts,
      paired: expected.pairedResults,
      unpairedCalls: expected.unpairedCalls,
      sidechain: expected.sidechain,
      errors: expected.invalidLines,
    });
    expect(got?.artifacts.every((a) => Number.isInteger(a.tokens) && a.tokens >= 3)).toBe(true);
  });

  it('prints no content of any file', () => {
    // Every longer text value of the raw files (not ids or hashes: those have no spaces), and the
    // canaries of the files no reader accepts yet.
    let checked = 0;
    for (const file of files) {
      for (const value of textValues(file, readFileSync(path.join(CORPUS, file), 'utf8'))) {
        checked++;
        for (const out of [run, text])
          expect(out.stdout.includes(value) || out.stderr.includes(value), file).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(500);
    for (const file of awaitingReader) {
      for (const canary of awaitingEntry(file)?.canaries ?? [])
        for (const out of [run, text]) expect(out.stdout + out.stderr, file).not.toContain(canary);
    }
  });
});

if (!HAS_CORPUS) console.warn(`e2e: ${CORPUS} is absent: the corpus tests are skipped.`);

describe('policy', () => {
  it('print-default prints a policy that parses back and validates', async () => {
    const printed = await spawned(['policy', 'print-default']);
    expect(printed.code).toBe(0);
    const doc = parseYaml(printed.stdout) as {
      version: number;
      tokenizer: string;
      budget: number;
    };
    expect(doc).toMatchObject({
      version: 1,
      tokenizer: 'o200k_base',
      budget: 8000,
    });
    await writeFile(path.join(tmp, 'default-policy.yml'), printed.stdout);
    const validated = await spawned(['policy', 'validate', 'default-policy.yml'], tmp);
    expect(validated.code).toBe(0);
    const json = await spawned(['policy', 'print-default', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      version: 1,
      tokenizer: 'o200k_base',
    });
  });

  it('validate exits 2 on a bad policy and points at the value', async () => {
    await writeFile(path.join(tmp, 'bad-policy.yml'), 'version: 1\nbudget: -5\n');
    const run = await cli(['policy', 'validate', 'bad-policy.yml'], tmp);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^bad-policy\.yml:2:9: error\[[a-z-]+\]: /m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
