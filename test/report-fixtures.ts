// Synthetic result files for the report, compare and suite tests (no GPU): seeded samples,
// realistic shapes (an n_B sweep, per-matrix SpGEMM cases, failed and not-applicable methods).
import type { CaseResult, MethodResult, ResultFile } from '../src/results/schema.js';
import { median, rng } from '../src/stats.js';

export const H100 = {
  index: 0, name: 'NVIDIA H100 80GB HBM3', cc: '9.0', sms: 132, smem_per_block: 49152, smem_per_block_optin: 232448,
  smem_per_sm: 233472, max_threads_per_sm: 2048, max_blocks_per_sm: 32, global_mem_bytes: 85e9, l2_bytes: 52428800,
};

/** n samples around `med` with uniform relative jitter ±spread. */
export function jittered(next: () => number, med: number, spread: number, n: number): number[] {
  return Array.from({ length: n }, () => med * (1 + spread * (2 * next() - 1)));
}

export function method(name: string, family: MethodResult['family'], samples: number[], extra: Partial<MethodResult> = {}): MethodResult {
  const ok = (extra.status ?? 'ok') === 'ok';
  const s = [...samples].sort((a, b) => a - b);
  const med = ok && s.length ? median(s) : null;
  const flops = extra.flops ?? 1e9;
  return {
    method: name, family, status: 'ok', timed_region: 'graph', samples_ms: ok ? samples : [],
    median_ms: med, min_ms: ok ? s[0] ?? null : null, max_ms: ok ? s[s.length - 1] ?? null : null,
    q1_ms: ok ? s[Math.floor(s.length / 4)] ?? null : null, q3_ms: ok ? s[Math.floor((3 * s.length) / 4)] ?? null : null,
    stdrel: ok ? 0.01 : null, gflops: med ? flops / (med * 1e6) : null, bandwidth_gbs: med ? 1e9 / (med * 1e6) : null,
    flops, bytes_moved: 1e9, peak_mem_bytes: 2 ** 24,
    verify: { checked: true, passed: ok, max_rel_err: ok ? 1e-7 : 0.5, tol: 1e-5, reference: 'cpu-f64', ...(ok ? {} : { detail: 'C[3][7] = NaN (unwritten)' }) },
    ...extra,
  };
}

export function resultFile(cases: CaseResult[], over: Partial<ResultFile> = {}): ResultFile {
  return {
    schema: 'spbench-results/1', created: '2026-11-22T20:00:00.000Z', spbench: { version: '0.1.0', commit: 'abcdef1234567' },
    command: ['spbench', 'run', 'suite.json'], host: { hostname: 'gpu1', platform: 'linux', cpus: '16 x Xeon', node: 'v20.20.2' },
    backend: 'cuda', device: H100,
    env: { type: 'env', protocol: 1, backend: 'cuda', executable: 'spbench-spmm-cuda', devices: [H100], cuda: { runtime: '13.0', driver: '13.0' } },
    cases, ...over,
  };
}

/** A realistic file: an SpMM n_B sweep (with a failed and a not-applicable method) and SpGEMM on two matrices in f32/f64. */
export function sampleFile(seed = 1): ResultFile {
  const next = rng(seed);
  const cases: CaseResult[] = [];
  for (const nb of [16, 32, 64, 128, 256]) {
    const flops = 2 * 100 * 64 * 3 * nb;
    cases.push({
      id: `fig7b/spmm/batch=100/dim=64/nnz=3/nb=${nb}/f32/graph`, op: 'spmm', label: `batch 100, dim 64, nnz/row 3, n_B ${nb}`,
      params: { suite_case: 'fig7b', batch: 100, dim: 64, nnzRow: 3, nb, precision: 'f32', mode: 'graph', layout: 'row' },
      input: { source: 'generated', seed: 1 },
      results: [
        method('batched-csr', 'ours', jittered(next, 0.002 + nb * 1e-5, 0.02, 30), { flops }),
        method('swa-coo-shared', 'paper', jittered(next, 0.003 + nb * 2e-5, 0.02, 30), { flops }),
        method('cublas-gemm-strided', 'peer', jittered(next, 0.005 + nb * 1e-5, 0.02, 30), { flops }),
        method('cusparse-blockdiag', 'peer', jittered(next, 0.013 + nb * 1e-5, 0.02, 30), { flops }),
        nb === 64 ? method('tf-sparse-tensor', 'peer', [], { status: 'failed', flops }) : method('tf-sparse-tensor', 'peer', jittered(next, 0.02, 0.02, 30), { flops }),
        method('cusparse-strided', 'peer', [], { status: 'not_applicable', reason: 'mixed batch', flops }),
      ],
    });
  }
  for (const precision of ['f32', 'f64']) {
    for (const [name, scale] of [['stencil:dims=3,n=40,points=27', 1], ['rmat:scale=16,ef=8 "quoted", comma', 3]] as const) {
      cases.push({
        id: `spgemm/${name}/${precision}`, op: 'spgemm', label: `${name} ${precision}`,
        params: { suite_case: 'spgemm-set', precision },
        input: { name, rows: 64000, nnz: 1700000 },
        results: [
          method('hash-spgemm', 'ours', jittered(next, 1.2 * scale, 0.03, 20), { flops: 2e9, peak_mem_bytes: 2 ** 28 }),
          method('cusparse-alg1', 'peer', jittered(next, 6 * scale, 0.03, 20), { flops: 2e9, peak_mem_bytes: 2 ** 30 }),
          method('cusparse-alg3', 'peer', jittered(next, 9 * scale, 0.03, 20), { flops: 2e9, peak_mem_bytes: 2 ** 29 }),
        ],
      });
    }
  }
  return resultFile(cases);
}
