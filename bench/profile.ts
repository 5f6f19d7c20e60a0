// Hot spots of a V8 CPU profile (`node --cpu-prof`): self time per function, total (inclusive)
// time per function, and self time per source file, each as a share of the sampled time.
import { readFile } from 'node:fs/promises';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  /** Repository-relative file and 1-based line, or a package / V8 category. */
  where: string;
  pct: number;
  ms: number;
}

export interface ProfileSummary {
  totalMs: number;
  self: HotSpot[];
  total: HotSpot[];
  files: HotSpot[];
}

/** `file:///repo/src/core/x.ts` → `src/core/x.ts`; packages collapse to their name. */
export function shortUrl(url: string, root: string): string {
  if (url === '') return '(native)';
  const plain = url.replace(/^file:\/\//, '').replace(/\?.*$/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(plain);
  if (pkg) return `node_modules/${pkg[1]}`;
  if (plain.startsWith(`${root}/`)) return plain.slice(root.length + 1);
  return plain;
}

function keyOf(f: CallFrame, root: string): { key: string; name: string; where: string } {
  const file = shortUrl(f.url, root);
  // Regex frames are named by their whole pattern: keep the start.
  const full = f.functionName || '(anonymous)';
  const name = full.length > 60 ? `${full.slice(0, 57)}...` : full;
  // V8 categories such as (garbage collector) and (program) have no file.
  const where = f.url === '' ? '' : file.startsWith('node_modules/') ? file : `${file}:${f.lineNumber + 1}`;
  return { key: `${name}\u0000${where}`, name, where };
}

function top(
  map: Map<string, { name: string; where: string; us: number }>,
  totalUs: number,
  n: number,
): HotSpot[] {
  return [...map.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, n)
    .map((h) => ({ name: h.name, where: h.where, ms: h.us / 1000, pct: (h.us / totalUs) * 100 }));
}

export function summarizeProfile(profile: CpuProfile, root: string, n = 15): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const self = new Map<string, { name: string; where: string; us: number }>();
  const total = new Map<string, { name: string; where: string; us: number }>();
  const files = new Map<string, { name: string; where: string; us: number }>();
  let totalUs = 0;
  // Samples taken while the inspector itself works (stopping the profiler) are not the workload's.
  const inProfiler = (leaf: number): boolean => {
    for (let cur: number | undefined = leaf; cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur)?.callFrame.url.startsWith('node:inspector')) return true;
    }
    return false;
  };
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || us <= 0 || inProfiler(id)) return;
    totalUs += us;
    const k = keyOf(node.callFrame, root);
    const s = self.get(k.key) ?? { name: k.name, where: k.where, us: 0 };
    s.us += us;
    self.set(k.key, s);
    const file = node.callFrame.url === '' ? node.callFrame.functionName : shortUrl(node.callFrame.url, root);
    const fe = files.get(file) ?? { name: file, where: '', us: 0 };
    fe.us += us;
    files.set(file, fe);
    // Inclusive time: each function once per sampled stack, however deep its recursion.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur);
      if (!frame) break;
      const fk = keyOf(frame.callFrame, root);
      // The harness (bench/) and the root frame are 100% by construction.
      if (seen.has(fk.key) || fk.where.startsWith('bench/') || fk.name === '(root)') continue;
      seen.add(fk.key);
      const t = total.get(fk.key) ?? { name: fk.name, where: fk.where, us: 0 };
      t.us += us;
      total.set(fk.key, t);
    }
  });
  return {
    totalMs: totalUs / 1000,
    self: top(self, totalUs, n),
    total: top(total, totalUs, n),
    files: top(files, totalUs, n),
  };
}

export async function readProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
}

export function hotSpotTable(title: string, spots: readonly HotSpot[]): string {
  const rows = spots.map(
    (h) =>
      `| ${h.pct.toFixed(1)}% | ${h.ms.toFixed(0)} | \`${h.name}\` | ${h.where ? `\`${h.where}\`` : ''} |`,
  );
  return [`**${title}**`, '', '| % | ms | function | where |', '|---:|---:|---|---|', ...rows].join('\n');
}
