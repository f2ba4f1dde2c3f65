import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matrixCacheDir, readMtxCached } from '../src/matrix/cache.js';
import { loadBatch, loadMatrix } from '../src/matrix/load.js';
import { writeSpb } from '../src/matrix/binary.js';
import { csrOf, dense, plain, scratchDir, writeText } from './mtx-helpers.js';

const dir = scratchDir('cache');
const B = '%%MatrixMarket matrix coordinate real general\n';

test('a .mtx is parsed once, then served from the cache', async () => {
  const p = writeText(dir, 'a.mtx', `${B}2 2 2\n1 1 3\n2 2 4\n`);
  const first = await readMtxCached(p);
  assert.equal(first.fromCache, false);
  const second = await readMtxCached(p);
  assert.equal(second.fromCache, true);
  assert.deepEqual(plain(second.matrix), plain(first.matrix));
  assert.equal(readdirSync(matrixCacheDir()).filter((f) => f.endsWith('.spb')).length, 1);
});

test('modifying the file invalidates the entry (re-parse, stale entry removed)', async () => {
  const p = writeText(dir, 'b.mtx', `${B}2 2 1\n1 1 3\n`);
  await readMtxCached(p);
  assert.equal((await readMtxCached(p)).fromCache, true);
  writeFileSync(p, `${B}2 2 1\n1 1 5\n`); // same size, new content
  const t = new Date(Date.now() + 5000);
  utimesSync(p, t, t);
  const again = await readMtxCached(p);
  assert.equal(again.fromCache, false);
  assert.deepEqual(dense(again.matrix), [[5, 0], [0, 0]]);
  // same size and the old mtime restored: the content sample still catches the edit
  writeFileSync(p, `${B}2 2 1\n1 1 7\n`);
  utimesSync(p, t, t);
  const third = await readMtxCached(p);
  assert.equal(third.fromCache, false);
  assert.deepEqual(dense(third.matrix), [[7, 0], [0, 0]]);
  const entries = readdirSync(matrixCacheDir()).filter((f) => f.endsWith('.spb'));
  assert.equal(entries.length, 2, 'one entry for a.mtx, one (the newest) for b.mtx');
});

test('a corrupt cache entry is replaced by a fresh parse', async () => {
  const p = writeText(dir, 'c.mtx', `${B}1 3 1\n1 2 9\n`);
  await readMtxCached(p);
  for (const f of readdirSync(matrixCacheDir())) writeFileSync(join(matrixCacheDir(), f), 'garbage');
  const r = await readMtxCached(p);
  assert.equal(r.fromCache, false);
  assert.deepEqual(dense(r.matrix), [[0, 9, 0]]);
  assert.equal((await readMtxCached(p)).fromCache, true);
});

test('loadMatrix reads .mtx and .spb; loadBatch reads a directory sorted by name and batch files', async () => {
  const bdir = join(dir, 'batch');
  (await import('node:fs')).mkdirSync(bdir);
  writeText(bdir, 'b.mtx', `${B}1 1 1\n1 1 2\n`);
  writeText(bdir, 'a.mtx', `${B}1 1 1\n1 1 1\n`);
  writeText(bdir, 'notes.txt', 'ignored');
  await writeSpb(join(bdir, 'c.spb'), [csrOf(1, 1, [0, 1], [0], [3]), csrOf(1, 1, [0, 1], [0], [4])], { valueType: 'f32' });
  const batch = await loadBatch(bdir);
  assert.deepEqual(batch.names, ['a.mtx', 'b.mtx', 'c.spb#0', 'c.spb#1']);
  assert.deepEqual(batch.matrices.map((m) => m.values[0]), [1, 2, 3, 4]);
  const single = await loadBatch(join(bdir, 'c.spb'));
  assert.equal(single.matrices.length, 2);
  assert.deepEqual(dense(await loadMatrix(join(bdir, 'a.mtx'))), [[1]]);
  await assert.rejects(loadMatrix(join(bdir, 'c.spb')), /batch of 2 matrices/);
  await assert.rejects(loadBatch(join(dir, 'missing-dir')), /no such file or directory/);
});
