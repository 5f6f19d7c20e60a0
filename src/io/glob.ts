// Glob patterns for the CLI's and the Action's transcript inputs, matched by picomatch (docs/globs.md).
// We keep our own sorted directory walk (expand-inputs.ts): `fs.promises.glob` is experimental on
// Node 20 and its order is unspecified, and a walk of our own applies the workspace rules (no
// directory links, no node_modules, hidden entries only on request). picomatch only says whether
// a '/'-separated path matches.
import picomatch from 'picomatch';

/**
 * The one set of options every pattern is compiled with. `windows: false`: paths are
 * '/'-separated on every platform and a backslash always escapes the next character.
 * `nonegate`: a leading `!` is our exclusion marker, stripped before compiling (expand-inputs.ts),
 * so whatever `!` is left is a literal character (or starts an extglob `!(…)`).
 * `posix`: `[[:alpha:]]`-style classes. `dot: false`: `*`, `?` and `**` skip hidden names unless
 * the pattern spells the leading dot (`.github/*.json`, `.*.json`).
 */
const OPTIONS: picomatch.PicomatchOptions = {
  windows: false,
  nonegate: true,
  posix: true,
  dot: false,
};

/** Characters a backslash escapes in an input that is not a pattern otherwise (`run\[1\].json`). */
const ESCAPABLE = /\\([*?[\]{}()!+@|,\\])/g;

/** Whether `pattern` holds unescaped glob syntax (`*`, `?`, `[…]`, `{…}`, extglobs). */
export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern, OPTIONS).isGlob;
}

/** `run\[1\].json` → `run[1].json`: the file name an escaped literal input stands for. */
export function unescapeGlob(text: string): string {
  return text.replace(ESCAPABLE, '$1');
}

/** An input starting with `!` is an exclusion, unless it starts an extglob `!(…)` (as in picomatch). */
export function isExclusion(input: string): boolean {
  return input.startsWith('!') && !input.startsWith('!(');
}

/**
 * Splits `a/b/*.json` into the literal directory to walk (`a/b`, unescaped: a real path) and the
 * remaining pattern segments (`['*.json']`).
 */
export function globBase(pattern: string): { base: string; rest: string[] } {
  const scan = picomatch.scan(pattern, OPTIONS);
  const base = unescapeGlob(scan.base);
  const rest = scan.glob === '' ? [] : scan.glob.split('/');
  return { base: base === '' && pattern.startsWith('/') ? '/' : base, rest };
}

/**
 * How deep below the base a walk must go: the number of segments, or Infinity when `**` appears
 * or a group `(…)` spans a `/` (it may repeat). Braces only ever pick among the segments counted.
 */
export function globDepth(rest: readonly string[]): number {
  const glob = rest.join('/');
  if (glob.includes('**') || /\([^)]*\//.test(glob)) return Infinity;
  return rest.length;
}

/**
 * Whether the walk must enter hidden entries: the pattern spells a name with a leading dot
 * somewhere (`.github/*.json`, `{.cache,out}/*.json`). picomatch still decides the match.
 */
export function globAllowsDotfiles(rest: readonly string[]): boolean {
  return /(?:^|[/{,(|])\.(?!\.?(?:\/|$))/.test(rest.join('/'));
}

/** Whether the walk may enter node_modules: only when the pattern names it. */
export function globNamesNodeModules(rest: readonly string[]): boolean {
  return rest.join('/').includes('node_modules');
}

/** Compiles a '/'-separated pattern into a predicate over '/'-separated paths. */
export function compileGlob(pattern: string): (path: string) => boolean {
  return picomatch(pattern, OPTIONS);
}

/**
 * An exclusion: matches the paths the pattern matches and everything below them (as in
 * .gitignore: `!transcripts/swe` drops the whole folder). Hidden names are matched too: an
 * exclusion errs on the side of dropping a file.
 */
export function compileExclusion(pattern: string): (path: string) => boolean {
  const below = pattern.endsWith('/**') ? pattern : `${pattern}/**`;
  return picomatch([pattern, below], { ...OPTIONS, dot: true });
}
