// Where a transcript's golden lives (DESIGN §6): `<goldenDir>/<transcript>.golden.json`. The
// transcript path comes from the file system and from globs, so it is checked to never point
// outside the golden folder and to be creatable on every platform a repo is checked out on
// (goldens are committed: a name Windows or a case-insensitive file system cannot hold breaks
// someone else's checkout).

export const GOLDEN_SUFFIX = '.golden.json';

/** Bytes most file systems allow in one name (ext4, APFS, NTFS in UTF-16 units: close enough). */
const MAX_SEGMENT_BYTES = 255;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\..*)?$/i;

export type GoldenPathResult = { ok: true; path: string } | { ok: false; reason: string };

/**
 * `${goldenDir}/${transcriptRel}.golden.json`, '/'-separated. `transcriptRel` must be relative
 * and '/'-separated; it is rejected (with a reason that names the segment by position, never
 * quoting it) when it is absolute, has '..', '.' or empty segments, a backslash, NUL or control
 * characters, a Windows reserved name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension,
 * any case), a name ending in '.' or ' ', or a name too long for a file system.
 */
export function goldenPathFor(transcriptRel: string, goldenDir: string): GoldenPathResult {
  const problem = transcriptPathProblem(transcriptRel);
  if (problem) return { ok: false, reason: problem };
  // Belt and braces: after the checks above nothing can climb out, but the guarantee is cheap.
  if (!staysInside(transcriptRel)) return { ok: false, reason: 'the path would resolve outside the golden folder' };
  const dir = goldenDir.replace(/(.)\/+$/, '$1');
  const file = `${transcriptRel}${GOLDEN_SUFFIX}`;
  if (dir === '') return { ok: true, path: file };
  return { ok: true, path: dir.endsWith('/') ? `${dir}${file}` : `${dir}/${file}` };
}

function transcriptPathProblem(rel: string): string | null {
  if (rel === '') return 'the transcript path is empty';
  if (/[\u0000-\u001f\u007f]/.test(rel)) return 'the path contains NUL or a control character';
  if (rel.includes('\\')) return "the path contains a backslash; use '/' as the separator";
  if (rel.startsWith('/')) return 'the path is absolute; give it relative to the repository root';
  if (/^[A-Za-z]:/.test(rel)) return 'the path starts with a drive letter; give it relative to the repository root';
  const segments = rel.split('/');
  for (const [i, segment] of segments.entries()) {
    const which = `segment ${i + 1} of ${segments.length}`;
    if (segment === '') return `${which} is empty (a doubled or trailing '/')`;
    if (segment === '..') return `${which} is '..', which climbs out of the folder`;
    if (segment === '.') return `${which} is '.'; give the path without it`;
    if (/[. ]$/.test(segment)) return `${which} ends in '.' or a space, which Windows cannot hold`;
    if (WINDOWS_RESERVED.test(segment)) return `${which} is a Windows reserved name (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`;
    const suffix = i === segments.length - 1 ? GOLDEN_SUFFIX : '';
    if (utf8Length(segment + suffix) > MAX_SEGMENT_BYTES) {
      return `${which} is longer than a file name may be (${MAX_SEGMENT_BYTES} bytes with the golden suffix)`;
    }
  }
  return null;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Lexically walks the relative part: it must never climb above the golden folder. */
function staysInside(rel: string): boolean {
  let depth = 0;
  for (const segment of rel.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return false;
  }
  return depth > 0;
}

/**
 * Groups of paths that differ only in case (or in Unicode normalization), which a
 * case-insensitive file system (macOS, Windows) would store as one file. Each group is sorted,
 * groups are sorted by their first path; a path listed twice is not a collision.
 */
export function findCaseCollisions(paths: readonly string[]): string[][] {
  const groups = new Map<string, Set<string>>();
  for (const path of paths) {
    const key = path.normalize('NFC').toLowerCase();
    const group = groups.get(key) ?? new Set<string>();
    group.add(path);
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((group) => group.size > 1)
    .map((group) => [...group].sort())
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}
