// Development tool, not the product: the SpMM driver built on this machine instead of on every fresh GPU
// machine, where its build took 146-217 s of a 30-minute device budget (docs/spmm-notes.md).
//   pack   (here; it runs `npm run build` and `npm run bundle` first; CUDA_PATH names a folder with include/ and lib/ holding cusparse.h,
//          cublas_v2.h and their libraries: NVIDIA's wheels, dev/README.md) builds spmm-cuda with this machine's
//          nvcc for sm_90 through the product's own build (same flags but the -I / -L of CUDA_PATH), and writes
//          .dev/prebuilt/spbench-spmm-cuda.xz and spbench-spmm-cuda.src (the hash of the sources it was built from)
//   place  (the GPU machine, dist and .dev carried) unpacks it to the path the product's build would write
//          there ($SPBENCH_CACHE_DIR), only where the sources there hash the same, so that `spbench build`
//          finds it and builds nothing; otherwise it says so and the build runs as before.
// Both sides hash the sources as the product does (buildHash: target and every hashed file), with the
// compiler and flags left out, since those differ between the machines by design.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildHash, planBuild } from '../../dist/src/native/build.js';
import { cudaSourceDir, targetSpec } from '../../dist/src/native/targets.js';

const TARGET = 'spmm-cuda';
const DIR = '.dev/prebuilt';
const exe = `spbench-${TARGET}`;
const sources = () => buildHash(targetSpec(TARGET), cudaSourceDir(), '', []);

const mode = process.argv[2];
if (mode === 'pack') {
  if (!process.env.CUDA_PATH) throw new Error('pack: set CUDA_PATH to the folder with cusparse.h / cublas_v2.h and their libraries');
  // dist and its single-file bundle made again from this tree first: the GPU machine's CLI runs the bundle (no
  // node_modules there), and a bundle older than dist once built with other flags there, so the build's hash missed
  // this prebuilt and the driver was compiled on the machine (docs/spmm-notes.md, session of 2026-11-29 #3)
  for (const script of ['build', 'bundle']) execFileSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  const env = { ...process.env, SPBENCH_CUDA_ARCH: '90', SPBENCH_CACHE_DIR: '/tmp/spbench-prebuilt-cache' };
  env.LD_LIBRARY_PATH = [join(env.CUDA_PATH, 'lib'), env.LD_LIBRARY_PATH].filter(Boolean).join(':'); // the libraries' own needs, at link time
  execFileSync('node', ['bin/spbench.js', 'build', '--target', TARGET], { env, stdio: 'inherit' });
  const plan = await planBuild(TARGET, { arch: '90', cacheDir: env.SPBENCH_CACHE_DIR });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, `${exe}.xz`), execFileSync('xz', ['-T4', '-c', plan.exePath], { maxBuffer: 1 << 30 }));
  writeFileSync(join(DIR, `${exe}.src`), `${sources()}\n`);
  console.log(`packed ${plan.exePath} as ${DIR}/${exe}.xz (sources ${sources()})`);
} else if (mode === 'place') {
  const packed = join(DIR, `${exe}.xz`);
  if (!existsSync(packed)) {
    console.log(`prebuilt: no ${packed}; the build runs`);
    process.exit(0);
  }
  const want = readFileSync(join(DIR, `${exe}.src`), 'utf8').trim();
  if (want !== sources()) {
    console.log(`prebuilt: ${packed} was built from other sources (${want}, here ${sources()}); the build runs`);
    process.exit(0);
  }
  const plan = await planBuild(TARGET, { arch: process.env.SPBENCH_CUDA_ARCH || '90' });
  if (existsSync(plan.exePath)) {
    console.log(`prebuilt: ${plan.exePath} is there already`);
    process.exit(0);
  }
  mkdirSync(dirname(plan.exePath), { recursive: true });
  const tmp = `${plan.exePath}.tmp-${process.pid}`;
  writeFileSync(tmp, execFileSync('xz', ['-dc', packed], { maxBuffer: 1 << 30 }), { mode: 0o755 });
  renameSync(tmp, plan.exePath);
  console.log(`prebuilt: placed as ${plan.exePath}`);
} else {
  console.error('usage: node dev/device/prebuilt.mjs pack|place');
  process.exit(2);
}
