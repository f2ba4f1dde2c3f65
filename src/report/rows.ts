// The table of a figure as text cells, shared by the Markdown and HTML printers.
import { type Figure, fmt, memRatio, speedup } from './model.js';
import { fastestPeer, statusText } from './present.js';

export interface FigureTable {
  header: string[];
  rows: string[][];
  firstNumeric: number; // columns from here on are numbers (right-aligned)
}

export function figureRows(f: Figure): FigureTable {
  if (f.kind === 'nb' && f.nbs.length === 1) {
    // A single n_B (e.g. a target case): the detailed view, time, bandwidth and memory included.
    const nb = f.nbs[0];
    const peer = fastestPeer(f.methods.map((m) => f.at(m, nb)));
    const rows = f.methods.map((m) => {
      const r = f.at(m, nb)!;
      return [m, r.family, statusText(r), fmt(r.median_ms === null ? null : r.median_ms * 1000), fmt(r.gflops), fmt(r.bandwidth_gbs), fmt(r.peak_mem_bytes / 2 ** 20), fmt(speedup(r, peer ?? undefined))];
    });
    return { header: ['Method', 'Family', 'Status', 'Median µs', 'GFLOPS', 'GB/s', 'Peak MiB', `Speedup vs ${peer?.method ?? 'fastest peer'}`], rows, firstNumeric: 3 };
  }
  if (f.kind === 'nb') {
    const rows = f.methods.map((m) => {
      const family = f.nbs.map((nb) => f.at(m, nb)).find((r) => r)?.family ?? '';
      return [m, family, ...f.nbs.map((nb) => {
        const r = f.at(m, nb);
        return r?.status === 'ok' ? fmt(r.gflops) : statusText(r);
      })];
    });
    return { header: ['Method', 'Family', ...f.nbs.map((nb) => `n_B=${nb}`)], rows, firstNumeric: 2 };
  }
  const rows: string[][] = [];
  for (const mx of f.matrices) {
    const b = f.baseline(mx);
    const base = b ? f.at(b, mx) : undefined;
    for (const m of f.methods) {
      const r = f.at(m, mx);
      if (r) rows.push([mx, m, statusText(r), fmt(r.median_ms), fmt(r.gflops), fmt(speedup(r, base)), fmt(r.peak_mem_bytes / 2 ** 20), fmt(memRatio(r, base))]);
    }
  }
  return { header: ['Matrix', 'Method', 'Status', 'Median ms', 'GFLOPS', 'Speedup', 'Peak MiB', 'Memory ratio'], rows, firstNumeric: 3 };
}
