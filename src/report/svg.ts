// A small SVG plotting module (no dependency): line charts with a log2 x axis (GFLOPS against n_B,
// seed 001 Fig. 6/7) and grouped bar charts (speedup / memory ratio per matrix, seed 004 Fig. 2/4).
// Every chart is a standalone <svg> element with its title, axis labels and legend.

export interface Chart {
  svg: string;
  width: number;
  height: number;
}

import { escapeXml as esc } from '../util/xml.js';

// Okabe–Ito colours (distinguishable with colour-blindness), then a few darker extras; dash
// patterns and marker shapes repeat with period 4 so that series stay distinct beyond the colours.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#8C564B', '#7F7F7F', '#BCBD22', '#17BECF', '#9467BD'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];
const LABEL_MAX = 32; // longest category label drawn in full
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';

export function colour(i: number): string {
  return PALETTE[i % PALETTE.length];
}

function num(x: number): string {
  return Number(x.toFixed(2)).toString();
}

/** "Nice" tick step (1, 2 or 5 × 10^k) for about `count` intervals over `span`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

export function tickLabel(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return Number(v.toPrecision(4)).toString();
}

interface Scale {
  map(v: number): number;
  ticks: number[];
}

function linearScale(max: number, r0: number, r1: number): Scale {
  const top = max > 0 ? max : 1;
  const step = niceStep(top, 5);
  const dmax = Math.ceil(top / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= dmax + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { map: (v) => r0 + ((r1 - r0) * v) / dmax, ticks };
}

function logScale(min: number, max: number, base: number, r0: number, r1: number): Scale {
  const lg = (v: number) => Math.log(v) / Math.log(base);
  let lo = Math.floor(lg(min) + 1e-9);
  let hi = Math.ceil(lg(max) - 1e-9);
  if (hi === lo) {
    lo -= 1;
    hi += 1;
  }
  const ticks: number[] = [];
  for (let k = lo; k <= hi; k++) ticks.push(base ** k);
  return { map: (v) => r0 + ((r1 - r0) * (lg(v) - lo)) / (hi - lo), ticks };
}

function marker(shape: number, x: number, y: number, fill: string): string {
  const s = 3.5;
  switch (shape % 4) {
    case 0:
      return `<circle cx="${num(x)}" cy="${num(y)}" r="${s}" fill="${fill}"/>`;
    case 1:
      return `<rect x="${num(x - s)}" y="${num(y - s)}" width="${2 * s}" height="${2 * s}" fill="${fill}"/>`;
    case 2:
      return `<path d="M${num(x)} ${num(y - s - 1)}L${num(x + s + 1)} ${num(y + s)}L${num(x - s - 1)} ${num(y + s)}Z" fill="${fill}"/>`;
    default:
      return `<path d="M${num(x)} ${num(y - s - 1)}L${num(x + s + 1)} ${num(y)}L${num(x)} ${num(y + s + 1)}L${num(x - s - 1)} ${num(y)}Z" fill="${fill}"/>`;
  }
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number; // x of the plot's right edge
  top: number;
  bottom: number; // y of the plot's bottom edge
}

function frame(entries: number, bottomSpace: number, left = 72): Frame {
  const width = 780;
  const legendHeight = 60 + entries * 18;
  const height = Math.max(400, legendHeight + bottomSpace);
  return { width, height, left, right: width - 210, top: 56, bottom: height - bottomSpace };
}

function header(f: Frame, title: string, subtitle?: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}" ${FONT} font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${f.width}" height="${f.height}" fill="#ffffff"/>`,
    `<text x="${f.width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`,
    subtitle ? `<text x="${f.width / 2}" y="40" text-anchor="middle" font-size="11" fill="#555">${esc(subtitle)}</text>` : '',
  ].join('');
}

function yAxis(f: Frame, scale: Scale, label: string): string {
  const parts: string[] = [];
  for (const t of scale.ticks) {
    const y = scale.map(t);
    parts.push(`<line x1="${f.left}" x2="${f.right}" y1="${num(y)}" y2="${num(y)}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${f.left - 6}" y="${num(y + 4)}" text-anchor="end" fill="#333">${esc(tickLabel(t))}</text>`);
  }
  const cy = (f.top + f.bottom) / 2;
  const lx = f.left - 54; // beside the tick labels, wherever the frame's left edge is
  parts.push(`<text x="${lx}" y="${num(cy)}" text-anchor="middle" transform="rotate(-90 ${lx} ${num(cy)})" font-size="13">${esc(label)}</text>`);
  parts.push(`<line x1="${f.left}" x2="${f.left}" y1="${f.top}" y2="${f.bottom}" stroke="#333"/>`);
  parts.push(`<line x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}" stroke="#333"/>`);
  return parts.join('');
}

function legend(f: Frame, names: string[], line: boolean): string {
  const x = f.right + 18;
  const parts = [`<g class="legend">`];
  names.forEach((name, i) => {
    const y = f.top + 8 + i * 18;
    const c = colour(i);
    if (line) {
      parts.push(`<line x1="${x}" x2="${x + 22}" y1="${y}" y2="${y}" stroke="${c}" stroke-width="2" stroke-dasharray="${DASHES[Math.floor(i / PALETTE.length) % DASHES.length]}"/>`);
      parts.push(marker(i, x + 11, y, c));
    } else {
      parts.push(`<rect x="${x + 4}" y="${y - 6}" width="14" height="12" fill="${c}"/>`);
    }
    parts.push(`<text x="${x + 28}" y="${y + 4}">${esc(name)}</text>`);
  });
  parts.push('</g>');
  return parts.join('');
}

export interface LineSeries {
  name: string;
  points: { x: number; y: number | null }[]; // y null: no figure there (the line breaks)
}

export interface LineChartSpec {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: LineSeries[];
}

/** Line chart over a log2 x axis (x values must be positive). */
export function lineChart(spec: LineChartSpec): Chart {
  const f = frame(spec.series.length, 56);
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x)).filter((x) => x > 0);
  const ys = spec.series.flatMap((s) => s.points.map((p) => p.y)).filter((y): y is number => y !== null && Number.isFinite(y));
  const xScale = logScale(xs.length ? Math.min(...xs) : 1, xs.length ? Math.max(...xs) : 2, 2, f.left + 12, f.right - 12);
  const yScale = linearScale(ys.length ? Math.max(...ys) : 1, f.bottom, f.top);
  const parts = [header(f, spec.title, spec.subtitle), yAxis(f, yScale, spec.yLabel)];
  for (const t of xScale.ticks) {
    const x = xScale.map(t);
    parts.push(`<line x1="${num(x)}" x2="${num(x)}" y1="${f.bottom}" y2="${f.bottom + 5}" stroke="#333"/>`);
    parts.push(`<text x="${num(x)}" y="${f.bottom + 19}" text-anchor="middle" fill="#333">${esc(tickLabel(t))}</text>`);
  }
  parts.push(`<text x="${(f.left + f.right) / 2}" y="${f.bottom + 42}" text-anchor="middle" font-size="13">${esc(spec.xLabel)}</text>`);
  spec.series.forEach((s, i) => {
    const c = colour(i);
    const dash = DASHES[Math.floor(i / PALETTE.length) % DASHES.length];
    const pts = [...s.points].filter((p) => p.x > 0).sort((a, b) => a.x - b.x);
    let d = '';
    let pen = false;
    for (const p of pts) {
      if (p.y === null || !Number.isFinite(p.y)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${num(xScale.map(p.x))} ${num(yScale.map(p.y))}`;
      pen = true;
    }
    const g = [`<g class="series"><title>${esc(s.name)}</title>`];
    if (d) g.push(`<path d="${d}" fill="none" stroke="${c}" stroke-width="2" stroke-dasharray="${dash}"/>`);
    for (const p of pts) if (p.y !== null && Number.isFinite(p.y)) g.push(marker(i, xScale.map(p.x), yScale.map(p.y), c));
    g.push('</g>');
    parts.push(g.join(''));
  });
  const hasData = (s: LineSeries) => s.points.some((p) => p.y !== null && Number.isFinite(p.y));
  parts.push(legend(f, spec.series.map((s) => (hasData(s) ? s.name : `${s.name} (no data)`)), true), '</svg>');
  return { svg: parts.join('\n'), width: f.width, height: f.height };
}

export interface BarChartSpec {
  title: string;
  subtitle?: string;
  yLabel: string;
  categories: string[];
  series: { name: string; values: (number | null)[] }[]; // values[i] belongs to categories[i]
  refLine?: number; // e.g. 1 for ratios: a dashed line, and log-scale bars grow from it
}

/** Grouped bars; switches to a log10 y axis when the positive values span more than 30×. */
export function barChart(spec: BarChartSpec): Chart {
  const maxLen = Math.max(0, ...spec.categories.map((c) => c.length));
  const rotate = maxLen > 12;
  // Rotated labels (-30°) need about 3.3 px of height per character; long names are shortened.
  // The first rotated label reaches left of its category by about cos 30° × 6.6 px per character:
  // widen the left margin so that it is not cut off at the image's edge.
  const firstLen = Math.min(spec.categories[0]?.length ?? 0, LABEL_MAX);
  const left = rotate ? Math.max(72, Math.ceil(0.866 * 6.6 * firstLen) - 20) : 72;
  const f = frame(spec.series.length, rotate ? Math.round(48 + 3.3 * Math.min(maxLen, LABEL_MAX)) : 56, left);
  const vals = spec.series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  const lo = vals.length ? Math.min(...vals, spec.refLine ?? Infinity) : 1;
  const hi = vals.length ? Math.max(...vals, spec.refLine ?? 0) : 1;
  const useLog = vals.length > 0 && hi / lo > 30;
  const yScale = useLog ? logScale(lo, hi, 10, f.bottom, f.top) : linearScale(hi, f.bottom, f.top);
  const from = useLog ? (spec.refLine !== undefined ? yScale.map(spec.refLine) : f.bottom) : f.bottom;
  const parts = [header(f, spec.title, spec.subtitle), yAxis(f, yScale, useLog ? `${spec.yLabel} (log scale)` : spec.yLabel)];
  const band = (f.right - f.left) / Math.max(1, spec.categories.length);
  const barW = Math.max(2, Math.min(28, (band * 0.8) / Math.max(1, spec.series.length)));
  spec.categories.forEach((cat, ci) => {
    const x0 = f.left + ci * band + (band - barW * spec.series.length) / 2;
    spec.series.forEach((s, si) => {
      const v = s.values[ci];
      const x = x0 + si * barW;
      if (v === null || v === undefined || !Number.isFinite(v) || (useLog && v <= 0)) {
        parts.push(`<text x="${num(x + barW / 2)}" y="${f.bottom - 3}" text-anchor="middle" font-size="9" fill="#999">×</text>`);
        return;
      }
      const y = yScale.map(v);
      parts.push(`<rect x="${num(x)}" y="${num(Math.min(y, from))}" width="${num(barW - 1)}" height="${num(Math.max(0.5, Math.abs(from - y)))}" fill="${colour(si)}"><title>${esc(`${s.name} on ${cat}: ${tickLabel(v)}`)}</title></rect>`);
    });
    const cx = f.left + ci * band + band / 2;
    const short = cat.length > LABEL_MAX ? `${cat.slice(0, LABEL_MAX - 1)}…` : cat;
    parts.push(
      rotate
        ? `<text x="${num(cx)}" y="${f.bottom + 14}" text-anchor="end" transform="rotate(-30 ${num(cx)} ${f.bottom + 14})" fill="#333"><title>${esc(cat)}</title>${esc(short)}</text>`
        : `<text x="${num(cx)}" y="${f.bottom + 19}" text-anchor="middle" fill="#333">${esc(cat)}</text>`,
    );
  });
  if (spec.refLine !== undefined) {
    const y = yScale.map(spec.refLine);
    parts.push(`<line x1="${f.left}" x2="${f.right}" y1="${num(y)}" y2="${num(y)}" stroke="#444" stroke-dasharray="5 4"/>`);
  }
  parts.push(legend(f, spec.series.map((s) => s.name), false), '</svg>');
  return { svg: parts.join('\n'), width: f.width, height: f.height };
}

/** Several charts stacked vertically in one SVG document. */
export function stackCharts(charts: Chart[], title: string): string {
  const width = Math.max(400, ...charts.map((c) => c.width));
  const height = Math.max(40, charts.reduce((h, c) => h + c.height + 16, 0));
  let y = 0;
  const inner = charts.map((c) => {
    const s = c.svg.replace('<svg ', `<svg x="0" y="${y}" `);
    y += c.height + 16;
    return s;
  });
  const empty = charts.length ? '' : `<text x="20" y="24" ${FONT}>No figures: the result file has no cases.</text>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${esc(title)}</title>${empty}\n${inner.join('\n')}\n</svg>\n`;
}
