import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/spbench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spbench-info-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function spbench(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1', SPBENCH_CACHE_DIR: join(dir, '.cache') } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// The 3x3 of stats.test.ts: rows {0,1}, {2}, {0}; A·A has 6 products and 6 nonzeros.
const small = `%%MatrixMarket matrix coordinate real general
3 3 4
1 1 1
1 2 2
2 3 3
3 1 4
`;

test('info prints the figures of a .mtx as aligned key/value lines', () => {
  writeFileSync(join(dir, 'a.mtx'), small);
  const r = spbench('info', 'a.mtx');
  assert.equal(r.code, 0, r.stderr);
  const kv = new Map(r.stdout.trimEnd().split('\n').map((l) => [l.slice(0, l.indexOf('  ')), l.slice(l.indexOf('  ')).trim()]));
  assert.equal(kv.get('rows × cols'), '3 × 3');
  assert.match(kv.get('nnz') ?? '', /^4 \(density 4\.44e-1\)$/);
  assert.equal(kv.get('nnz/row'), 'min 1, max 2, mean 1.33, stddev 0.47');
  assert.equal(kv.get('empty rows'), '0');
  assert.equal(kv.get('diagonal entries'), '1');
  assert.equal(kv.get('bandwidth'), '2 (max |i-j|)');
  assert.equal(kv.get('symmetric pattern'), 'no');
  assert.equal(kv.get('products of A·A'), '6 (row max 3)');
  assert.equal(kv.get('nnz(A·A)'), 'not computed (use --nnz-c)');
});

test('info --json --nnz-c gives every figure as JSON', () => {
  writeFileSync(join(dir, 'a.mtx'), small);
  const r = spbench('info', 'a.mtx', '--json', '--nnz-c');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    [j.file, j.rows, j.cols, j.nnz, j.nnzPerRow.min, j.nnzPerRow.max, j.emptyRows, j.diagonal, j.bandwidth, j.symmetricPattern, j.symmetricValues, j.productsAA, j.productsAARowMax, j.nnzAA],
    ['a.mtx', 3, 3, 4, 1, 2, 0, 1, 2, false, false, 6, 3, 6],
  );
});

test('info on a batch (.spb of several matrices) prints a batch summary', () => {
  assert.equal(spbench('gen', '--batch', '4', '--dim', '10', '--nnz-row', '2', '-o', 'b.spb').code, 0);
  const r = spbench('info', 'b.spb', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual([j.batch.count, j.batch.rows.min, j.batch.rows.max, j.batch.totalNnz, j.batch.nnzPerRow.min, j.batch.nnzPerRow.max], [4, 10, 10, 80, 2, 2]);
  const text = spbench('info', 'b.spb');
  assert.match(text.stdout, /^matrices +4$/m);
  assert.match(text.stdout, /^nnz in total +80$/m);
});

test('info on a generated stencil reports symmetry; a missing file is a clear error', () => {
  assert.equal(spbench('gen', 'stencil:dims=2,n=6,points=5', '-o', 's.mtx').code, 0);
  const j = JSON.parse(spbench('info', 's.mtx', '--json').stdout);
  assert.deepEqual([j.rows, j.nnz, j.symmetricPattern, j.symmetricValues, j.diagonal, j.bandwidth], [36, 5 * 36 - 4 * 6, true, true, 36, 6]);
  const r = spbench('info', 'nope.mtx');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^spbench: .*nope\.mtx/);
});
