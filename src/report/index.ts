// `spbench report`: picks the printer for a format. Printers only format; nothing here measures.
import type { ResultFile } from '../results/schema.js';
import { UserError } from '../util/errors.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildFigures, type FigureOptions } from './model.js';
import { chartsFor } from './plots.js';
import { stackCharts } from './svg.js';
import { renderBenchmarkAction, renderBmf } from './exports.js';

export const REPORT_FORMATS = ['md', 'csv', 'html', 'svg', 'bmf', 'benchmark-action'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function parseFormat(text: string): ReportFormat {
  const f = text === 'markdown' ? 'md' : text;
  if (!(REPORT_FORMATS as readonly string[]).includes(f)) throw new UserError(`--format must be one of ${REPORT_FORMATS.join(', ')} (got "${text}")`);
  return f as ReportFormat;
}

export function renderReport(file: ResultFile, format: ReportFormat, opts: FigureOptions = {}): string {
  if (format === 'csv') return renderCsv(file);
  if (format === 'bmf') return renderBmf(file);
  if (format === 'benchmark-action') return renderBenchmarkAction(file);
  const figures = buildFigures(file, opts);
  if (format === 'md') return renderMarkdown(file, figures);
  if (format === 'html') return renderHtml(file, figures);
  return stackCharts(figures.flatMap(chartsFor), 'spbench results');
}
