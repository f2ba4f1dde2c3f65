// Shared fixtures for bench/cli tests: synthetic native lines and result files.
import type { ResultLine } from '../src/native/protocol.js';
import type { MethodResult, ResultFile } from '../src/results/schema.js';
import { toMethodResult } from '../src/bench/figures.js';

export function resultLine(over: Partial<ResultLine> = {}): ResultLine {
  return {
    type: 'result', op: 'spmm', method: 'm', family: 'ours', params: { nb: 16 }, status: 'ok', timed_region: 'kernel',
    samples_ms: [0.01, 0.01, 0.01], flops: 2e6, bytes_moved: 3e6, peak_mem_bytes: 4096,
    verify: { checked: true, passed: true, max_rel_err: 1e-7, tol: 1e-4, reference: 'cpu-f64' },
    ...over,
  };
}

export function method(over: Partial<ResultLine>): MethodResult {
  return toMethodResult(resultLine(over));
}

export const FAILED_VERIFY = { checked: true, passed: false, max_rel_err: 0.5, tol: 1e-4, reference: 'cpu-f64', detail: 'matrix 3 row 7 column 2: got 1.5, want 1' };

/** One spmm case on the GPU with a fast kernel, two peers, a failed method and a not-applicable peer. */
export function fixtureFile(backend: 'cpu' | 'cuda' = 'cuda'): ResultFile {
  return {
    schema: 'spbench-results/1', created: '2026-01-01T00:00:00.000Z', spbench: { version: '0.1.0', commit: null }, command: ['spbench', 'spmm'],
    host: { hostname: 'h', platform: 'linux-x64', cpus: '2 × cpu', node: 'v20' },
    backend,
    device: backend === 'cuda' ? { index: 0, name: 'NVIDIA H100', cc: '9.0', sms: 132, smem_per_block: 49152, smem_per_block_optin: 232448, smem_per_sm: 233472, max_threads_per_sm: 2048, max_blocks_per_sm: 32, global_mem_bytes: 8e10, l2_bytes: 5e7 } : null,
    env: backend === 'cuda'
      ? { type: 'env', protocol: 1, backend: 'cuda', executable: 'x', devices: [], cuda: { runtime: '13.0', driver: '13.0' } }
      : { type: 'env', protocol: 1, backend: 'cpu', executable: 'x', devices: [], threads: 2 },
    cases: [{
      id: 'spmm/batch=100/dim=64/nnz=3/nb=64/f32/kernel', op: 'spmm', label: 'batch 100 · dim 64 · nnz/row 3 · nB 64 · f32 · kernel',
      params: { nb: 64, mode: 'kernel', layout: 'row' }, input: { matrices: 100 },
      results: [
        method({ method: 'cusparse-spmm-loop', family: 'peer', samples_ms: [0.4, 0.5, 0.6] }),
        method({ method: 'swa-csr-broken', family: 'ours', status: 'failed', samples_ms: [0.001], verify: FAILED_VERIFY }),
        method({ method: 'cublas-gemm-strided', family: 'peer', samples_ms: [0.005, 0.006, 0.007] }),
        method({ method: 'cusparse-strided', family: 'peer', status: 'not_applicable', reason: 'mixed batch: matrices differ in nnz', samples_ms: [] }),
        method({ method: 'swa-csr-batched', family: 'ours', samples_ms: [0.002, 0.003, 0.004] }),
      ],
    }],
  };
}
