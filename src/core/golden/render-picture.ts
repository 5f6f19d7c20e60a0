// The picture of a transcript in GitHub-flavoured Markdown, with no images: a budget bar (how full
// the context is, and by what kind of artifact) and a map of the session, one cell per artifact
// (or per run of equal fates, or per stretch of the session for very long ones) coloured by fate,
// so a dropped task or a budget eaten by one tool output shows at a glance.
import type { MapFate, MapRun, SessionPicture } from './picture.js';
import { MAP_FATES } from './picture.js';

/** Cells of the budget bar: each is 5% of the budget. */
export const BAR_CELLS = 20;
/** The most cells a session map has; longer sessions are drawn by runs, then by stretches. */
export const MAP_CELLS = 80;

export const FATE_CELL: Record<MapFate, string> = {
  kept: '🟩',
  protected: '🟦',
  masked: '🟨',
  excerpt: '🟪',
  dropped: '🟥',
};

/** Which fate a stretch of the session shows when it holds several: the most telling one. */
const TELLING: Record<MapFate, number> = { dropped: 4, excerpt: 3, masked: 2, protected: 1, kept: 0 };

export function legend(): string {
  return MAP_FATES.map((fate) => `${FATE_CELL[fate]} ${fate}`).join(' · ');
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `▰▰▰▰▰▰▱▱▱▱… 5,210 / 8,000 tokens (65%) · tool 48% · user 9% …`: filled cells for the share of
 * the budget used (all filled and marked when over), then the share of each kind, largest first.
 */
export function budgetBar(budget: { limit: number; used: number }, picture: SessionPicture | undefined): string {
  const { limit, used } = budget;
  const share = limit > 0 ? used / limit : used > 0 ? Infinity : 0;
  const filled = Math.min(BAR_CELLS, Math.round(share * BAR_CELLS));
  const bar = '▰'.repeat(filled) + '▱'.repeat(BAR_CELLS - filled);
  const percent = Number.isFinite(share) ? `${Math.round(share * 100)}%` : 'no budget';
  const over = used > limit ? ` · ⚠️ over by ${thousands(used - limit)}` : '';
  const kinds = Object.entries(picture?.by_kind ?? {})
    .filter(([, tokens]) => tokens > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, tokens]) => `${kind} ${percentOf(tokens, limit)}`);
  const byKind = kinds.length > 0 ? ` · ${kinds.join(' · ')}` : '';
  return `<code>${bar}</code> ${thousands(used)} / ${thousands(limit)} tokens (${percent})${over}${byKind}`;
}

/** `41%`, or `<1%` for a share that rounds to nothing. */
function percentOf(tokens: number, limit: number): string {
  if (limit <= 0) return '—';
  const p = Math.round((tokens / limit) * 100);
  return p === 0 && tokens > 0 ? '&lt;1%' : `${p}%`;
}

interface Cell {
  fate: MapFate;
}

/** Runs in stretches of about equal artifact counts, each shown by its most telling fate. */
function stretches(runs: readonly MapRun[], total: number): Cell[] {
  const cells: Cell[] = [];
  for (let cell = 0; cell < MAP_CELLS; cell++) {
    const start = Math.round((cell * total) / MAP_CELLS);
    const end = Math.round(((cell + 1) * total) / MAP_CELLS);
    let fate: MapFate | undefined;
    let from = 0;
    for (const run of runs) {
      const to = from + run.count;
      // The run overlaps the artifacts [start, end) of this cell.
      if (to > start && from < end && (fate === undefined || TELLING[run.fate] > TELLING[fate])) fate = run.fate;
      from = to;
    }
    if (fate !== undefined) cells.push({ fate });
  }
  return cells;
}

/** The cells of the map and what one cell stands for. */
export function mapCells(picture: SessionPicture): { cells: string; unit: string } {
  const runs = picture.runs;
  const total = runs.reduce((n, r) => n + r.count, 0);
  if (total <= MAP_CELLS) {
    return { cells: runs.map((r) => FATE_CELL[r.fate].repeat(r.count)).join(''), unit: 'one cell per artifact' };
  }
  if (runs.length <= MAP_CELLS) {
    return {
      cells: runs.map((r) => FATE_CELL[r.fate]).join(''),
      unit: `one cell per run of artifacts with the same fate (${total} artifacts)`,
    };
  }
  return {
    cells: stretches(runs, total)
      .map((c) => FATE_CELL[c.fate])
      .join(''),
    unit: `one cell per ${Math.round(total / MAP_CELLS)} artifacts, showing the most telling fate in it (${total} artifacts)`,
  };
}

/** The map of a session with its legend line, as Markdown lines. */
export function sessionMap(picture: SessionPicture): string[] {
  if (picture.runs.length === 0) return [];
  const { cells, unit } = mapCells(picture);
  return [cells, '', `<sub>${unit}: ${legend()}</sub>`];
}
