#!/usr/bin/env node
// Prints the release notes of one version: the body of its section in CHANGELOG.md, the format of
// Keep a Changelog (`## [1.2.3] - 2026-01-31`; `## 1.2.3` and `## v1.2.3` work too). The release
// workflow (.github/workflows/release.yml) passes its output to `gh release create --notes-file`.
//
//   node scripts/release-notes.mjs 1.2.3 [--changelog CHANGELOG.md]
//   node scripts/release-notes.mjs v1.2.3            (a leading v is ignored: the tag works as is)
//
// Exit 0 with the section on stdout; 1 when the version has no section or the section is empty (a
// release without notes is a mistake the workflow stops at); 2 on a usage error.
// Headings inside fenced code blocks do not count, and the link reference definitions Keep a
// Changelog puts at the end of the file (`[1.2.3]: https://…`) are not part of the last section.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: node scripts/release-notes.mjs VERSION [--changelog FILE]';

/** `v1.2.3` → `1.2.3`; anything that is not a semantic version → undefined. */
export function normalizeVersion(raw) {
  const version = String(raw).trim().replace(/^v/, '');
  return /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version) ? version : undefined;
}

/** The version a `## …` heading names, or undefined (e.g. `## [Unreleased]`). */
function headingVersion(line) {
  const match = /^##[ \t]+\[?v?([^\]\s]+)\]?(?:[ \t].*)?$/.exec(line);
  return match ? normalizeVersion(match[1]) : undefined;
}

/** The body of `version`'s section, trimmed; undefined when there is no such section. */
export function releaseNotes(changelog, rawVersion) {
  const version = normalizeVersion(rawVersion);
  if (version === undefined) return undefined;
  const lines = changelog.replace(/\r\n?/g, '\n').split('\n');
  let fence = null;
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1];
      else if (marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null || !/^#{1,2}[ \t]/.test(line)) continue;
    if (start >= 0) {
      end = i;
      break;
    }
    if (line.startsWith('## ') && headingVersion(line) === version) start = i + 1;
  }
  if (start < 0) return undefined;
  const body = lines.slice(start, end);
  // Trailing link reference definitions belong to the whole file, not to this section.
  const trailing = /^\s*(?:\[(?:unreleased|v?\d+\.\d+\.\d+[^\]]*)\]:\s*\S.*)?$/i;
  while (body.length > 0 && trailing.test(body[body.length - 1] ?? '')) body.pop();
  return body.join('\n').replace(/^\n+/, '');
}

function main(argv) {
  let version;
  let file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'CHANGELOG.md');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--changelog') {
      const next = argv[++i];
      if (next === undefined) return usage('--changelog needs a file');
      file = path.resolve(next);
    } else if (arg === '-h' || arg === '--help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else if (arg.startsWith('-')) {
      return usage(`unknown option ${arg}`);
    } else if (version === undefined) {
      version = arg;
    } else {
      return usage(`unexpected argument ${arg}`);
    }
  }
  if (version === undefined) return usage('missing VERSION');
  if (normalizeVersion(version) === undefined) return usage(`not a version: ${version}`);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    process.stderr.write(`release-notes: cannot read ${file}: ${error.message}\n`);
    return 1;
  }
  const notes = releaseNotes(text, version);
  if (notes === undefined) {
    process.stderr.write(
      `release-notes: ${path.basename(file)} has no section for ${normalizeVersion(version)} ` +
        `(add "## [${normalizeVersion(version)}] - YYYY-MM-DD").\n`,
    );
    return 1;
  }
  if (notes.trim() === '') {
    process.stderr.write(`release-notes: the section for ${normalizeVersion(version)} is empty.\n`);
    return 1;
  }
  process.stdout.write(`${notes}\n`);
  return 0;
}

function usage(message) {
  process.stderr.write(`release-notes: ${message}\n${USAGE}\n`);
  return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
