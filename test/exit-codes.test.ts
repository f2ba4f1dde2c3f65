// One test per exit code of the table in src/util/errors.ts (EXIT), each through the real CLI on the
// CPU backend: 0 ok, 1 regression / failed verification, 2 usage or input error, 3 environment,
// 4 internal error (a crash must never read as a regression).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { exitCodeFor } from '../src/cli/main.js';
import { EXIT, EnvironmentError, RuntimeFailure, UserError } from '../src/util/errors.js';
import { spbench } from './cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spbench-exit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const FAST = ['--backend', 'cpu', '--warmup', '0', '--samples', '3', '--batch', '3', '--dim', '6', '--nb', '4'];

test('the table is 0 ok, 1 regression, 2 usage, 3 environment, 4 internal, 5 throttled', () => {
  assert.deepEqual(EXIT, { ok: 0, regression: 1, usage: 2, environment: 3, internal: 4, throttled: 5 });
});

test('exitCodeFor: each error class maps to its code; anything unexpected is internal', () => {
  const quiet = process.stderr.write;
  process.stderr.write = () => true;
  try {
    assert.deepEqual(
      [new UserError('u'), new EnvironmentError('e'), new RuntimeFailure('r'), new TypeError('bug')].map(exitCodeFor),
      [EXIT.usage, EXIT.environment, EXIT.internal, EXIT.internal],
    );
  } finally {
    process.stderr.write = quiet;
  }
});

test('exit 0: a run that did what was asked', () => {
  const r = spbench(['spmm', ...FAST, '--quiet']);
  assert.equal(r.code, EXIT.ok, r.stderr);
});

test('exit 1: compare against a new file whose method failed verification', () => {
  const base = join(dir, 'base.json');
  const neu = join(dir, 'new.json');
  assert.equal(spbench(['spmm', ...FAST, '--json', base]).code, 0);
  const faulty = spbench(['spmm', ...FAST, '--json', neu], { SPBENCH_NATIVE_ARGS: '--inject-fault' });
  assert.equal(faulty.code, EXIT.ok, 'the run itself records the FAILED method and succeeds');
  const r = spbench(['compare', base, neu]);
  assert.equal(r.code, EXIT.regression, r.stderr);
  assert.match(r.stdout, /REGRESSION/);
});

test('exit 2: a bad option value, named in one sentence', () => {
  const r = spbench(['spmm', '--nb', '0']);
  assert.equal(r.code, EXIT.usage);
  assert.equal(r.stderr, "spbench: --nb: '0' is not a positive integer\n");
});

test('exit 3: --backend cuda where no CUDA compiler exists', () => {
  const r = spbench(['spgemm', '--gen', 'banded:n=8,bw=1', '--backend', 'cuda'], { SPBENCH_NVCC: '/nonexistent/spbench-test/nvcc', PATH: '/usr/bin:/bin', CUDA_HOME: '/nonexistent' });
  assert.equal(r.code, EXIT.environment, r.stderr);
  assert.match(r.stderr, /--backend cuda is not possible for spgemm: .*--backend cpu/);
});

test('exit 4: the native executable crashes (an internal error, not a regression)', () => {
  // a CPU backend built from sources that abort at once
  const src = join(dir, 'crashing-cuda');
  mkdirSync(join(src, 'cpu'), { recursive: true });
  mkdirSync(join(src, 'common'), { recursive: true });
  writeFileSync(join(src, 'cpu', 'spbench_cpu.cpp'), '#include <cstdlib>\nint main() { std::abort(); }\n');
  const r = spbench(['spmm', ...FAST], { SPBENCH_CUDA_DIR: src, SPBENCH_CACHE_DIR: join(dir, 'cache') });
  assert.equal(r.code, EXIT.internal, r.stderr);
  assert.match(r.stderr, /spbench-cpu-[0-9a-f]+ spmm .*killed by signal SIGABRT \(crashed or was stopped\)/);
});
