import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assembleResultFile, commandLine, gitCommit } from '../src/bench/env.js';
import { PACKAGE_DIR, packageVersion as spbenchVersion } from '../src/util/package-root.js';
import { ResultFile } from '../src/results/schema.js';
import { fixtureFile } from './bench-helpers.js';

test('gitCommit: SPBENCH_COMMIT, else HEAD of a checkout, else null', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spbench-env-'));
  try {
    assert.equal(gitCommit(dir, {}), null);
    // a copy without .git (the GPU machine) takes the commit from SPBENCH_COMMIT, when it is a full sha
    const sha = 'a'.repeat(40);
    assert.equal(gitCommit(dir, { SPBENCH_COMMIT: sha }), sha);
    assert.equal(gitCommit(dir, { SPBENCH_COMMIT: 'not-a-sha' }), null);
    // a copied tree whose .git is not a usable repository falls back the same way
    mkdirSync(join(dir, '.git'));
    assert.equal(gitCommit(dir, { SPBENCH_COMMIT: sha }), sha);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (existsSync(join(PACKAGE_DIR, '.git'))) {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();
    assert.equal(gitCommit(PACKAGE_DIR, {}), head);
    // a given commit wins over the checkout's HEAD (a copied tree's .git may be stale)
    const other = head === 'b'.repeat(40) ? 'c'.repeat(40) : 'b'.repeat(40);
    assert.equal(gitCommit(PACKAGE_DIR, { SPBENCH_COMMIT: other }), other);
  }
});

test('assembleResultFile: environment, command line and the device from the env line', () => {
  const gpu = fixtureFile('cuda').device!;
  const file = assembleResultFile({
    backend: 'cuda',
    env: { type: 'env', protocol: 1, backend: 'cuda', executable: 'x', devices: [gpu], cuda: { runtime: '13.0', driver: '13.0' } },
    cases: [],
    argv: ['node', 'spbench.js', 'spmm', '--batch', '100'],
  });
  ResultFile.parse(file);
  assert.deepEqual(file.command, ['spbench', 'spmm', '--batch', '100']);
  assert.equal(file.device?.name, 'NVIDIA H100');
  assert.equal(file.spbench.version, spbenchVersion());
  assert.match(file.host.node, /^v\d+/);
  const cpu = assembleResultFile({ backend: 'cpu', env: null, cases: [] });
  assert.equal(cpu.device, null);
  assert.deepEqual(commandLine(['node', 'x']), ['spbench']);
});

test('inCi: CI=true/1 count, CI unset, empty, 0 or false do not', async () => {
  const { inCi } = await import('../src/config.js');
  assert.equal(inCi({ CI: 'true' }), true);
  assert.equal(inCi({ CI: '1' }), true);
  for (const v of [undefined, '', '0', 'false', 'FALSE']) assert.equal(inCi({ CI: v }), false, String(v));
});
