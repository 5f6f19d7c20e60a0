// Human-readable `inspect` output: a header, one table row per artifact, a pairing footer.
import { labelledName } from '../../core/text/session-name.js';
import { maskedForMessage } from '../../core/pii/shown.js';
import { shownName } from '../../core/text/shown-name.js';
import type { ArtifactSummary, FileSummary } from './summary.js';
import { maxOf } from '../../core/collections.js';

const MAX_CELL = 40;

// Ids and tool names come from the input file: shown escaped (no terminal escapes, newlines or
// workflow commands, see shownName) and capped in width. A cut can make an address of what was
// none (`…44canary@example.org5e-…` cut after `org`), so a cut cell is masked (fuzz seed 518002519).
function cell(text: string, max = MAX_CELL): string {
  const clean = shownName(text);
  return clean.length > max ? `${maskedForMessage(clean.slice(0, max - 1))}…` : clean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function pairingCell(a: ArtifactSummary, unpairedCallsByArtifact: Map<string, number>): string {
  if (a.tool_calls !== undefined && a.tool_calls.length > 0) {
    const calls = a.tool_calls.length;
    const unpaired = unpairedCallsByArtifact.get(a.id) ?? 0;
    return `calls: ${calls} (${calls - unpaired} answered)${unpaired > 0 ? ` ${unpaired} UNPAIRED` : ''}`;
  }
  if (a.answers !== undefined) return `→ call in ${cell(a.answers)}`;
  if (a.call_id !== undefined) return 'UNPAIRED';
  // An output that names no call (aider's output, a native log) answers nothing by design.
  if (a.kind === 'tool') return 'no call';
  return '';
}

function toolCell(a: ArtifactSummary): string {
  if (a.tool !== undefined) return cell(a.tool, 32);
  if (a.tool_calls !== undefined) return cell([...new Set(a.tool_calls.map((c) => c.name))].join(','), 32);
  return '';
}

function diagnosticsLine(s: FileSummary): string {
  const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = s.diagnostics.length - errors;
  if (s.diagnostics.length === 0) return 'diagnostics: none';
  return `diagnostics: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} (on stderr)`;
}

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths =
    rows[0]?.map((_, col) =>
      maxOf(
        rows.map((r) => (r[col] ?? '').length),
        0,
      ),
    ) ?? [];
  return rows.map((r) =>
    `  ${r.map((c, col) => (rightAligned.has(col) ? c.padStart(widths[col] ?? 0) : c.padEnd(widths[col] ?? 0))).join('  ')}`.trimEnd(),
  );
}

/** The text block for one file; ends with a blank line so that files stay visually apart. */
export function renderFileText(s: FileSummary): string {
  if (s.format === null) {
    return `${shownName(s.file)}\n  not loaded: ${diagnosticsLine(s)}\n\n`;
  }
  const lines = [
    shownName(labelledName(s.file, s.session_label)),
    `  format: ${s.format} · artifacts: ${s.artifact_count} · tokens: ${s.total_tokens} (${s.tokenizer.name}, gpt-tokenizer ${s.tokenizer.version})`,
  ];
  if (s.artifacts.length > 0) {
    const unpairedByArtifact = new Map<string, number>();
    for (const c of s.pairing?.unpaired_calls ?? []) {
      unpairedByArtifact.set(c.artifact, (unpairedByArtifact.get(c.artifact) ?? 0) + 1);
    }
    const withRole = s.artifacts.some((a) => a.role !== undefined);
    const withFlags = s.artifacts.some((a) => a.sidechain === true);
    const header = ['ID', 'KIND', ...(withRole ? ['ROLE'] : []), 'TOKENS', 'LINE', 'TOOL', 'PAIRING'];
    if (withFlags) header.push('FLAGS');
    const rows = s.artifacts.map((a) => {
      const row = [cell(a.id), a.kind, ...(withRole ? [cell(a.role ?? '', 16)] : [])];
      row.push(String(a.tokens), String(a.line), toolCell(a), pairingCell(a, unpairedByArtifact));
      if (withFlags) row.push(a.sidechain === true ? 'sidechain' : '');
      return row;
    });
    const tokensCol = withRole ? 3 : 2;
    lines.push('', ...table([header, ...rows], new Set([tokensCol, tokensCol + 1])), '');
  }
  const p = s.pairing;
  if (p !== null) {
    lines.push(
      `  pairing: ${p.paired_results} paired results · ${plural(p.unpaired_calls.length, 'unpaired call')} · ${plural(p.unpaired_results.length, 'unpaired result')}`,
    );
  }
  lines.push(`  ${diagnosticsLine(s)}`, '', '');
  return lines.join('\n');
}
