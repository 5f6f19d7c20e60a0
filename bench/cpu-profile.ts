// Profiles one workload in-process through the inspector, so the profile holds the workload alone
// (no startup, no module compilation), and maps every position back to the TypeScript source:
// tsx serves each module as one generated line, which would make every frame `file.ts:1`.
import { findSourceMap } from 'node:module';
import { Session } from 'node:inspector/promises';

interface Frame {
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface Profile {
  nodes: { callFrame: Frame }[];
}

/** Rewrites generated positions to original ones where the module has a source map. */
function mapPositions(profile: Profile): void {
  for (const { callFrame: f } of profile.nodes) {
    if (!f.url.startsWith('file:') || f.lineNumber < 0) continue;
    const entry = findSourceMap(f.url)?.findEntry(f.lineNumber, f.columnNumber);
    if (entry && 'originalLine' in entry) {
      f.lineNumber = entry.originalLine;
      f.columnNumber = entry.originalColumn;
    }
  }
}

/** Runs `workload` under the V8 sampling profiler; returns the profile (Chrome DevTools format). */
export async function profileWorkload(workload: () => unknown, intervalUs = 200): Promise<unknown> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
    await workload();
    const { profile } = await session.post('Profiler.stop');
    mapPositions(profile as unknown as Profile);
    return profile;
  } finally {
    session.disconnect();
  }
}
