// Repository layout rules: src/ has no import circle, and nothing outside dev/ uses dev/.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const tracked = (): string[] => execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Relative imports of a TypeScript file, static and dynamic, as repository paths of .ts files. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(re)) out.push(normalize(join(dirname(file), m[1])).replace(/\.js$/, '.ts').replace(/\.jsx$/, '.tsx'));
  return out;
}

/** Every import circle of a graph (each as the list of its files, first one repeated at the end). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 'open') cycles.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}

test('findCycles finds a circle through a dynamic import and none in a tree', () => {
  const g = new Map(Object.entries({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] }));
  assert.deepEqual(findCycles(g), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  assert.deepEqual(findCycles(new Map(Object.entries({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }))), []);
  assert.deepEqual(importsOf('src/x/y.ts', "import { a } from '../z/a.js';\nconst m = await import('./w.js');\nimport './side.js';"), ['src/z/a.ts', 'src/x/w.ts', 'src/x/side.ts']);
});

test('src/ has no import circle (static or dynamic imports)', () => {
  const files = tracked().filter((f) => f.startsWith('src/') && /\.tsx?$/.test(f));
  assert.ok(files.length > 50);
  const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(join(REPO, f), 'utf8')).filter((t) => files.includes(t))]));
  const cycles = findCycles(graph);
  assert.deepEqual(cycles.map((c) => c.join(' → ')), []);
});

test('no file outside dev/ uses dev/ (imports, includes, script paths); docs may name it', () => {
  const users = tracked()
    .filter((f) => !f.startsWith('dev/') && !f.endsWith('.md') && !f.startsWith('reports/') && f !== 'test/layout.test.ts')
    .filter((f) => /\.(ts|tsx|js|mjs|cjs|json|sh|cu|cuh|cpp|hpp|py|yml|yaml)$/.test(f) || f === '.ci/run')
    .filter((f) => {
      const text = readFileSync(join(REPO, f), 'utf8');
      return /(^|[\s'"(/.])dev\/(spgemm|spmm|README)/m.test(text) || /['"](\.\.\/)+dev\//.test(text);
    });
  assert.deepEqual(users.map((f) => relative(REPO, join(REPO, f))), []);
});

test('npm run dev runs the CLI from the sources through ts-node (--help)', () => {
  const r = spawnSync(process.execPath, ['--loader', 'ts-node/esm', '--no-warnings=ExperimentalWarning', 'src/cli/dev.ts', '--help'], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Usage: spbench \[options\] \[command\]/);
  assert.match(r.stdout, /spgemm \[options\] \[files\.\.\.\]/);
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(pkg.scripts.dev, /--loader ts-node\/esm .*src\/cli\/dev\.ts$/, 'the dev script is what this test runs');
});

test('reports/ holds what users and CI read: at most 44 files, each named in reports/README.md', () => {
  const files = tracked().filter((f) => f.startsWith('reports/'));
  // 44: a second device's baselines (reports/baselines/h200) beside the H100's
  assert.ok(files.length <= 44, `reports/ has ${files.length} files (at most 44: development logs belong in the notes)`);
  const readme = readFileSync(join(REPO, 'reports/README.md'), 'utf8');
  // the README names files by path below reports/, with {a,b} alternatives and its own folder's README implied
  const named = (f: string): boolean => {
    const rel = f.slice('reports/'.length);
    if (rel === 'README.md' || rel.endsWith('/README.md')) return true;
    const base = rel.split('/').pop() as string;
    return readme.includes(rel) || readme.includes(base) || [...readme.matchAll(/`([^`]*\{[^`]*\}[^`]*)`/g)].some((m) => expand(m[1]).some((p) => rel.endsWith(p)));
  };
  const missing = files.filter((f) => !named(f));
  assert.deepEqual(missing, [], `reports/README.md does not name: ${missing.join(', ')}`);
});

/** `a/{b,c}.{d,e}` → a/b.d, a/b.e, a/c.d, a/c.e */
function expand(pattern: string): string[] {
  const m = /\{([^}]*)\}/.exec(pattern);
  if (!m) return [pattern];
  return m[1].split(',').flatMap((alt) => expand(pattern.slice(0, m.index) + alt + pattern.slice(m.index + m[0].length)));
}

test('scripts run on the GPU machine (no node_modules there, only the bundle) import no package, directly or through dist/', () => {
  // scripts/gpu-test.mjs imported stats.js, which came to import jstat: the GPU tests could not start on the device
  const bare = (spec: string): boolean => !spec.startsWith('.') && !spec.startsWith('node:');
  const seen = new Set<string>();
  const problems: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(REPO, file), 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (bare(spec)) { problems.push(`${file} imports '${spec}'`); continue; }
      if (spec.startsWith('node:')) continue;
      let target = normalize(join(dirname(file), spec));
      if (target.startsWith('dist/src/')) target = target.replace(/^dist\//, '').replace(/\.js$/, '.ts');
      else if (target.startsWith('src/')) target = target.replace(/\.js$/, '.ts');
      else continue;
      visit(target);
    }
  };
  visit('scripts/gpu-test.mjs');
  assert.deepEqual(problems, []);
  assert.ok(seen.size > 1, 'gpu-test.mjs was expected to import a module of src/ (the seeded PRNG)');
});
