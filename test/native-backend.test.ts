// Backend choice, the GPU probe and the doctor/build commands. In-process tests hide nvcc
// (SPBENCH_NVCC points nowhere) so they behave the same on every machine; one test runs the real
// toolchain through `spbench doctor --json` and is skipped where nvcc is absent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RuntimeFailure } from '../src/util/errors.js';
import { chooseBackend, probeDevices } from '../src/native/backend.js';
import { doctorReport, formatDoctor, type DoctorReport } from '../src/native/doctor.js';
import { findNvcc } from '../src/native/toolchain.js';
import { TEST_CACHE_DIR } from './native-fixtures.js';

const repo = join(fileURLToPath(import.meta.url), '..', '..', '..');
const spbench = join(repo, 'bin', 'spbench.js');
const realNvcc = findNvcc(); // looked up before nvcc is hidden below
const NO_NVCC = '/nonexistent/spbench-test/nvcc';

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [spbench, ...args], { encoding: 'utf8', env: { ...process.env, SPBENCH_CACHE_DIR: TEST_CACHE_DIR, ...env } });
}

describe('chooseBackend without nvcc', () => {
  const saved = process.env.SPBENCH_NVCC;
  before(() => {
    process.env.SPBENCH_NVCC = NO_NVCC;
  });
  after(() => {
    if (saved === undefined) delete process.env.SPBENCH_NVCC;
    else process.env.SPBENCH_NVCC = saved;
  });

  it('--backend cpu is taken as asked', async () => {
    assert.deepEqual(await chooseBackend('cpu', 'spmm'), { backend: 'cpu', reason: 'requested with --backend cpu' });
  });

  it('auto falls back to the CPU backend and says why, for both ops', async () => {
    for (const op of ['spmm', 'spgemm'] as const) {
      const c = await chooseBackend('auto', op);
      assert.equal(c.backend, 'cpu');
      assert.match(c.reason, /^nvcc was not found .*; using the CPU reference backend \(CPU wall-clock figures, not GPU figures\)$/);
    }
  });

  it('--backend cuda is a RuntimeFailure saying why and what to do', async () => {
    await assert.rejects(chooseBackend('cuda', 'spgemm'), (e: unknown) => {
      assert.ok(e instanceof RuntimeFailure);
      assert.match(e.message, /^--backend cuda is not possible for spgemm: nvcc was not found .*use --backend cpu\.$/);
      return true;
    });
  });

  it('probeDevices is null, and doctor reports the missing pieces', async () => {
    assert.equal(await probeDevices(), null);
    const r = await doctorReport();
    assert.equal(r.nvcc, null);
    assert.deepEqual(r.devices, []);
    assert.equal(r.backends.spmm.backend, 'cpu');
    const text = formatDoctor(r);
    assert.match(text, /^nvcc: +NOT found \(set SPBENCH_NVCC or CUDA_HOME/m);
    assert.match(text, /^GPUs: +none usable \(nvcc \(the CUDA compiler\) was not found/m);
    assert.match(text, /^spgemm +→ cpu backend: nvcc was not found/m);
  });
});

describe('doctor output', () => {
  it('lists each GPU with name, compute capability, SMs, shared memory and memory', () => {
    const report: DoctorReport = {
      nvcc: { path: '/usr/local/cuda/bin/nvcc', version: '13.0.88' },
      gxx: { path: '/usr/bin/g++', version: '13.2.0' },
      cudaRoots: ['/usr/local/cuda'],
      cusparse: { header: '/usr/local/cuda/include/cusparse.h', library: '/usr/local/cuda/lib64/libcusparse.so', version: '12.6.3', found: true },
      cublas: { header: null, library: '/usr/local/cuda/lib64/libcublas.so', version: null, found: false },
      devices: [{
        index: 0, name: 'NVIDIA H100 80GB HBM3', cc: '9.0', sms: 132, smem_per_block: 49152, smem_per_block_optin: 232448, smem_per_sm: 233472,
        max_threads_per_sm: 2048, max_blocks_per_sm: 32, global_mem_bytes: 85e9, l2_bytes: 52428800,
      }],
      cuda: { runtime: '13.0', driver: '13.0' },
      gpu: 'GPU 0 is NVIDIA H100 80GB HBM3 (compute capability 9.0, 132 SMs)',
      backends: { spmm: { backend: 'cpu', reason: 'cuBLAS headers or libraries were not found' }, spgemm: { backend: 'cuda', reason: 'GPU 0 is ...' } },
      cacheDir: '/home/u/.cache/spbench',
    };
    const text = formatDoctor(report);
    assert.match(text, /GPU 0: +NVIDIA H100 80GB HBM3, compute capability 9\.0, 132 SMs, 79\.2 GiB memory, L2 50\.0 MiB/);
    assert.match(text, /shared memory per block 48 KiB \(opt-in 227 KiB\), per SM 228 KiB; 2048 threads \/ 32 blocks per SM/);
    assert.match(text, /^cuSPARSE: +found 12\.6\.3 \(/m);
    assert.match(text, /^cuBLAS: +NOT found \(no header\)/m);
    assert.match(text, /^CUDA: +runtime 13\.0, driver 13\.0/m);
    assert.match(text, /^spgemm +→ cuda backend/m);
  });
});

describe('spbench doctor / build commands', () => {
  it('doctor --json without nvcc: exit 0, the CPU backend for both ops', () => {
    const r = cli(['doctor', '--json'], { SPBENCH_NVCC: NO_NVCC });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as DoctorReport;
    assert.equal(report.nvcc, null);
    assert.equal(report.backends.spmm.backend, 'cpu');
    assert.equal(report.backends.spgemm.backend, 'cpu');
    assert.equal(report.cacheDir, TEST_CACHE_DIR);
  });

  it('doctor with the real toolchain: the probe runs and reports GPUs or why there are none', { skip: realNvcc ? false : 'nvcc is not installed here' }, () => {
    const r = cli(['doctor', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as DoctorReport;
    assert.equal(report.nvcc?.path, realNvcc);
    assert.match(report.nvcc?.version ?? '', /^\d+\.\d+\.\d+$/);
    if (report.devices.length === 0) {
      assert.match(report.gpu, /no usable CUDA GPU/);
      assert.equal(report.backends.spmm.backend, 'cpu');
    } else {
      assert.match(report.devices[0].cc, /^\d+\.\d+$/);
      assert.ok(report.cuda?.runtime);
    }
  });

  it('build --target cpu prints the cached path; an unknown target is a usage error', () => {
    const r = cli(['build', '--target', 'cpu']);
    assert.equal(r.status, 0, r.stderr);
    const m = /^cpu +(\S+)$/m.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.ok(m[1].startsWith(join(TEST_CACHE_DIR, 'bin', 'spbench-cpu-')) && existsSync(m[1]));
    const bad = cli(['build', '--target', 'cpu,gpu']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--target: unknown target 'gpu' \(known: cpu, mtx-addon, probe, spmm-cuda, spgemm-cuda\)/);
  });

  it('build --target spmm-cuda without nvcc: exit 3 with what to do', () => {
    const r = cli(['build', '--target', 'spmm-cuda'], { SPBENCH_NVCC: NO_NVCC, SPBENCH_CUDA_ARCH: '90' });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /(nvcc \(the CUDA compiler\) was not found|source of spbench-spmm-cuda .* is missing).*--backend cpu/);
  });
});
