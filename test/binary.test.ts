import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSpb, spbFileBytes, writeSpb } from '../src/matrix/binary.js';
import { UserError } from '../src/util/errors.js';
import { csrOf, plain, scratchDir } from './mtx-helpers.js';

const dir = scratchDir('binary');
const repo = fileURLToPath(new URL('../../', import.meta.url));
const A = csrOf(3, 4, [0, 2, 3, 5], [0, 3, 2, 0, 3], [1.5, -2, 0.1, 1e-310, -0]);
const B = csrOf(1, 1, [0, 1], [0], [7]);
const EMPTY = csrOf(2, 5, [0, 0, 0], [], []);

for (const valueType of ['f32', 'f64'] as const) {
  for (const indexWidth of [4, 8] as const) {
    test(`binary round trip ${valueType} int${indexWidth * 8}, batch of 3`, async () => {
      const path = join(dir, `rt-${valueType}-${indexWidth}.spb`);
      await writeSpb(path, [A, B, EMPTY], { valueType, indexWidth });
      const bytes = readFileSync(path);
      assert.equal(bytes.length, spbFileBytes([A, B, EMPTY], indexWidth, valueType));
      assert.equal(bytes.length % 8, 0);
      assert.equal(bytes.toString('latin1', 0, 4), 'SPBM');
      assert.equal(bytes[12], indexWidth);
      assert.equal(bytes[13], valueType === 'f32' ? 1 : 2);
      const back = await readSpb(path);
      assert.equal(back.valueType, valueType);
      assert.equal(back.indexWidth, indexWidth);
      const wantA = valueType === 'f64' ? A : { ...A, values: Float64Array.from(Float32Array.from(A.values)) };
      assert.deepEqual(back.matrices.map(plain), [wantA, B, EMPTY].map(plain));
      assert.ok(Object.is(back.matrices[0].values[4], -0));
    });
  }
}

async function corrupt(name: string, edit: (b: Buffer) => Buffer, pattern: RegExp) {
  const path = join(dir, `${name}.spb`);
  await writeSpb(path, [B, A], { valueType: 'f64', indexWidth: 4 });
  writeFileSync(path, edit(readFileSync(path)));
  await assert.rejects(readSpb(path), (e: unknown) => e instanceof UserError && e.message.startsWith(`${path}: `) && pattern.test(e.message));
}

// offsets: header 32; matrix 0 (B, 1x1 nnz 1): 24 + 8 + 8 + 8 = 48 → matrix 1 header at 80,
// its row_ptr at 104, col_idx at 120, values at 144.
test('binary validation: clear errors naming the file and the matrix', async () => {
  await corrupt('magic', (b) => (b.write('XXXX', 0), b), /bad magic/);
  await corrupt('version', (b) => (b.writeUInt32LE(9, 4), b), /unsupported \.spb version 9/);
  await corrupt('index', (b) => ((b[12] = 2), b), /index_bytes must be 4 or 8/);
  await corrupt('vtype', (b) => ((b[13] = 7), b), /value_type must be 1 \(f32\) or 2 \(f64\)/);
  await corrupt('truncated', (b) => b.subarray(0, b.length - 8), /file_bytes in header .* differs from file size/);
  await corrupt('tiny', (b) => b.subarray(0, 10), /too small/);
  await corrupt('rowptr', (b) => (b.writeInt32LE(1, 104 + 8), b), /matrix 1: row_ptr decreases at row 1/);
  await corrupt('colrange', (b) => (b.writeInt32LE(9, 120), b), /matrix 1: column index 9 out of range 0\.\.3 in row 0/);
  await corrupt('unsorted', (b) => (b.writeInt32LE(3, 120), b), /matrix 1: columns not strictly increasing in row 0/);
  await corrupt('count', (b) => (b.writeUInt32LE(3, 8), b), /matrix 2: header past end of file|past end of file/);
});

test('byte-compatible with cuda/common/binfmt.hpp (g++ reads ours and writes the same bytes)', async (t) => {
  if (spawnSync('g++', ['--version']).status !== 0) {
    t.skip('g++ not found');
    return;
  }
  const src = join(dir, 'rt.cpp');
  writeFileSync(
    src,
    `#include "binfmt.hpp"
#include <iostream>
int main(int argc, char** argv) {
  spb::SpbFile f = spb::read_spb(argv[1]);
  spb::write_spb(argv[2], f.mats, f.index_bytes, f.value_type);
  std::cout << f.mats.size() << " " << f.mats[0].nnz() << "\\n";
  return 0;
}
`,
  );
  const exe = join(dir, 'rt');
  execFileSync('g++', ['-std=c++17', '-O1', '-I', join(repo, 'cuda/common'), src, '-o', exe]);
  for (const valueType of ['f32', 'f64'] as const) {
    for (const indexWidth of [4, 8] as const) {
      const ours = join(dir, `cpp-in-${valueType}-${indexWidth}.spb`);
      const theirs = join(dir, `cpp-out-${valueType}-${indexWidth}.spb`);
      await writeSpb(ours, [A, EMPTY, B], { valueType, indexWidth });
      const out = execFileSync(exe, [ours, theirs], { encoding: 'utf8' });
      assert.equal(out.trim(), '3 5');
      assert.ok(readFileSync(ours).equals(readFileSync(theirs)), `bytes differ for ${valueType} int${indexWidth * 8}`);
      assert.deepEqual((await readSpb(theirs)).matrices.map(plain), (await readSpb(ours)).matrices.map(plain));
    }
  }
});
