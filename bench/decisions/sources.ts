// The transcripts the decisions bench replays: every recording of a corpus folder, a seeded
// generated coding-agent session, and two small scenarios written here.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readTranscript } from '../../src/core/readers/index.js';
import type { Transcript } from '../../src/core/types.js';
import { loadTranscripts } from '../../src/io/load-transcript.js';
import { generateCorpus } from '../../test/support/generate/index.js';
import { asst, call, calls, result, sys, t, user } from '../../test/support/artifacts.js';

/** One transcript and the source row it counts in (a corpus folder, `generated`, a scenario). */
export interface Source {
  source: string;
  transcript: Transcript;
  /** Budgets of its own (a scenario made for one budget); else the run's budgets. */
  budgets?: number[];
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // Licence texts and the corpus README are not recordings; aider histories are Markdown.
    if (e.isDirectory()) out.push(...(e.name === 'licenses' ? [] : await walk(p)));
    else if (/\.(json|jsonl|traj|md)$/.test(e.name) && e.name !== 'README.md' && e.name !== 'SOURCES.json')
      out.push(p);
  }
  return out.sort();
}

export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every session of every recording under `corpus` (an aider history is one per session), in the
 * row of its top folder. `refused`: files no reader took.
 */
export async function corpusSources(corpus: string): Promise<{ sources: Source[]; refused: string[] }> {
  const sources: Source[] = [];
  const refused: string[] = [];
  for (const file of await walk(corpus)) {
    const rel = path.relative(corpus, file);
    const folder = rel.split(path.sep)[0] ?? rel;
    for (const { name, result } of await loadTranscripts(file)) {
      if (!result.ok) {
        refused.push(rel);
        continue;
      }
      const transcript = { ...result.transcript, file: path.relative(corpus, name) };
      sources.push({ source: folder, transcript });
    }
  }
  return { sources, refused };
}

/** A seeded coding-agent session of `messages` OpenAI chat messages (the bench generator's `coding` archetype). */
export function generatedSource(seed: number, messages = 1000): Source {
  const [entry] = generateCorpus({
    seed,
    count: 1,
    messages: Math.ceil(messages * 1.1) + 10,
    formats: ['openai'],
    archetypes: ['coding'],
  });
  if (!entry) throw new Error('decisions: the generator gave no session');
  const doc = JSON.parse(entry.text) as unknown[] | { messages: unknown[] };
  const all = Array.isArray(doc) ? doc : doc.messages;
  if (all.length < messages)
    throw new Error(`decisions: the generator gave ${all.length} messages, fewer than ${messages}`);
  const file = `generated-coding-seed${seed}.json`;
  const read = readTranscript(JSON.stringify(all.slice(0, messages)), { file, format: 'auto' });
  if (!read.ok) throw new Error('decisions: the generated session is unreadable');
  return { source: `generated (seed ${seed})`, transcript: read.transcript };
}

/** 200 lines of ~15 tokens each (~3,000 tokens): a Python file with function_0 … function_199. */
export function appSource(): string {
  const lines: string[] = [];
  for (let i = 0; i < 200; i++)
    lines.push(`def function_${i}(value): return compute(value, ${i * 7 + 3}, "step-${i}")  # helper ${i}`);
  return lines.join('\n');
}

/** "read": one file read in answer to a question about it; at 30,000 tokens nothing needs to go. */
export function readScenario(): Source {
  const transcript = t(
    sys('s', 'You are a coding agent. Use read_file to read files.'),
    user('u1', 'read src/app.py and tell me what function_150 does'),
    calls('a1', [call('c1', 'read_file', { path: 'src/app.py' })], 'Reading the file.'),
    result('r1', 'c1', appSource()),
    asst('a2', 'function_150 calls compute(value, 1053, "step-150").'),
  );
  return { source: 'scenario read', transcript: { ...transcript, file: 'scenario-read' }, budgets: [30_000] };
}

/** `kubectl get pods` output of `n` pods in namespace `ns`. */
export function podList(ns: string, n: number): string {
  const rows = ['NAME                                 READY   STATUS    RESTARTS   AGE'];
  for (let i = 0; i < n; i++) {
    const hash = ((i + 1) * 2654435761) >>> 0;
    const name = `${ns}-${['api', 'worker', 'cache', 'proxy'][i % 4]}-${hash.toString(16).slice(0, 9)}-${hash.toString(36).slice(-5)}`;
    rows.push(`${name.padEnd(36)} 1/1     Running   ${i % 3}          ${i + 2}d`);
  }
  return rows.join('\n');
}

/** The name of pod `i` of podList(ns, …). */
export function podName(ns: string, i: number): string {
  const line = podList(ns, i + 1).split('\n')[i + 1] as string;
  return line.split(/\s+/)[0] as string;
}

/** "kubectl": two pod listings, then a call that names a pod of the first one. */
export function kubectlScenario(): Source {
  const pod = podName('web', 17);
  const transcript = t(
    sys('s', 'You are an SRE agent with a bash tool. Run kubectl to inspect the cluster.'),
    user('u1', 'The web frontend returns 502s. Find the failing pod and show its logs.'),
    calls('a1', [call('c1', 'bash', { command: 'kubectl get pods -n web' })]),
    result('r1', 'c1', podList('web', 60)),
    calls('a2', [call('c2', 'bash', { command: 'kubectl get pods -n db' })], 'Checking the database too.'),
    result('r2', 'c2', podList('db', 60)),
    calls('a3', [call('c3', 'bash', { command: `kubectl logs ${pod} -n web --tail 50` })]),
    result('r3', 'c3', 'upstream connect error or disconnect/reset before headers'),
    asst('a4', `${pod} cannot reach its upstream.`),
  );
  return { source: 'scenario kubectl', transcript: { ...transcript, file: 'scenario-kubectl' } };
}
