// Markdown printer: GitHub-flavoured tables, one per figure.
import type { ResultFile } from '../results/schema.js';
import { type Figure, environmentLine } from './model.js';
import { figureRows } from './rows.js';
import { timingCheckLines } from './present.js';
import { summaryLines } from './summary.js';

export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A GitHub-flavoured table; numeric-looking columns are right-aligned. */
export function mdTable(header: string[], rows: string[][], rightAligned: boolean[] = []): string {
  const line = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  const sep = `|${header.map((_, i) => (rightAligned[i] ? ' ---: ' : ' --- ')).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

export function figureNote(f: Figure): string {
  if (f.kind === 'nb') return 'GFLOPS = 2·nnz(A)·n_B / median time; FAILED/ERROR results have no speed figure.';
  const bases = [...new Set(f.matrices.map((m) => f.baseline(m)).filter((b): b is string => !!b))];
  const rel = bases.length ? `relative to ${bases.join(', ')}` : 'no baseline ran ok';
  return `Speedup = baseline median / method median, memory ratio = method peak / baseline peak (${rel}).`;
}

export function figureTable(f: Figure): string {
  const t = figureRows(f);
  return mdTable(t.header, t.rows, t.header.map((_, i) => i >= t.firstNumeric));
}

export function renderMarkdown(file: ResultFile, figures: Figure[]): string {
  const out = [`# spbench results`, '', `${environmentLine(file)}`, '', `Backend: ${file.backend}; command: \`${file.command.join(' ')}\``, ''];
  for (const line of summaryLines(file.cases)) out.push(line, '');
  for (const f of figures) {
    out.push(`## ${f.title}`, '', figureTable(f), '', `_${figureNote(f)}_`, '');
    const checks = timingCheckLines(f.cases).map((l) => `* ${mdCell(l)}`);
    if (checks.length) out.push('Timing checks:', '', ...checks, '');
  }
  if (!figures.length) out.push('_The file has no cases._', '');
  return out.join('\n');
}
