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
  const per = (value: (m: string, mx: string) => number | null) => f.methods.map((m) => ({ name: m, values: f.matrices.map((mx) => value(m, mx)) }));
  const ok = (m: string, mx: string) => {
    const r = f.at(m, mx);
    return r?.status === 'ok' ? r : undefined;
  };
  const gflops = barChart({ title: `${f.title}: GFLOPS`, subtitle: 'median over samples, per matrix; × = failed, error or not applicable', yLabel: 'GFLOPS', categories: f.matrices, series: per((m, mx) => ok(m, mx)?.gflops ?? null) });
  const bases = [...new Set(f.matrices.map((m) => f.baseline(m)).filter(Boolean))].join(', ');
  if (!bases) {
    // Nothing to compare against (e.g. the CPU backend): absolute peak memory instead of ratios.
    const mem = barChart({ title: `${f.title}: peak memory`, subtitle: 'per method and matrix', yLabel: 'peak memory (MiB)', categories: f.matrices, series: per((m, mx) => { const r = ok(m, mx); return r ? r.peak_mem_bytes / 2 ** 20 : null; }) });
    return [gflops, mem];
  }
  const speed = barChart({
    title: `${f.title}: speedup`,
    subtitle: `over ${bases} (per matrix); × = no figure`,
    yLabel: 'speedup (×)',
    categories: f.matrices,
    refLine: 1,
    series: per((m, mx) => speedup(f.at(m, mx), baseOf(mx))),
  });
  const mem = barChart({
    title: `${f.title}: peak device memory`,
    subtitle: `ratio to ${bases} (lower is better)`,
    yLabel: 'peak memory ratio',
    categories: f.matrices,
    refLine: 1,
    series: per((m, mx) => memRatio(f.at(m, mx), baseOf(mx))),
  });
  return [gflops, speed, mem];
}
