// Writes schema/context-policy.schema.json from the zod policy schema (`npm run schema`); with
// --check, exits 1 when the committed file is stale. test/core/policy/json-schema.test.ts runs the
// same comparison in CI. The text is formatted by prettier with the repository's settings, so
// `prettier --check .` and the generator always agree.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { POLICY_JSON_SCHEMA_FILE, policyJsonSchemaText } from '../src/core/policy/json-schema.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_PATH = path.join(ROOT, POLICY_JSON_SCHEMA_FILE);

/** The schema file as it should be committed: generated, then formatted like every JSON file here. */
export async function renderPolicySchema(): Promise<string> {
  const options = (await resolveConfig(SCHEMA_PATH)) ?? {};
  return format(policyJsonSchemaText(), { ...options, filepath: SCHEMA_PATH });
}

async function main(check: boolean): Promise<number> {
  const text = await renderPolicySchema();
  const committed = await readFile(SCHEMA_PATH, 'utf8').catch(() => undefined);
  if (committed === text) {
    process.stdout.write(`${POLICY_JSON_SCHEMA_FILE} is up to date\n`);
    return 0;
  }
  if (check) {
    process.stderr.write(`${POLICY_JSON_SCHEMA_FILE} is stale: run npm run schema\n`);
    return 1;
  }
  await writeFile(SCHEMA_PATH, text);
  process.stdout.write(`wrote ${POLICY_JSON_SCHEMA_FILE}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.includes('--check'));
}
