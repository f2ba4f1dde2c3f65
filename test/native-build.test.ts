// The build cache: hashing, rebuild triggers, the lock, and the errors for a missing toolchain.
// A fake compiler (a shell script that logs its arguments and writes a tiny executable) keeps these
// tests instant and lets them count builds; the real g++ build is covered by native-cpu.test.ts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RuntimeFailure } from '../src/util/errors.js';
import { buildExecutable, planBuild, withLock } from '../src/native/build.js';
import { cudaSourceDir } from '../src/native/targets.js';
import { cacheDir } from '../src/config.js';
import { discoverToolchain } from '../src/native/toolchain.js';
import { tempDir, writeScript } from './native-fixtures.js';

const root = tempDir('build');

/** A fake compiler reporting `version`; every compile appends its arguments to `log`. */
function fakeCompiler(name: string, version: string, opts: { fail?: boolean; sleep?: number } = {}): { path: string; log: string } {
  const log = join(root, `${name}.log`);
  writeFileSync(log, '');
  const path = writeScript(
    join(root, 'bin'),
    name,
    `#!/bin/sh
if [ "$1" = "--version" ]; then echo "fakecc (Test) ${version}"; exit 0; fi
echo "$@" >> '${log}'
${opts.sleep ? `sleep ${opts.sleep}` : ''}
${opts.fail ? `echo "spbench_cpu.cpp:3:1: error: boom" >&2; exit 1` : ''}
out=""; prev=""
for a in "$@"; do if [ "$prev" = "-o" ]; then out="$a"; fi; prev="$a"; done
printf '#!/bin/sh\\necho built\\n' > "$out"; chmod +x "$out"
`,
  );
  return { path, log };
}

const builds = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

function copyCuda(name: string): string {
  const d = join(root, name);
  cpSync(cudaSourceDir(), d, { recursive: true });
  return d;
}

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const k of Object.keys(vars)) {
    saved[k] = process.env[k];
    if (vars[k] === undefined) delete process.env[k];
    else process.env[k] = vars[k];
  }
  return fn().finally(() => {
    for (const k of Object.keys(saved)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
}

describe('buildExecutable cache', () => {
  const cc = fakeCompiler('fake-g++', '1.2.3', { sleep: 0.3 });
  const cudaDir = copyCuda('cuda-a');
  const cache = join(root, 'cache-a');
  const ensure = (o: { extraFlags?: string[]; rebuild?: boolean } = {}) => buildExecutable('cpu', { cudaDir, cacheDir: cache, extraFlags: [], ...o });
  const env = { SPBENCH_CXX: cc.path };

  it('builds once, into <cache>/bin/spbench-cpu-<hash>, then reuses it', () =>
    withEnv(env, async () => {
      const p1 = await ensure();
      assert.match(p1, new RegExp(`^${cache}/bin/spbench-cpu-[0-9a-f]{16}$`));
      assert.ok(existsSync(p1));
      assert.equal(builds(cc.log), 1);
      assert.equal(await ensure(), p1);
      assert.equal(builds(cc.log), 1, 'second call does not rebuild');
      assert.match(readFileSync(cc.log, 'utf8'), /-std=c\+\+17 -O3 -fopenmp .*spbench_cpu\.cpp -o /);
      assert.doesNotMatch(readFileSync(cc.log, 'utf8'), /-march=native/);
    }));

  it('a changed or added source under common/ or cpu/ rebuilds; a file the target does not use does not', () =>
    withEnv(env, async () => {
      const p1 = await ensure();
      const n = builds(cc.log);
      appendFileSync(join(cudaDir, 'common', 'json.hpp'), '\n// touched\n');
      const p2 = await ensure();
      assert.notEqual(p2, p1);
      assert.equal(builds(cc.log), n + 1);
      writeFileSync(join(cudaDir, 'cpu', 'extra.hpp'), '// new header\n');
      const p3 = await ensure();
      assert.notEqual(p3, p2);
      assert.equal(builds(cc.log), n + 2);
      appendFileSync(join(cudaDir, 'drivers', 'probe.cu'), '\n// not part of the CPU build\n');
      assert.equal(await ensure(), p3);
      assert.equal(builds(cc.log), n + 2);
    }));

  it('changed flags or compiler version rebuild; --rebuild forces a build at the same path', () =>
    withEnv(env, async () => {
      const p1 = await ensure();
      const n = builds(cc.log);
      const p2 = await ensure({ extraFlags: ['-DSPBENCH_TEST=1'] });
      assert.notEqual(p2, p1);
      assert.equal(builds(cc.log), n + 1);
      assert.match(readFileSync(cc.log, 'utf8').trim().split('\n').pop() ?? '', /-DSPBENCH_TEST=1/);
      assert.equal(await ensure({ rebuild: true }), p1);
      assert.equal(builds(cc.log), n + 2);
      const newer = fakeCompiler('fake-g++-newer', '1.2.4');
      const p3 = await withEnv({ SPBENCH_CXX: newer.path }, () => ensure());
      assert.notEqual(p3, p1);
      assert.equal(builds(newer.log), 1);
    }));

  it('two concurrent calls both succeed with one build, and no temp or lock file is left', () =>
    withEnv(env, async () => {
      const n = builds(cc.log);
      const [a, b] = await Promise.all([ensure({ extraFlags: ['-DCONCURRENT'] }), ensure({ extraFlags: ['-DCONCURRENT'] })]);
      assert.equal(a, b);
      assert.equal(builds(cc.log), n + 1);
      assert.deepEqual(readdirSync(join(cache, 'bin')).filter((f) => /\.(lock|tmp)/.test(f)), []);
    }));

  it('three spbench processes building at once: one build, the same path for all', () =>
    withEnv(env, async () => {
      const n = builds(cc.log);
      const buildJs = new URL('../src/native/build.js', import.meta.url).href;
      const script = `const { buildExecutable } = await import(${JSON.stringify(buildJs)});
process.stdout.write(await buildExecutable('cpu', { cudaDir: ${JSON.stringify(cudaDir)}, cacheDir: ${JSON.stringify(cache)}, extraFlags: ['-DMULTI'] }));`;
      const run = () =>
        new Promise<string>((resolve, reject) => {
          execFile(process.execPath, ['--input-type=module', '-e', script], { env: process.env }, (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
        });
      const paths = await Promise.all([run(), run(), run()]);
      assert.equal(new Set(paths).size, 1);
      assert.ok(existsSync(paths[0]));
      assert.equal(builds(cc.log), n + 1);
    }));

  it('a lock left by a dead process is removed; a live holder is waited for', () =>
    withEnv(env, async () => {
      const plan = await planBuild('cpu', { cudaDir, cacheDir: cache, extraFlags: ['-DSTALE'] });
      mkdirSync(join(cache, 'bin'), { recursive: true });
      writeFileSync(`${plan.exePath}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), time: 'then' }));
      assert.equal(await ensure({ extraFlags: ['-DSTALE'] }), plan.exePath);
      assert.ok(!existsSync(`${plan.exePath}.lock`));

      const lock = join(root, 'held.lock');
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), time: 'now' }));
      let ran = false;
      const waiting = withLock(lock, async () => {
        ran = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(ran, false, 'waits while a live process holds the lock');
      rmSync(lock);
      await waiting;
      assert.equal(ran, true);
      assert.ok(!existsSync(lock), 'released after use');

      // A holder only ever removes its own lock (e.g. after its lock was judged stale and replaced).
      await withLock(lock, async () => writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else' })));
      assert.match(readFileSync(lock, 'utf8'), /someone-else/);
      rmSync(lock);
    }));
});

describe('buildExecutable errors', () => {
  it('a compile error: RuntimeFailure with the compiler output tail and what to do; nothing left behind', async () => {
    const bad = fakeCompiler('bad-g++', '9.9.9', { fail: true });
    const cache = join(root, 'cache-bad');
    await withEnv({ SPBENCH_CXX: bad.path }, async () => {
      await assert.rejects(buildExecutable('cpu', { cudaDir: copyCuda('cuda-bad'), cacheDir: cache, extraFlags: [] }), (e: unknown) => {
        assert.ok(e instanceof RuntimeFailure);
        assert.match(e.message, /compiling spbench-cpu failed: .*bad-g\+\+ exited with status 1/);
        assert.match(e.message, /fix the error below/);
        assert.match(e.message, /--- compiler output .*\n.*error: boom/);
        return true;
      });
      assert.deepEqual(readdirSync(join(cache, 'bin')), []);
    });
  });

  it('no g++: says to install it', () =>
    withEnv({ SPBENCH_CXX: join(root, 'missing', 'g++') }, () =>
      assert.rejects(buildExecutable('cpu', { cacheDir: join(root, 'c1') }), /g\+\+ was not found.*install it/),
    ));

  it('no nvcc: GPU executables cannot be built, use --backend cpu', () =>
    withEnv({ SPBENCH_NVCC: join(root, 'missing', 'nvcc') }, () =>
      assert.rejects(buildExecutable('probe', { cacheDir: join(root, 'c2') }), /nvcc \(the CUDA compiler\) was not found.*SPBENCH_NVCC or CUDA_HOME.*--backend cpu/),
    ));

  it('an unwritable cache directory says to set SPBENCH_CACHE_DIR', async () => {
    const file = join(root, 'not-a-dir');
    writeFileSync(file, '');
    const cc = fakeCompiler('fake-g++-2', '1.0.0');
    await withEnv({ SPBENCH_CXX: cc.path }, () =>
      assert.rejects(buildExecutable('cpu', { cacheDir: join(file, 'cache') }), /cannot write the build cache .*not-a-dir\/cache\/bin: .*Set SPBENCH_CACHE_DIR to a writable directory/),
    );
  });

  it('a missing source file is named', async () => {
    const d = join(root, 'cuda-empty');
    mkdirSync(d, { recursive: true });
    await assert.rejects(buildExecutable('cpu', { cudaDir: d, cacheDir: join(root, 'c3') }), /the source of spbench-cpu \(.*cpu\/spbench_cpu\.cpp\) is missing/);
  });

  it('GPU targets: -arch=sm_XX from the compute capability, cuSPARSE/cuBLAS linked, missing libraries named', async () => {
    const nvcc = fakeCompiler('fake-nvcc', 'V13.0.1');
    const cudaDir = copyCuda('cuda-gpu');
    writeFileSync(join(cudaDir, 'drivers', 'spmm_cuda.cu'), 'int main() { return 0; }\n');
    // A toolkit with the library files present...
    const home = join(root, 'toolkit');
    mkdirSync(join(home, 'include'), { recursive: true });
    mkdirSync(join(home, 'lib64'), { recursive: true });
    for (const f of ['include/cublas_v2.h', 'lib64/libcusparse.so', 'lib64/libcublas.so.13']) writeFileSync(join(home, f), '');
    writeFileSync(join(home, 'include', 'cusparse.h'), '#define CUSPARSE_VER_MAJOR 12\n#define CUSPARSE_VER_MINOR 7\n#define CUSPARSE_VER_PATCH 1\n');
    writeFileSync(join(home, 'include', 'cublas_api.h'), '#define CUBLAS_VER_MAJOR 13\n#define CUBLAS_VER_MINOR 0\n#define CUBLAS_VER_PATCH 2\n');
    await withEnv({ SPBENCH_NVCC: nvcc.path, CUDA_HOME: home }, async () => {
      const tc = await discoverToolchain();
      assert.equal(tc.cusparse.version, '12.7.1');
      assert.equal(tc.cublas.version, '13.0.2');
    });
    const p = await withEnv({ SPBENCH_NVCC: nvcc.path, CUDA_HOME: home }, () => buildExecutable('spmm-cuda', { cudaDir, cacheDir: join(root, 'c4'), arch: '9.0', extraFlags: [] }));
    assert.match(p, /spbench-spmm-cuda-[0-9a-f]{16}$/);
    const args = readFileSync(nvcc.log, 'utf8');
    assert.match(args, /-arch=sm_90 /);
    assert.match(args, /-lcusparse -lcublas/);
    assert.match(args, new RegExp(`-I${home}/include`));
    // ...and one without them (skipped where the real toolkit has cuSPARSE, found as a fallback root).
    const empty = join(root, 'toolkit-empty');
    mkdirSync(empty, { recursive: true });
    await withEnv({ SPBENCH_NVCC: nvcc.path, CUDA_HOME: empty }, async () => {
      if ((await discoverToolchain()).cusparse.header) return; // this machine has cuSPARSE installed
      await assert.rejects(
        buildExecutable('spmm-cuda', { cudaDir, cacheDir: join(root, 'c5'), arch: '9.0' }),
        /cuSPARSE \(cusparse\.h, libcusparse\) header and library not found .*install the CUDA toolkit's cusparse development files.*--backend cpu/,
      );
    });
  });
});

describe('cache directory', () => {
  it('SPBENCH_CACHE_DIR, else $XDG_CACHE_HOME/spbench, else ~/.cache/spbench', async () => {
    await withEnv({ SPBENCH_CACHE_DIR: '/x/y', XDG_CACHE_HOME: '/xdg' }, async () => assert.equal(cacheDir(), '/x/y'));
    await withEnv({ SPBENCH_CACHE_DIR: undefined, XDG_CACHE_HOME: '/xdg' }, async () => assert.equal(cacheDir(), '/xdg/spbench'));
    await withEnv({ SPBENCH_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined }, async () => assert.match(cacheDir(), /\/\.cache\/spbench$/));
  });
});
