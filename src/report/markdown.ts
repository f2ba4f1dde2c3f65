// Markdown printer: GitHub-flavoured tables, one per figure.
import type { ResultFile } from '../bench/result-file.js';
import { type Figure, type MatrixFigure, type NbFigure, environmentLine, fmt, memRatio, speedup, statusText } from './model.js';

export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A GitHub-flavoured table; numeric-looking columns are right-aligned. */
export function mdTable(header: string[], rows: string[][], rightAligned: boolean[] = []): string {
  const line = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  const sep = `|${header.map((_, i) => (rightAligned[i] ? ' ---: ' : ' --- ')).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

function nbTable(f: NbFigure): string {
  const header = ['Method', 'Family', ...f.nbs.map((nb) => `n_B=${nb}`)];
  const rows = f.methods.map((m) => {
    const family = f.nbs.map((nb) => f.at(m, nb)).find((r) => r)?.family ?? '';
    return [m, family, ...f.nbs.map((nb) => {
      const r = f.at(m, nb);
      return r?.status === 'ok' ? fmt(r.gflops) : statusText(r);
    })];
  });
  return mdTable(header, rows, header.map((_, i) => i >= 2));
}

function matrixTable(f: MatrixFigure): string {
  const header = ['Matrix', 'Method', 'Status', 'Median ms', 'GFLOPS', 'Speedup', 'Peak MiB', 'Memory ratio'];
  const rows: string[][] = [];
  for (const mx of f.matrices) {
    const baseName = f.baseline(mx);
    const base = baseName ? f.at(baseName, mx) : undefined;
    for (const m of f.methods) {
      const r = f.at(m, mx);
      if (!r) continue;
      rows.push([mx, m, statusText(r), fmt(r.median_ms), fmt(r.gflops), fmt(speedup(r, base)), fmt(r.peak_mem_bytes / 2 ** 20), fmt(memRatio(r, base))]);
    }
  }
  return mdTable(header, rows, header.map((_, i) => i >= 3));
}

export function figureNote(f: Figure): string {
  if (f.kind === 'nb') return 'GFLOPS = 2·nnz(A)·n_B / median time; FAILED/ERROR results have no speed figure.';
  const bases = [...new Set(f.matrices.map((m) => f.baseline(m)).filter((b): b is string => !!b))];
  const rel = bases.length ? `relative to ${bases.join(', ')}` : 'no baseline ran ok';
  return `Speedup = baseline median / method median, memory ratio = method peak / baseline peak (${rel}).`;
}

export function figureTable(f: Figure): string {
  return f.kind === 'nb' ? nbTable(f) : matrixTable(f);
}

export function renderMarkdown(file: ResultFile, figures: Figure[]): string {
  const out = [`# spbench results`, '', `${environmentLine(file)}`, '', `Backend: ${file.backend}; command: \`${file.command.join(' ')}\``, ''];
  for (const f of figures) out.push(`## ${f.title}`, '', figureTable(f), '', `_${figureNote(f)}_`, '');
  if (!figures.length) out.push('_The file has no cases._', '');
  return out.join('\n');
}
