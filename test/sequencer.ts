// The order test files start in. vitest starts the files that took longest last time first, from
// a cache under node_modules/.vite; a fresh clone (CI) has no cache and falls back to the largest
// files first, which left the npm-install, browser and property files for the end: one worker busy
// for half a minute while the other idled. Without a cache, the folders whose files run longest
// start first here (each in vitest's own order), then the rest.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FIRST = ['test/e2e/', 'test/property/', 'test/runtime/', 'test/action/', 'test/cli/'];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const cached = sorted.every((spec) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`),
    );
    if (cached) return sorted;
    const rank = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const index = SLOW_FIRST.findIndex((folder) => file.startsWith(folder));
      return index < 0 ? SLOW_FIRST.length : index;
    };
    // Array.prototype.sort is stable: within a project and a rank, vitest's order stays.
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => {
        if (a.spec.project.name !== b.spec.project.name) return a.order - b.order;
        return rank(a.spec) - rank(b.spec) || a.order - b.order;
      })
      .map(({ spec }) => spec);
  }
}
