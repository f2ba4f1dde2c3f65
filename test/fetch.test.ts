// `spbench fetch` against a local HTTP server of the test's own (127.0.0.1, no internet): download,
// cache hit, offline use, a truncated transfer detected and resumed, a bad archive refused, unknown
// names with the nearest known ones, --set, and a suite naming the set.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { create as tarCreate } from 'tar';
import { nearest } from '../src/fetch/nearest.js';
import { resolveWanted } from '../src/fetch/suitesparse.js';
import { cacheDir as cacheRoot } from '../src/config.js';
import { loadSet, setNames } from '../src/matrix/sets.js';

const BIN = fileURLToPath(new URL('../../bin/spbench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spbench-fetch-'));
const cache = join(dir, 'cache');
// the built executables come from the user's cache (spbench-cpu is built once for all tests)
mkdirSync(cache, { recursive: true });
mkdirSync(join(cacheRoot(), 'bin'), { recursive: true });
symlinkSync(join(cacheRoot(), 'bin'), join(cache, 'bin'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function archive(group: string, name: string, rows: number): Promise<Buffer> {
  const src = join(dir, 'src', group);
  mkdirSync(join(src, name), { recursive: true });
  let x = rows;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const lines = Array.from({ length: rows }, (_, i) => `${i + 1} ${((i + 1) % rows) + 1} ${rnd()}`);
  writeFileSync(join(src, name, `${name}.mtx`), `%%MatrixMarket matrix coordinate real general\n${rows} ${rows} ${rows}\n${lines.join('\n')}\n`);
  const out = join(dir, `${group}-${name}.tar.gz`);
  await tarCreate({ gzip: true, file: out, cwd: src, portable: true }, [name]);
  return readFileSync(out);
}

const files = new Map<string, Buffer>();
const requests: string[] = [];
let flakyServed = 0;
let server: Server;
let mirror = '';

before(async () => {
  files.set('/MM/Test/demo.tar.gz', await archive('Test', 'demo', 40));
  files.set('/MM/Test/flaky.tar.gz', await archive('Test', 'flaky', 20000)); // large enough to cut in the middle
  files.set('/MM/Test/garbage.tar.gz', Buffer.from('<html>this is an error page, not an archive</html>\n'));
  for (const m of loadSet('gnn-small').matrices) files.set(`/MM/${m.group}/${m.name}.tar.gz`, await archive(m.group, m.name, 32 + m.name.length));
  server = createServer((req, res) => {
    requests.push(`${req.url} ${req.headers.range ?? ''}`.trim());
    const body = files.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (req.url === '/MM/Test/flaky.tar.gz' && flakyServed++ === 0) {
      // the first transfer promises everything and breaks off in the middle
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => res.destroy(), 300));
      return;
    }
    if (range) {
      const from = Number(range[1]);
      res.writeHead(206, { 'content-length': body.length - from, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` });
      res.end(body.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server?.close());

/** The CLI as a child, asynchronously (the server answers from this process). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, CI: '1', SPBENCH_CACHE_DIR: cache, SPBENCH_MIRROR: mirror, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const cached = (group: string, name: string) => join(cache, 'suitesparse', group, `${name}.tar.gz`);

test('the shipped sets validate; names resolve; typos get the nearest known names', () => {
  assert.deepEqual(setNames(), ['gnn-small', 'spgemm-classic']);
  const classic = loadSet('spgemm-classic');
  assert.equal(classic.matrices.length, 16);
  assert.deepEqual(resolveWanted('cant'), { group: 'Williams', name: 'cant', bytes: undefined, sha256: undefined });
  assert.deepEqual(resolveWanted('Some/Thing'), { group: 'Some', name: 'Thing' });
  assert.throws(() => resolveWanted('cnat'), /unknown matrix "cnat".*nearest known names: Williams\/cant/);
  assert.deepEqual(nearest('webbase-1m', ['Williams/webbase-1M', 'Gleich/wb-edu', 'Newman/karate'], 3)[0], 'Williams/webbase-1M');
});

test('download with a progress line, then a cache hit without network, then offline use', async () => {
  const r = await cli(['fetch', 'Test/demo']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Test\/demo: downloaded .*demo\.tar\.gz \(\d+ bytes\)/);
  assert.match(r.stderr, /Test\/demo: [\d.]+ MB of [\d.]+ MB \(100 %\)/);
  assert.deepEqual(readFileSync(cached('Test', 'demo')), files.get('/MM/Test/demo.tar.gz'));
  const info = await cli(['info', cached('Test', 'demo'), '--json']);
  assert.equal(info.code, 0, info.stderr);
  assert.equal(JSON.parse(info.stdout).nnz, 40);
  const before = requests.length;
  const again = await cli(['fetch', 'Test/demo', '--json']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).status, 'cached');
  assert.equal(requests.length, before, 'a cache hit makes no request');
  // offline: a mirror that refuses connections (a port that was just free)
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const offline = { SPBENCH_MIRROR: `http://127.0.0.1:${port}` };
  assert.equal((await cli(['fetch', 'Test/demo'], offline)).code, 0);
  const down = await cli(['fetch', 'Test/other'], offline);
  assert.equal(down.code, 3, down.stderr);
  assert.match(down.stderr, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): the network or the mirror is unreachable`));
  // --mirror wins over the environment
  const viaFlag = await cli(['fetch', 'Test/demo', '--mirror', mirror], offline);
  assert.equal(viaFlag.code, 0);
});

test('a transfer cut short is detected and resumed with a Range request; the file is whole', async () => {
  const r = await cli(['fetch', 'Test/flaky']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Test\/flaky: (transfer broke off|got \d+ of \d+ bytes).*retrying/);
  assert.match(r.stderr, /Test\/flaky: resuming at \d+ bytes/);
  assert.ok(requests.some((q) => /^\/MM\/Test\/flaky\.tar\.gz bytes=\d+-$/.test(q)), requests.join('\n'));
  assert.deepEqual(readFileSync(cached('Test', 'flaky')), files.get('/MM/Test/flaky.tar.gz'));
  assert.ok(!existsSync(`${cached('Test', 'flaky')}.part`));
});

test('a download that is not a good archive is refused after its attempts; nothing is left in the cache', async () => {
  const r = await cli(['fetch', 'Test/garbage']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /Test\/garbage: the download is not a good archive: .*not valid gzip data/);
  assert.match(r.stderr, /download from .* failed after 3 attempts/);
  assert.deepEqual(readdirSync(join(cache, 'suitesparse', 'Test')).filter((f) => f.startsWith('garbage')), []);
});

test('unknown names: a typo lists the nearest known names (exit 2); a 404 names the URL', async () => {
  const typo = await cli(['fetch', 'pdb1hs']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown matrix "pdb1hs".*nearest known names: Williams\/pdb1HYS/);
  const missing = await cli(['fetch', 'Test/nope']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Test\/nope: not found at http:\/\/127\.0\.0\.1:\d+\/MM\/Test\/nope\.tar\.gz \(HTTP 404\)/);
  assert.equal((await cli(['fetch'])).code, 2);
  assert.equal((await cli(['fetch', '--set', 'no-such-set'])).code, 2);
});

test('a suite naming a set runs what is fetched and says what is missing; --set fetches the rest', async () => {
  const suite = join(dir, 'gnn.json');
  writeFileSync(suite, JSON.stringify({ name: 'gnn', cases: [{ op: 'spmm', name: 'gnn', matrices: 'set:gnn-small', nb: 4 }] }));
  const none = await cli(['run', suite, '--validate']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /set:gnn-small: none of its 7 matrices is in the cache.*spbench fetch --set gnn-small/);
  assert.equal((await cli(['fetch', 'Newman/karate'])).code, 0);
  const partial = await cli(['run', suite, '--validate']);
  assert.equal(partial.code, 0, partial.stderr);
  assert.match(partial.stderr, /set:gnn-small: running 1 of 7 matrices; not fetched: Newman\/dolphins, /);
  const all = await cli(['fetch', '--set', 'gnn-small']);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stdout.trim().split('\n').length, 7);
  const run = await cli(['run', suite, '--backend', 'cpu', '--json', join(dir, 'gnn-result.json')], { SPBENCH_CACHE_DIR: cache });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /not fetched/);
  const result = JSON.parse(readFileSync(join(dir, 'gnn-result.json'), 'utf8'));
  assert.equal(result.cases[0].params.batch, 7);
});
