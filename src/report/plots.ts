// Which charts each figure gets: GFLOPS against n_B for SpMM sweeps; speedup and peak-memory
// ratio bars per matrix for per-matrix figures.
import { barChart, type Chart, lineChart } from './svg.js';
import { type Figure, memRatio, speedup } from './model.js';

export function chartsFor(f: Figure): Chart[] {
  if (f.kind === 'nb' && f.nbs.length === 1) {
    const nb = f.nbs[0];
    const values = (m: string) => {
      const r = f.at(m, nb);
      return [r?.status === 'ok' ? r.gflops : null];
    };
    return [barChart({ title: f.title, subtitle: 'median over samples; × = failed, error or not applicable', yLabel: 'GFLOPS', categories: [`n_B = ${nb}`], series: f.methods.map((m) => ({ name: m, values: values(m) })) })];
  }
  if (f.kind === 'nb') {
    const series = f.methods.map((m) => ({
      name: m,
      points: f.nbs.map((nb) => {
        const r = f.at(m, nb);
        return { x: nb, y: r?.status === 'ok' ? r.gflops : null };
      }),
    }));
    return [lineChart({ title: f.title, subtitle: 'median over samples; missing points: failed, error or not applicable', xLabel: 'n_B (columns of B)', yLabel: 'GFLOPS', series })];
  }
  const baseOf = (mx: string) => {
    const b = f.baseline(mx);
    return b ? f.at(b, mx) : undefined;
  };
  const bases = [...new Set(f.matrices.map((m) => f.baseline(m)).filter(Boolean))].join(', ') || 'none';
  const speed = barChart({
    title: `${f.title}: speedup`,
    subtitle: `over ${bases} (per matrix); × = no figure`,
    yLabel: 'speedup (×)',
    categories: f.matrices,
    refLine: 1,
    series: f.methods.map((m) => ({ name: m, values: f.matrices.map((mx) => speedup(f.at(m, mx), baseOf(mx))) })),
  });
  const mem = barChart({
    title: `${f.title}: peak device memory`,
    subtitle: `ratio to ${bases} (lower is better)`,
    yLabel: 'peak memory ratio',
    categories: f.matrices,
    refLine: 1,
    series: f.methods.map((m) => ({ name: m, values: f.matrices.map((mx) => memRatio(f.at(m, mx), baseOf(mx))) })),
  });
  return [speed, mem];
}
