// The tool named in machine reports: `merge` refuses to combine reports of different versions.
import { createRequire } from 'node:module';
import { PROGRAM } from '../args.js';

export function toolInfo(): { name: string; version: string } {
  // Three levels below the package root both in src/cli/check and in build/cli/check.
  const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string };
  return { name: PROGRAM, version: pkg.version };
}
