// A small deterministic glob matcher. `fs.promises.glob` is still experimental on Node 20, and
// its result order is unspecified; ours walks in sorted order and supports the usual subset:
// `*`, `?`, `[abc]`, `[!abc]`, `{a,b}` and `**` (any number of directories).

const GLOB_CHARS = /[*?[\]{}]/;

export function isGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/** Splits `a/b/*.json` into the literal directory to walk (`a/b`) and the remaining segments. */
export function globBase(pattern: string): { base: string; rest: string[] } {
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((s) => isGlob(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const rest = firstGlob === -1 ? [] : segments.slice(firstGlob);
  const base = literal.join('/');
  return { base: base === '' && pattern.startsWith('/') ? '/' : base, rest };
}

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** One path segment (no `/`) as a regex source; brace alternatives may hold further wildcards. */
function segmentSource(seg: string): string {
  let out = '';
  let i = 0;
  while (i < seg.length) {
    const ch = seg[i] as string;
    if (ch === '*') {
      out += '[^/]*';
      i++;
    } else if (ch === '?') {
      out += '[^/]';
      i++;
    } else if (ch === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        i++;
        continue;
      }
      let body = seg.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^/' : ''}${body.replace(/[\\\]^]/g, (c) => `\\${c}`)}]`;
      i = close + 1;
    } else if (ch === '{') {
      const close = matchingBrace(seg, i);
      if (close === -1) {
        out += '\\{';
        i++;
        continue;
      }
      const alternatives = splitTopLevel(seg.slice(i + 1, close));
      out += `(?:${alternatives.map(segmentSource).join('|')})`;
      i = close + 1;
    } else {
      out += escapeRegex(ch);
      i++;
    }
  }
  return out;
}

function matchingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** Compiles a `/`-separated glob into an anchored RegExp over `/`-separated paths. */
export function globToRegExp(pattern: string): RegExp {
  const segments = pattern.split('/');
  let source = '';
  segments.forEach((seg, index) => {
    const last = index === segments.length - 1;
    if (seg === '**') {
      source += last ? '.*' : '(?:[^/]+/)*';
    } else {
      source += segmentSource(seg) + (last ? '' : '/');
    }
  });
  return new RegExp(`^${source}$`);
}

/** How deep below the base a walk must go: Infinity when `**` appears. */
export function globDepth(rest: readonly string[]): number {
  return rest.includes('**') ? Infinity : rest.length;
}

/** Hidden entries are only matched when the pattern spells out a leading dot, as in shells. */
export function globAllowsDotfiles(rest: readonly string[]): boolean {
  return rest.some((seg) => seg.startsWith('.'));
}
