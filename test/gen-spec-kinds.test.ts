// The grammar of the structure-class specs (powerlaw, fem, circuit, longrow, perm, multimodal,
// irregular): defaults, round trips, and one error per bad key or value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatGenSpec, nnzBound, parseGenSpec, type GenSpec } from '../src/matrix/generate/index.js';
import { UserError } from '../src/util/errors.js';

test('the class specs parse with their defaults and round-trip through formatGenSpec', () => {
  const cases: [string, GenSpec][] = [
    ['powerlaw:rows=1000,avg=8,max=200', { kind: 'powerlaw', rows: 1000, cols: 1000, avg: 8, max: 200, alpha: 2.1, skew: 1 }],
    ['powerlaw:rows=10,cols=50,avg=2.5,max=40,alpha=1,skew=0', { kind: 'powerlaw', rows: 10, cols: 50, avg: 2.5, max: 40, alpha: 1, skew: 0 }],
    ['fem:dims=3,n=22,block=3', { kind: 'fem', dims: 3, n: 22, block: 3 }],
    ['fem:dims=2,n=5,block=1', { kind: 'fem', dims: 2, n: 5, block: 1 }],
    ['circuit:rows=170000,nnz_row=3,hubs=30,hub_size=4000', { kind: 'circuit', rows: 170000, nnzRow: 3, hubs: 30, hubSize: 4000 }],
    ['longrow:n=150000,bw=1,long_rows=1', { kind: 'longrow', n: 150000, band: { lo: 1, hi: 1 }, longRows: 1, longCols: 0 }],
    ['longrow:n=1100000,bw_lo=0,bw_hi=1,long_rows=1', { kind: 'longrow', n: 1100000, band: { lo: 0, hi: 1 }, longRows: 1, longCols: 0 }],
    ['longrow:n=100,bw_hi=2,long_rows=0', { kind: 'longrow', n: 100, band: { lo: 0, hi: 2 }, longRows: 0, longCols: 0 }],
    ['longrow:n=100000,long_rows=1,long_cols=1', { kind: 'longrow', n: 100000, band: null, longRows: 1, longCols: 1 }],
    ['perm:n=3000000', { kind: 'perm', n: 3000000, cols: 3000000 }],
    ['perm:n=10,cols=70', { kind: 'perm', n: 10, cols: 70 }],
    ['multimodal:rows=1000,lens=2/24/600,weights=60/39/1', { kind: 'multimodal', rows: 1000, cols: 1000, lens: [2, 24, 600], weights: [60, 39, 1] }],
    ['multimodal:rows=5,cols=9,lens=0/9,weights=1/0', { kind: 'multimodal', rows: 5, cols: 9, lens: [0, 9], weights: [1, 0] }],
    ['irregular:n=300000,min=2,max=11', { kind: 'irregular', n: 300000, min: 2, max: 11, far: 0.05 }],
    ['irregular:n=10,min=0,max=0,far=1', { kind: 'irregular', n: 10, min: 0, max: 0, far: 1 }],
  ];
  for (const [text, spec] of cases) {
    assert.deepEqual(parseGenSpec(text), spec, text);
    assert.deepEqual(parseGenSpec(formatGenSpec(spec)), spec, formatGenSpec(spec));
  }
  assert.equal(formatGenSpec(parseGenSpec('longrow:n=9,bw=2,long_rows=1')), 'longrow:n=9,bw=2,long_rows=1,long_cols=0');
  assert.equal(formatGenSpec(parseGenSpec('longrow:n=9,bw_lo=3,bw_hi=3,long_rows=1')), 'longrow:n=9,bw=3,long_rows=1,long_cols=0');
  assert.equal(formatGenSpec(parseGenSpec('longrow:n=9,long_rows=1')), 'longrow:n=9,long_rows=1,long_cols=0');
});

test('bad class specs are UserErrors naming the spec and the key', () => {
  const cases: [string, RegExp][] = [
    ['powerlaw:rows=10,max=5', /missing avg=/],
    ['powerlaw:rows=10,avg=2,max=11', /max=11 exceeds cols=10/],
    ['powerlaw:rows=10,avg=6,max=5', /avg=6 must be from 1 to 5/],
    ['powerlaw:rows=10,avg=0.5,max=5', /avg=0.5 must be from 1 to 5/],
    ['powerlaw:rows=10,avg=x,max=5', /avg=x is not a non-negative number/],
    ['powerlaw:rows=10,avg=2,max=5,alpha=-1', /alpha=-1 is not a non-negative number/],
    ['powerlaw:rows=10,avg=2,max=5,skew=11', /skew=11 must be from 0 to 10/],
    ['powerlaw:rows=10,avg=2,max=5,beta=1', /unknown key "beta" for powerlaw; keys: rows, avg, max, cols, alpha, skew/],
    ['powerlaw:rows=2000000000,avg=2,max=5,skew=0', /4,000,000,000 nonzeros, more than the limit/],
    ['fem:dims=4,n=3,block=2', /dims=4 must be from 2 to 3/],
    ['fem:dims=3,n=3', /missing block=/],
    ['fem:dims=3,n=3,block=0', /block=0 must be from 1/],
    ['fem:dims=3,n=2000,block=1', /8,000,000,000 rows \(n\^dims·block\), more than 2,147,483,647/],
    ['fem:dims=3,n=100,block=10', /2,646,359,200 nonzeros, more than the limit/],
    ['circuit:rows=10,nnz_row=11,hubs=1,hub_size=2', /nnz_row=11 exceeds rows=10/],
    ['circuit:rows=10,nnz_row=0,hubs=1,hub_size=2', /nnz_row=0 must be from 1/],
    ['circuit:rows=10,nnz_row=2,hubs=11,hub_size=2', /hubs=11 exceeds rows=10/],
    ['circuit:rows=10,nnz_row=2,hubs=1,hub_size=10', /hub_size=10 must be below rows=10/],
    ['circuit:rows=10,nnz_row=2,hubs=1', /missing hub_size=/],
    ['longrow:n=10,bw=1', /missing long_rows=/],
    ['longrow:n=10,bw=1,bw_lo=0,long_rows=1', /give either bw= or bw_lo=\/bw_hi=, not both/],
    ['longrow:n=10,long_rows=11', /long_rows=11 must be from 0 to 10/],
    ['longrow:n=10,long_rows=1,long_cols=12', /long_cols=12 must be from 0 to 10/],
    ['longrow:n=10,bw_hi=-1,long_rows=1', /bw_hi=-1 is not a non-negative integer/],
    ['longrow:n=100000,long_rows=30000', /more than the limit/],
    ['perm:n=10,cols=9', /cols=9 is below n=10/],
    ['perm:cols=9', /missing n=/],
    ['multimodal:rows=10,lens=2/3,weights=1', /lens has 2 lengths but weights has 1 weights/],
    ['multimodal:rows=10,lens=2/x,weights=1/1', /lens=2\/x must be non-negative integers separated by "\/"/],
    ['multimodal:rows=10,lens=2/3,weights=0/0', /weights are all 0/],
    ['multimodal:rows=10,lens=2/11,weights=1/1', /lens: 11 exceeds cols=10/],
    ['multimodal:rows=10,lens=1/2/3,weights=2000000000/2000000000/2000000000', /weights add up to 6000000000, more than 2\^32/],
    ['multimodal:rows=10,lens=2,weights=4294967297', /weights=4294967297: 4294967297 is more than 2147483647/],
    ['multimodal:rows=10,lens=2/,weights=1/1', /lens=2\/ must be non-negative integers/],
    ['irregular:n=10,min=5,max=4', /min=5 is greater than max=4/],
    ['irregular:n=10,min=5,max=11', /max=11 must be from 0 to 10/],
    ['irregular:n=10,min=1,max=4,far=2', /far=2 must be a probability from 0 to 1/],
    ['irregular:n=10,min=1,max=4,near=2', /unknown key "near" for irregular; keys: n, min, max, far/],
  ];
  for (const [text, why] of cases) {
    assert.throws(
      () => parseGenSpec(text),
      (e: unknown) => e instanceof UserError && e.message.startsWith(`bad generator spec "${text}": `) && why.test(e.message),
      text,
    );
  }
});

test('unknown kinds list every kind', () => {
  assert.throws(() => parseGenSpec('zipf:n=3'), /use one of stencil, rmat, uniform, banded, powerlaw, fem, circuit, longrow, perm, multimodal, irregular/);
});

test('nnzBound of the classes: exact for fem, longrow bands and perm', () => {
  assert.equal(nnzBound(parseGenSpec('fem:dims=3,n=22,block=3')), 64 ** 3 * 9);
  assert.equal(nnzBound(parseGenSpec('fem:dims=2,n=4,block=2')), 100 * 4);
  assert.equal(nnzBound(parseGenSpec('longrow:n=10,bw=1,long_rows=0')), 28);
  assert.equal(nnzBound(parseGenSpec('longrow:n=10,bw_lo=0,bw_hi=1,long_rows=0')), 19);
  assert.equal(nnzBound(parseGenSpec('longrow:n=10,bw=20,long_rows=0')), 100);
  assert.equal(nnzBound(parseGenSpec('longrow:n=10,long_rows=1,long_cols=2')), 30);
  assert.equal(nnzBound(parseGenSpec('perm:n=7,cols=9')), 7);
  assert.equal(nnzBound(parseGenSpec('powerlaw:rows=10,avg=2.55,max=5')), 25);
  assert.equal(nnzBound(parseGenSpec('circuit:rows=100,nnz_row=3,hubs=2,hub_size=10')), 340);
  assert.equal(nnzBound(parseGenSpec('multimodal:rows=10,cols=600,lens=2/600/7,weights=1/0/1')), 70);
  assert.equal(nnzBound(parseGenSpec('irregular:n=10,min=1,max=4')), 40);
});
