// Malformed Matrix Market files: each gives a UserError "file:line: ..." with a clear message, and
// `convert` leaves no output file behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { convertMatrixFile } from '../src/matrix/convert.js';
import { UserError } from '../src/util/errors.js';
import { scratchDir, writeText } from './mtx-helpers.js';

const dir = scratchDir('mtx-errors');
const B = '%%MatrixMarket matrix coordinate real general\n';

// [name, file text, expected line, message pattern]
const cases: [string, string, number, RegExp][] = [
  ['empty file', '', 1, /empty file/],
  ['no banner', '3 3 1\n1 1 1\n', 1, /not a Matrix Market file/],
  ['short banner', '%%MatrixMarket matrix coordinate real\n1 1 0\n', 1, /banner must be/],
  ['vector object', '%%MatrixMarket vector coordinate real general\n1 1 0\n', 1, /unsupported object "vector"/],
  ['unknown format', '%%MatrixMarket matrix sparse real general\n1 1 0\n', 1, /unknown format "sparse"/],
  ['complex field', '%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n', 1, /complex matrices are unsupported/],
  ['unknown field', '%%MatrixMarket matrix coordinate double general\n1 1 0\n', 1, /unknown field "double"/],
  ['unknown symmetry', '%%MatrixMarket matrix coordinate real diagonal\n1 1 0\n', 1, /unknown symmetry "diagonal"/],
  ['pattern array', '%%MatrixMarket matrix array pattern general\n1 1\n', 1, /pattern field is not allowed with the array format/],
  ['pattern skew', '%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 0\n', 1, /cannot be skew-symmetric/],
  ['missing size line', B + '% only a comment\n', 3, /file ends before the size line/],
  ['size line too short', B + '3 3\n', 2, /size line must be "rows cols entries"/],
  ['size line not numeric', B + '% c\n3 x 2\n', 3, /size line must be/],
  ['negative size', B + '-3 3 1\n', 2, /size line must be/],
  ['non-square symmetric', '%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n', 2, /must be square/],
  ['too few entries', B + '3 3 3\n1 1 1\n2 2 2\n', 5, /file ends after 2 of the 3 entries/],
  ['too many entries', B + '3 3 1\n1 1 1\n2 2 2\n', 4, /more entries than the 1/],
  ['row index zero', B + '3 3 2\n1 1 1\n0 2 1\n', 4, /row index 0 out of range 1\.\.3/],
  ['row index too big', B + '3 3 1\n% c\n4 1 1\n', 4, /row index 4 out of range/],
  ['column index too big', B + '3 3 1\n1 9 1\n', 3, /column index 9 out of range 1\.\.3/],
  ['missing value', B + '3 3 1\n1 1\n', 3, /expected a value/],
  ['missing column', B + '3 3 1\n1\n', 3, /expected a column index/],
  ['bad value', B + '3 3 1\n1 1 1.5x\n', 3, /bad value "1\.5x"/],
  ['bad exponent', B + '3 3 1\n1 1 1e\n', 3, /bad value "1e"/],
  ['extra field', B + '3 3 1\n1 1 1 7\n', 3, /unexpected text "7"/],
  ['pattern with value', '%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n', 3, /unexpected text "1"/],
  ['non-integer index', B + '3 3 1\n1.5 1 1\n', 3, /bad row index/],
  ['integer field with fraction', '%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n', 3, /integer field expects an integer value/],
  ['symmetric upper triangle', '%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 3 1\n', 3, /above the diagonal/],
  ['skew non-zero diagonal', '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 5\n', 4, /non-zero diagonal entry \(2, 2\)/],
  ['array too few values', '%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n', 6, /file ends after 3 of the 4 entries/],
  ['array too many values', '%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n', 5, /more entries than the 2/],
  ['array two values on a line', '%%MatrixMarket matrix array real general\n2 1\n1 2\n', 3, /one value per line/],
  ['text after the data', B + '1 1 1\n1 1 1\ntrailing garbage\n', 4, /more entries than the 1/],
];

test(`at least 20 malformed files are covered (${cases.length})`, () => {
  assert.ok(cases.length >= 20);
});

cases.forEach(([name, text, line, pattern], i) => {
  test(`malformed: ${name} → error at line ${line}, no output left`, async () => {
    const input = writeText(dir, `bad-${i}.mtx`, text);
    for (const ext of ['spb', 'mtx', 'csr']) {
      const output = join(dir, `out-${i}.${ext}`);
      await assert.rejects(
        convertMatrixFile({ input, output, cache: ext !== 'csr' }),
        (err: unknown) => {
          assert.ok(err instanceof UserError, `expected a UserError, got ${String(err)}`);
          assert.ok(err.message.startsWith(`${input}:${line}: `), `message "${err.message}" should start with "${input}:${line}: "`);
          assert.match(err.message, pattern);
          return true;
        },
      );
      assert.equal(existsSync(output), false, `${output} must not exist`);
    }
  });
});

test('no temporary files are left in the output directory', () => {
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('a directory given as a .mtx file is a UserError, not a crash', async () => {
  const { mkdirSync } = await import('node:fs');
  const d = join(dir, 'dir.mtx');
  mkdirSync(d);
  const { readMtx } = await import('../src/matrix/mtx-read.js');
  await assert.rejects(readMtx(d), (e: unknown) => e instanceof UserError && /dir\.mtx: cannot read: EISDIR/.test(e.message));
});

test('a missing input is a UserError naming the file', async () => {
  const input = join(dir, 'nope.mtx');
  await assert.rejects(convertMatrixFile({ input, output: join(dir, 'nope.spb') }), (e: unknown) => e instanceof UserError && /nope\.mtx/.test(e.message));
});
