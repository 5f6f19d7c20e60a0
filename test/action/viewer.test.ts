// The action writes the HTML viewer page in check and update mode and names it in the
// `html-path` output (for actions/upload-artifact); merge has no goldens, so no page and an empty
// output; `html-path` given to merge is refused before anything runs. The page holds the masked
// context only. The check that writes the page is the built bundle as a process; the other runs
// take the same steps in this process (runInProcess).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist, makeWorkspace, removeTempDirs, runDist, runInProcess } from './support.js';

beforeAll(() => ensureDist());
afterAll(removeTempDirs);

const CANARY_EMAIL = 'viewer.canary.7731@example.org';

describe('action: the HTML viewer page', () => {
  it('check writes the page at html-path and names it in the output; no raw PII on it', async () => {
    const workspace = await makeWorkspace();
    await writeFile(
      path.join(workspace, 'transcripts/pii.jsonl'),
      [
        JSON.stringify({ id: 's', kind: 'system', content: 'You are a support agent.' }),
        JSON.stringify({ id: 't', kind: 'task', content: 'Answer the customer.' }),
        JSON.stringify({ id: 'u1', kind: 'user', content: `Mail me at ${CANARY_EMAIL} please.` }),
      ].join('\n') + '\n',
    );
    const update = await runInProcess({
      workspace,
      inputs: { mode: 'update', transcripts: 'transcripts', policy: 'policy.yml' },
    });
    expect(update.code).toBe(0);
    expect(update.outputs['html-path']).toMatch(/context-stability-report\.html$/);

    const run = await runDist({
      workspace,
      inputs: { transcripts: 'transcripts', policy: 'policy-tight.yml', 'html-path': 'site/viewer.html' },
    });
    expect(run.code).toBe(1);
    const page = path.join(workspace, 'site/viewer.html');
    expect(run.outputs['html-path']).toBe(page);
    const html = await readFile(page, 'utf8');
    expect(html.match(/<section class="transcript/g)).toHaveLength(4);
    expect(html).toContain('transcripts/pii.jsonl');
    expect(html).toMatch(/class="pii pii-EMAIL"/);
    expect(html).not.toContain(CANARY_EMAIL);
    expect(html).not.toContain('viewer.canary');
  });

  it('merge writes no page: the output is empty', async () => {
    const workspace = await makeWorkspace();
    const shard = async (i: number): Promise<void> => {
      const run = await runInProcess({
        workspace,
        inputs: {
          transcripts: 'transcripts',
          policy: 'policy.yml',
          shard: `${i}/2`,
          'report-path': `reports/shard-${i}.json`,
          'html-path': `site/shard-${i}.html`,
        },
      });
      expect(existsSync(path.join(workspace, `site/shard-${i}.html`))).toBe(true);
      expect(run.outputs['html-path']).toBe(path.join(workspace, `site/shard-${i}.html`));
    };
    await shard(1);
    await shard(2);
    const merged = await runInProcess({ workspace, inputs: { mode: 'merge', reports: 'reports' } });
    expect(merged.outputs['html-path']).toBe('');
    const refused = await runInProcess({
      workspace,
      inputs: { mode: 'merge', reports: 'reports', 'html-path': 'site/merged.html' },
    });
    expect(refused.code).toBe(1);
    expect(refused.log.annotations.map((a) => a.message).join('\n')).toContain(
      'Input html-path applies to mode check or update only',
    );
  });
});
