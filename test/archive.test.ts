// Compressed and archived input (.mtx.gz, SuiteSparse .tar.gz with several members): the same
// figures and results as the plain files, streamed, cached on the archive's bytes; malformed
// archives are errors naming the file with nothing written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { create as tarCreate } from 'tar';
import { ResultFile } from '../src/results/schema.js';
import { listArchive, readArchiveMtx } from '../src/matrix/archive.js';
import { matrixCacheDir } from '../src/matrix/cache.js';
import { cacheDir as cacheRoot } from '../src/config.js';
import { loadMatrix } from '../src/matrix/load.js';
import { parseMatrixRef } from '../src/matrix/matrix-ref.js';
import { spbench } from './cli-helpers.js';
import { plain, scratchDir } from './mtx-helpers.js';

// CLI runs share the user's cache of built executables (spbench-cpu is built once for all tests)
const userCache = { SPBENCH_CACHE_DIR: cacheRoot() };
const dir = scratchDir('archive');
after(() => rmSync(dir, { recursive: true, force: true }));

// main: 5x5 symmetric (expanded on read), member _b: 5x2 right-hand sides
const MAIN = `%%MatrixMarket matrix coordinate real symmetric
% demo matrix
5 5 8
1 1 4
2 1 -1
2 2 4.5
3 3 2e-3
4 2 0.25
4 4 7
5 3 -1.125
5 5 3
`;
const RHS = `%%MatrixMarket matrix coordinate real general
5 2 3
1 1 1
4 2 -2
5 1 0.5
`;

const at = (name: string) => join(dir, name);

async function tarGz(name: string, folder: string, files: Record<string, string | Buffer>, gzip = true): Promise<string> {
  const src = join(dir, `src-${name}`);
  mkdirSync(join(src, folder), { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(src, folder, f), text);
  const out = at(name);
  await tarCreate({ gzip, file: out, cwd: src, portable: true }, [folder]);
  return out;
}

writeFileSync(at('demo.mtx'), MAIN);
writeFileSync(at('demo_b.mtx'), RHS);
writeFileSync(at('demo.mtx.gz'), gzipSync(MAIN));

test('archive:member arguments split only after an archive name', () => {
  assert.deepEqual(parseMatrixRef('x/cant.tar.gz:cant_b'), { file: 'x/cant.tar.gz', member: 'cant_b' });
  assert.deepEqual(parseMatrixRef('cant.tgz:cant_b'), { file: 'cant.tgz', member: 'cant_b' });
  assert.deepEqual(parseMatrixRef('cant.tar.gz'), { file: 'cant.tar.gz' });
  assert.deepEqual(parseMatrixRef('a:b.mtx'), { file: 'a:b.mtx' });
});

test('.mtx.gz, both members of a two-member .tar.gz and their plain twins give identical info', async () => {
  await tarGz('demo.tar.gz', 'demo', { 'demo.mtx': MAIN, 'demo_b.mtx': RHS, 'README.txt': 'not a matrix\n' });
  const info = (arg: string) => {
    const r = spbench(['info', arg, '--json'], { SPBENCH_CACHE_DIR: join(dir, 'cli-cache') });
    assert.equal(r.code, 0, r.stderr);
    const { file, members, ...figures } = JSON.parse(r.stdout);
    return { file, members, figures };
  };
  const plainMain = info(at('demo.mtx'));
  assert.equal(plainMain.figures.nnz, 11); // symmetric, expanded
  assert.deepEqual(info(at('demo.mtx.gz')).figures, plainMain.figures);
  const archived = info(at('demo.tar.gz'));
  assert.deepEqual(archived.figures, plainMain.figures);
  assert.deepEqual(
    archived.members.map((m: { path: string; header?: { rows: number; cols: number; entries: number } }) => [m.path, m.header?.rows, m.header?.cols, m.header?.entries]),
    [['demo/demo.mtx', 5, 5, 8], ['demo/demo_b.mtx', 5, 2, 3], ['demo/README.txt', undefined, undefined, undefined]],
  );
  assert.deepEqual(info(`${at('demo.tar.gz')}:demo_b`).figures, info(at('demo_b.mtx')).figures);
  assert.deepEqual(info(`${at('demo.tar.gz')}:demo/demo_b.mtx`).figures, info(at('demo_b.mtx')).figures);
  // the text form lists the members too
  const text = spbench(['info', at('demo.tar.gz')], { SPBENCH_CACHE_DIR: join(dir, 'cli-cache') });
  assert.match(text.stdout, /archive members\s+demo\/demo\.mtx \(\d+ bytes, 5 × 5, 8 entries, real symmetric\)\n\s+demo\/demo_b\.mtx/);
});

test('spgemm (CPU backend) and spmm --matrices give identical results on plain, .mtx.gz and .tar.gz inputs', async () => {
  await tarGz('demo.tar.gz', 'demo', { 'demo.mtx': MAIN, 'demo_b.mtx': RHS });
  const FAST = ['--backend', 'cpu', '--warmup', '0', '--samples', '2', '--json', '-'];
  const run = (args: string[]) => {
    const r = spbench(args, userCache);
    assert.equal(r.code, 0, r.stderr);
    return ResultFile.parse(JSON.parse(r.stdout));
  };
  const essence = (f: ResultFile) =>
    f.cases.map((c) => ({
      input: { ...c.input, source: undefined, b_source: undefined },
      // info without reference_cached: a later run of the same product reads the cached reference (bookkeeping, like timings)
      results: c.results.map((r) => ({ method: r.method, status: r.status, verify: r.verify.passed, flops: r.flops, info: { ...r.info, reference_cached: undefined } })),
    }));
  const base = essence(run(['spgemm', at('demo.mtx'), '--b', at('demo_b.mtx'), ...FAST]));
  assert.equal(base[0].results[0].verify, true);
  assert.deepEqual(essence(run(['spgemm', at('demo.mtx.gz'), '--b', `${at('demo.tar.gz')}:demo_b`, ...FAST])), base);
  assert.deepEqual(essence(run(['spgemm', at('demo.tar.gz'), '--b', `${at('demo.tar.gz')}:demo_b`, ...FAST])), base);
  // a directory batch mixing the three kinds equals the plain directory
  const plainDir = at('batch-plain');
  const packedDir = at('batch-packed');
  mkdirSync(plainDir);
  mkdirSync(packedDir);
  writeFileSync(join(plainDir, 'a.mtx'), MAIN);
  writeFileSync(join(plainDir, 'b.mtx'), RHS.replace('5 2 3', '5 5 3'));
  writeFileSync(join(packedDir, 'a.mtx.gz'), gzipSync(MAIN));
  writeFileSync(join(packedDir, 'b.mtx'), RHS.replace('5 2 3', '5 5 3'));
  const spmm = (d: string) => essence(run(['spmm', '--matrices', d, '--nb', '3', ...FAST]));
  assert.deepEqual(spmm(packedDir), spmm(plainDir));
});

test('convert from an archive member writes the same file as from the plain file', () => {
  const a = spbench(['convert', `${at('demo.tar.gz')}:demo_b`, at('from-archive.mtx')]);
  assert.equal(a.code, 0, a.stderr);
  const b = spbench(['convert', at('demo_b.mtx'), at('from-plain.mtx')]);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(readFileSync(at('from-archive.mtx'), 'utf8'), readFileSync(at('from-plain.mtx'), 'utf8'));
});

test('the main member is the one named like the archive, else the only .mtx member', async () => {
  const only = await tarGz('renamed.tar.gz', 'whatever', { 'inner.mtx': RHS, 'notes.txt': 'x\n' });
  assert.equal((await readArchiveMtx({ file: only })).member, 'whatever/inner.mtx');
  const two = await tarGz('ambiguous.tar.gz', 'x', { 'p.mtx': RHS, 'q.mtx': RHS });
  await assert.rejects(readArchiveMtx({ file: two }), /ambiguous\.tar\.gz: no member named ambiguous\.mtx and several \.mtx members \(x\/p\.mtx, x\/q\.mtx\); pick one/);
  assert.equal((await readArchiveMtx({ file: two, member: 'q' })).member, 'x/q.mtx');
  const tarOnly = await tarGz('plain.tar', 'plain', { 'plain.mtx': MAIN }, false);
  assert.deepEqual(plain((await readArchiveMtx({ file: tarOnly })).matrix), plain(await loadMatrix(at('demo.mtx'), { cache: false })));
  assert.equal((await listArchive(two)).main, undefined);
});

test('the parse cache keys on the archive bytes and the member', async () => {
  const file = await tarGz('cached.tar.gz', 'cached', { 'cached.mtx': MAIN, 'cached_b.mtx': RHS });
  const before = new Set(readdirSync(matrixCacheDir(), { withFileTypes: false }).map(String));
  const main1 = await loadMatrix(file);
  const b1 = await loadMatrix(`${file}:cached_b`);
  const added = readdirSync(matrixCacheDir()).filter((f) => !before.has(f));
  assert.equal(added.length, 2, 'one entry per member');
  assert.deepEqual(plain(await loadMatrix(file)), plain(main1));
  assert.deepEqual(plain(await loadMatrix(`${file}:cached_b`)), plain(b1));
  // new bytes under the same name: a fresh parse, not the stale entry
  await tarGz('cached.tar.gz', 'cached', { 'cached.mtx': MAIN.replace('5 5 3', '5 5 9'), 'cached_b.mtx': RHS });
  const t = new Date(Date.now() + 10_000);
  utimesSync(file, t, t);
  const main2 = await loadMatrix(file);
  assert.deepEqual(Array.from(main2.values).at(-1), 9);
});

test('malformed input: each case is an error naming the file, exit 2, nothing written', async () => {
  const good = readFileSync(await tarGz('good.tar.gz', 'good', { 'good.mtx': MAIN }));
  const tarBytes = readFileSync(await tarGz('good.tar', 'good', { 'good.mtx': MAIN }, false));
  writeFileSync(at('trunc.tar.gz'), good.subarray(0, good.length - 30));
  writeFileSync(at('cut-tar.tar.gz'), gzipSync(tarBytes.subarray(0, 700)));
  writeFileSync(at('cut-body.tar.gz'), gzipSync(tarBytes.subarray(0, 1024 + 512)));
  writeFileSync(at('badgz.tar.gz'), Buffer.from('this is not gzip at all\n'));
  writeFileSync(at('badgz.mtx.gz'), Buffer.from('%%MatrixMarket matrix coordinate real general\n'));
  writeFileSync(at('trunc.mtx.gz'), gzipSync(MAIN).subarray(0, 40));
  writeFileSync(at('notar.tar.gz'), gzipSync('just text, not a tar stream\n'));
  await tarGz('nomatrix.tar.gz', 'nomatrix', { 'README.txt': 'no matrix here\n' });
  await tarGz('badline.tar.gz', 'badline', { 'badline.mtx': MAIN.replace('4 2 0.25', '4 2 0.25x') });
  const cases: [string, RegExp][] = [
    ['trunc.tar.gz', /trunc\.tar\.gz: truncated gzip data/],
    ['cut-tar.tar.gz', /cut-tar\.tar\.gz: truncated tar archive/],
    ['cut-body.tar.gz', /cut-body\.tar\.gz: truncated tar archive/],
    ['badgz.tar.gz', /badgz\.tar\.gz: not valid gzip data/],
    ['badgz.mtx.gz', /badgz\.mtx\.gz: not valid gzip data/],
    ['trunc.mtx.gz', /trunc\.mtx\.gz: truncated gzip data/],
    ['notar.tar.gz', /notar\.tar\.gz: not a valid tar archive/],
    ['nomatrix.tar.gz', /nomatrix\.tar\.gz: no matrix member: it holds no \.mtx member \(entries: nomatrix\/README\.txt\)/],
    ['good.tar.gz:nope', /good\.tar\.gz: no member "nope"; its \.mtx members are good\/good\.mtx/],
    ['badline.tar.gz', /badline\.tar\.gz:badline\/badline\.mtx:8: bad value "0\.25x"/],
  ];
  const cache = join(dir, 'malformed-cache');
  for (const [arg, message] of cases) {
    const out = at(`out-${arg.replace(/[:/]/g, '_')}.spb`);
    const r = spbench(['convert', at(arg), out], { SPBENCH_CACHE_DIR: cache });
    assert.equal(r.code, 2, `${arg}: ${r.stderr}`);
    assert.match(r.stderr, message, arg);
    assert.ok(!existsSync(out), `${arg}: no output file`);
  }
  const leftovers = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
  assert.deepEqual(leftovers, []);
  assert.ok(!existsSync(join(cache, 'matrices')) || readdirSync(join(cache, 'matrices')).length === 0, 'nothing cached from a bad archive');
});
