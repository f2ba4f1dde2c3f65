// Kernels of hash SpGEMM (seed 004) plus our dense chunked accumulator for power-law rows.
// Index type int32 throughout; value type T = float or double.
//   grouping : k_products (products per row, symbolic group ids, histogram), k_num_groups, k_scatter
//   tables   : k_pwarp (4 threads a row), k_warp (hash-opt: a warp a row), k_tb / k_tb_sym (a block a row; hash-opt:
//              row_products / row_pieces), each a template on the phase's table policy (SymTable counts, NumTable<T>
//              sums and sorts); hash-opt's symbolic TB rows take levels from an estimate (k_products), with a way out
//   dense    : k_sym_dense (bitmap over a column chunk; per-chunk counts for the numeric phase), k_chunk_bounds +
//              k_num_dense (dense chunk, output sorted by construction)
//   long, direct (hash-opt): k_long_* (rows cut into product windows), k_num_direct (scaled B rows)
#pragma once
#include <climits>
#include <cstdint>
#include <cuda_runtime.h>
#include "config.cuh"

namespace spb::spgemm {

constexpr unsigned kHashScal = 107;
constexpr int kPw = 4;  // threads per row in PWARP/ROW

template <typename T>
struct DevCsr {
  int rows = 0, cols = 0;
  long long nnz = 0;
  int* rp = nullptr;
  int* ci = nullptr;
  T* v = nullptr;
};

// Group limits passed by value: a count c in [1, ub[0]] is group 0 (PWARP), (ub[g-1], ub[g]] group g,
// above ub[n-1] the dense group n; 0 has no group (-1). hash-opt adds two groups decided by A's row alone:
// group n + 1 (long_group()) for rows of more than long_nnz nonzeros of A, walked in segments by many blocks into a
// global accumulator, and group n + 2 (direct_group()) for rows of one nonzero of A, whose row of C is that B row
// scaled (already sorted: no table, no symbolic pass).
struct GroupLimits {
  int n = 0;
  int ub[kMaxGroups];
  // hash-opt: counts >= dense_min with count * dense_ratio >= ncols also go dense (-1: off)
  int dense_min = -1;
  int dense_ratio = 0;
  int ncols = 0;
  int long_nnz = 0;    // > 0: rows with more nonzeros of A than this take the long group
  int long_prod = 0;   // > 0: so do rows of more products than this, half of them from one B row, covering >= cols/8
  int long_cap = 0;    // entries of lrow/loff (the host's bound on the long rows)
  int direct_max = 0;  // > 0: rows of one nonzero of A whose B row has 1..direct_max entries take the direct group
  int est_from = -1;   // >= 0 (symbolic, hash-opt): rows above this group take the group of their estimate ...
  int est_floor = 0;   // ... but not below this one (the smallest TB level: k_tb_sym has the way out of a full table)
  int est_div = 1;     // tests: the estimate divided by this
  __host__ __device__ int long_group() const { return n + 1; }
  __host__ __device__ int direct_group() const { return n + 2; }
};
constexpr unsigned char kNoGroup = 255;

__device__ __forceinline__ int group_of(const GroupLimits& g, int c) {
  if (c <= 0) return -1;
  if (g.dense_min >= 0 && c >= g.dense_min && (long long)c * g.dense_ratio >= g.ncols) return g.n;
  for (int i = 0; i < g.n; ++i) if (c <= g.ub[i]) return i;
  return g.n;
}

// Seed 004's hash is key*107 & mask (hmul = 0): a bijection on any window of table-size consecutive keys (ideal for
// banded rows) but blind to the bits above the mask, so R-MAT columns, whose bits are each 1 with p = 0.24, pile up
// in chains (keys that differ only above the mask share a home slot: 3-4 probes a product instead of 1.2-1.4, by a
// CPU replay of the rmat16/18 rows). hash-opt adds (key >> log2 size) * hmul: unchanged for keys below the table
// size, high bits spread over the table. shift = popc(mask) = log2 size.
__device__ __forceinline__ int hash_slot(int key, int mask, unsigned hmul) {
  const unsigned k = unsigned(key);
  return int((k * kHashScal + (k >> __popc(mask)) * hmul) & unsigned(mask));
}

__device__ __forceinline__ int warp_sum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// 1 when k < key, as the sign of k - key (keys are columns >= 0 or INT_MAX: no overflow): two instructions where the
// compare and select took three in the count-smaller ranks
__device__ __forceinline__ int below(int k, int key) { return int(unsigned(k - key) >> 31); }
// The rank of key among keys[0, n) (the count of smaller keys), four keys a shared load: keys 16-byte aligned and
// keys[n, n + 3) padded with INT_MAX by the caller. (A warp ranking a stencil row of 125 entries read 4 x 125 keys a lane
// one at a time.)
__device__ __forceinline__ int rank_of4(const int* keys, int n, int key) {
  const int4* k4 = reinterpret_cast<const int4*>(keys);
  int r = 0;
  for (int j = 0; j < (n + 3) >> 2; ++j) { const int4 q = k4[j]; r += below(q.x, key) + below(q.y, key) + below(q.z, key) + below(q.w, key); }
  return r;
}

// First index in [lo, hi) of the sorted array a with a[i] >= key.
__device__ __forceinline__ int lower_bound(const int* a, int lo, int hi, int key) {
  while (lo < hi) { int mid = (lo + hi) >> 1; if (a[mid] < key) lo = mid + 1; else hi = mid; }
  return lo;
}

// What a walk does with a product (l: entry of B, k: nonzero of A): its value (numeric: av[k] * bv[l]; symbolic: 0) and
// where (column, value) goes: one accumulator interface for the hash tables and dense chunks of both phases.
// merge (hash-opt): walks that give a lane entry off + lane of B rows one after another (merged_rows) keep the last column
// and its running sum in registers and put only when the column changes: the rows of one node of a
// block-structured (FEM) matrix share their column pattern, so a matrix of dense b×b blocks reaches the table b times
// less often (a put is a hash probe plus, numeric, a compare-and-swap loop: shared float atomics are CAS loops on sm_90).
template <typename V, typename ValF, typename PutF>
struct Acc {
  using Value = V;
  const int* bci;
  ValF val;
  PutF put;
  bool merge;
  __device__ __forceinline__ void operator()(int l, int k) { put(bci[l], val(l, k)); }
};
template <typename V, typename ValF, typename PutF>
__device__ __forceinline__ Acc<V, ValF, PutF> make_acc(const int* bci, bool merge, ValF val, PutF put) {
  return Acc<V, ValF, PutF>{bci, val, put, merge};
}
__device__ __forceinline__ int no_value(int, int) { return 0; }

constexpr int kMergeMax = 128;  // merged walks take B rows of up to this many entries (longer ones cost idle offsets)

// Whether merging pays for a warp's nonzeros: at least a quarter of the consecutive B rows (lane - 1, lane) start at the
// same column with the same length (rows of one node do; the shifted rows of a scalar stencil never do, and there the
// merged walk measured ~10 % slower). first: the first column of the lane's B row (-1 when empty).
__device__ __forceinline__ bool shared_patterns(int first, int len, int lane, int cnt) {
  const int pf = __shfl_up_sync(0xffffffffu, first, 1), pl = __shfl_up_sync(0xffffffffu, len, 1);
  const unsigned same = __ballot_sync(0xffffffffu, lane > 0 && lane < cnt && first >= 0 && first == pf && len == pl);
  return 4 * __popc(same) >= cnt;
}

// A warp's merged walk over the B rows of cnt nonzeros of A (bnd(j, s, e, k): entries [s, e) of B and the nonzero k of A for
// j = 0..cnt-1, called by the whole warp), one offset at a time: lane takes entry off + lane of each row in turn and keeps
// the last column and its running sum in registers, putting them when the column changes (one register pair a lane,
// so occupancy stays). maxlen: the longest of the rows (warp-uniform).
template <typename A, typename Bnd>
__device__ __forceinline__ void merged_rows(A& acc, int cnt, int maxlen, int lane, Bnd&& bnd) {
  for (int off = 0; off < maxlen; off += 32) {
    int col = -1;
    typename A::Value sum{};
    for (int j = 0; j < cnt; ++j) {
      int s, e, k;
      bnd(j, s, e, k);
      const int l = s + off + lane;
      if (l >= e) continue;
      const int c = acc.bci[l];
      const typename A::Value v = acc.val(l, k);
      if (c == col) { sum += v; continue; }
      if (col >= 0) acc.put(col, sum);
      col = c; sum = v;
    }
    if (col >= 0) acc.put(col, sum);
  }
}

// Visits every product of A's nonzeros [a0, a1) (a row, or a segment of a long row; hash-opt's iteration). Warp `warp` of the `nw` sharing them takes
// the nonzeros warp, warp + nw, ... of A 32 at a time, loading their B-row bounds in parallel (clipped to the
// column window [lo, hi) when kClip: 32 binary searches at once instead of one after another). Then either
//   flat: their products are spread evenly over the lanes (rows whose B rows are short: no idle lanes), or
//   not : the warp walks one B row after the other, lanes on distinct columns (long B rows, and rows that
//         hit hub columns, where flat lanes would collide on the same hash slot or counter).
// acc(l, k): l indexes B's arrays, k A's. flat must be warp-uniform; called by whole warps.
template <bool kClip, typename A>
__device__ __forceinline__ void row_products(int a0, int a1, const int* __restrict__ aci,
                                             const int* __restrict__ brp, const int* __restrict__ bci, int lo, int hi,
                                             bool flat, int warp, int nw, A& acc) {
  const unsigned full = 0xffffffffu;
  const int lane = threadIdx.x & 31;
  for (int first = a0 + warp; first < a1; first += nw * 32) {
    const int k = first + nw * lane;
    int s = 0, len = 0;
    if (k < a1) {
      const int a = aci[k];
      s = brp[a];
      int e = brp[a + 1];
      if (kClip) { s = lower_bound(bci, s, e, lo); e = lower_bound(bci, s, e, hi); }
      len = e - s;
    }
    // clipped to a chunk, B rows keep ~chunk/ncols of their entries: the row-wide average (unclipped) no longer
    // says how long they are, so decide per batch of 32 from the clipped lengths
    bool fb = flat;
    if (kClip) fb = warp_sum(len) < 16 * min(32, (a1 - first + nw - 1) / nw);
    if (!fb) {
      const int cnt = min(32, (a1 - first + nw - 1) / nw);
      const int maxlen = acc.merge ? __reduce_max_sync(full, len) : INT_MAX;
      if (maxlen <= kMergeMax && shared_patterns(len > 0 ? bci[s] : -1, len, lane, cnt)) {
        merged_rows(acc, cnt, maxlen, lane, [&](int j, int& sj, int& ej, int& k) {
          sj = __shfl_sync(full, s, j); ej = sj + __shfl_sync(full, len, j); k = first + nw * j;
        });
        continue;
      }
      for (int j = 0; j < cnt; ++j) {
        const int sj = __shfl_sync(full, s, j), lj = __shfl_sync(full, len, j);
        for (int l = sj + lane; l < sj + lj; l += 32) acc(l, first + nw * j);
      }
      continue;
    }
    int incl = len;
    for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(full, incl, o); if (lane >= o) incl += y; }
    const int excl = incl - len;
    const int total = __shfl_sync(full, incl, 31);
    for (int p0 = 0; p0 < total; p0 += 32) {
      const int p = p0 + lane;
      int lo_l = 0, hi_l = 31;  // owner: the first lane whose inclusive sum exceeds p
#pragma unroll
      for (int it = 0; it < 5; ++it) {
        const int mid = (lo_l + hi_l) >> 1;
        const int v = __shfl_sync(full, incl, mid);
        if (lo_l < hi_l) { if (v > p) hi_l = mid; else lo_l = mid + 1; }
      }
      const int sj = __shfl_sync(full, s, lo_l);
      const int xj = __shfl_sync(full, excl, lo_l);
      if (p < total) acc(sj + (p - xj), first + nw * lo_l);
    }
  }
}

// hash-opt's choice of iteration for a row: flat when its B rows average fewer than 16 entries.
__device__ __forceinline__ bool short_b_rows(const int* __restrict__ prod, const int* __restrict__ arp, int row) {
  return prod[row] < 16 * (arp[row + 1] - arp[row]);
}

// Exclusive block-wide prefix sum of one int per thread (blockDim.x a multiple of 32, at most 1024).
__device__ __forceinline__ int block_exclusive_scan(int v, int* scratch /* 32 ints */) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  int incl = v;
  for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(0xffffffffu, incl, o); if (lane >= o) incl += y; }
  if (lane == 31) scratch[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int s = lane < nw ? scratch[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(0xffffffffu, s, o); if (lane >= o) s += y; }
    if (lane < nw) scratch[lane] = s;  // inclusive warp totals
  }
  __syncthreads();
  const int r = incl - v + (warp ? scratch[warp - 1] : 0);
  __syncthreads();
  return r;
}

// Where a dense chunk's part of a B row starts and ends: bnd (k_chunk_bounds, nchn + 1 entries a B row) when the
// numeric phase has it, else two binary searches a nonzero of A.
struct Clip {
  int lo = 0, hi = 0;           // the chunk's columns [lo, hi)
  const int* bnd = nullptr;     // B row b's chunk ch is [bnd[b * stride + ch], bnd[b * stride + ch + 1])
  int stride = 0, ch = 0;
};

// Shared memory (ints) that row_pieces needs beside a kernel's tables.
__host__ __device__ constexpr int pieces_ints(int block) { return 3 * block; }
constexpr int kPiece = 128;  // B-row entries a warp takes at once in row_pieces
constexpr int kLongBlock = 256;            // threads of the long path's blocks
constexpr int kLongSeg = 8 * kLongBlock;   // nonzeros of a long row one block of the product prefix takes
constexpr int kLongWindow = 4096;          // products of a long row one block walks at a time
constexpr int kLongCols = 64 * kLongBlock; // columns (flag bytes) one block counts or writes: a range

// Visits every product of A's nonzeros [a0, a1) with the whole block balanced (hash-opt, rows whose B rows are long). The
// nonzeros of A, blockDim at a time, cut their B rows (clipped to the chunk when kClip) into pieces of kPiece
// entries; warp w takes pieces w, w + nw, ... and walks each with lanes on consecutive (distinct) columns.
// row_products gives a warp whole B rows: on R-MAT a row of C is ~19 nonzeros of A of which one or two reach a
// hub row of B (up to 5531 entries), so one warp walked the hub while the other 31 of a 1024-thread block
// idled. sh: pieces_ints(blockDim) ints. Called by the whole block (it has barriers); acc as in row_products.
// bounds(k, s, e): the entries [s, e) of B that nonzero k of A multiplies (its B row, or the part of it in a chunk or a
// product window).
template <typename Bounds, typename A>
__device__ __forceinline__ void pieces_walk(int a0, int a1, Bounds&& bounds, int* sh, int* scratch, A& acc) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  int* sh_s = sh; int* sh_e = sh + blockDim.x; int* sh_pre = sh + 2 * blockDim.x;
  for (int base = a0; base < a1; base += blockDim.x) {
    const int k = base + threadIdx.x;
    int s = 0, e = 0;
    if (k < a1) bounds(k, s, e);
    const int last = min(int(blockDim.x), a1 - base) - 1;
    sh_s[threadIdx.x] = s; sh_e[threadIdx.x] = e;
    if (acc.merge) sh_pre[threadIdx.x] = e > s ? acc.bci[s] : -1;  // first columns, for the merge test below
    // no B row longer than a piece (stencils): one piece a nonzero, no scan
    if (!__syncthreads_or(e - s > kPiece)) {
      // merged (see shared_patterns) when a quarter of the consecutive B rows start alike
      const bool same = acc.merge && threadIdx.x > 0 && int(threadIdx.x) <= last && sh_pre[threadIdx.x] >= 0 &&
                        sh_pre[threadIdx.x] == sh_pre[threadIdx.x - 1] && e - s == sh_e[threadIdx.x - 1] - sh_s[threadIdx.x - 1];
      if (acc.merge && 4 * __syncthreads_count(same) >= last + 1) {  // a warp takes a run of consecutive nonzeros, so that rows of one node meet at its lanes
        static_assert(kPiece <= kMergeMax, "a piece must be short enough to merge");
        const int cnt = last + 1, per = (cnt + nw - 1) / nw;
        const int j0 = min(cnt, warp * per), j1 = min(cnt, j0 + per);
        int maxlen = 0;
        for (int j = j0 + lane; j < j1; j += 32) maxlen = max(maxlen, sh_e[j] - sh_s[j]);
        maxlen = __reduce_max_sync(0xffffffffu, maxlen);
        merged_rows(acc, j1 - j0, maxlen, lane, [&](int j, int& sj, int& ej, int& k) { sj = sh_s[j0 + j]; ej = sh_e[j0 + j]; k = base + j0 + j; });
      } else {
        for (int j = warp; j <= last; j += nw)
          for (int l = sh_s[j] + lane; l < sh_e[j]; l += 32) acc(l, base + j);
      }
      __syncthreads();
      continue;
    }
    const int np = (e - s + kPiece - 1) / kPiece;
    sh_pre[threadIdx.x] = block_exclusive_scan(np, scratch) + np;
    __syncthreads();
    const int total = sh_pre[last];
    int j = 0;  // owner of the warp's piece: the first thread whose inclusive count exceeds p; grows with p, so
                // each search starts at the last owner and tests 32 candidates at once (a ballot)
    for (int p = warp; p < total; p += nw) {
      while (true) {
        const int c = j + lane;
        const unsigned hit = __ballot_sync(0xffffffffu, c <= last && sh_pre[c] > p);
        if (hit) { j += __ffs(hit) - 1; break; }
        j += 32;
      }
      const int st = sh_s[j] + (p - (j ? sh_pre[j - 1] : 0)) * kPiece;
      const int en = min(sh_e[j], st + kPiece);
      for (int l = st + lane; l < en; l += 32) acc(l, base + j);
    }
    __syncthreads();  // the next batch overwrites sh
  }
}

// pieces_walk over whole B rows, or B rows clipped to a dense chunk (kClip: chunk bounds of B when clip.bnd, else two
// binary searches a nonzero).
template <bool kClip, typename A>
__device__ __forceinline__ void row_pieces(int a0, int a1, const int* __restrict__ aci,
                                           const int* __restrict__ brp, const int* __restrict__ bci, Clip clip,
                                           int* sh, int* scratch, A& acc) {
  pieces_walk(a0, a1, [&](int k, int& s, int& e) {
    const int a = aci[k];
    if (kClip && clip.bnd) {
      const int* b = clip.bnd + (long long)a * clip.stride + clip.ch;
      s = b[0]; e = b[1];
    } else {
      s = brp[a]; e = brp[a + 1];
      if (kClip) { s = lower_bound(bci, s, e, clip.lo); e = lower_bound(bci, s, int(min((long long)e, (long long)s + (clip.hi - clip.lo))), clip.hi); }
    }
  }, sh, scratch, acc);
}

// hash-opt's walk of a row: row_pieces for rows of long B rows when `pieces` (a block-uniform choice: it has
// barriers), else row_products (`flat` as there). clip.lo/hi are row_products' chunk; sh/scratch row_pieces' ints.
template <bool kClip, typename A>
__device__ __forceinline__ void row_walk(bool pieces, bool flat, int a0, int a1, const int* __restrict__ aci,
                                         const int* __restrict__ brp, const int* __restrict__ bci, Clip clip, int* sh,
                                         int* scratch, A& acc) {
  if (pieces && !flat) row_pieces<kClip>(a0, a1, aci, brp, bci, clip, sh, scratch, acc);
  else row_products<kClip>(a0, a1, aci, brp, bci, clip.lo, clip.hi, flat, threadIdx.x >> 5, blockDim.x >> 5, acc);
}

// Chunk bounds of every B row for the numeric dense path: bnd[b * (nchn + 1) + j] = first entry of row b with
// column >= j * width (j = nchn: the row's end). One thread a (row, j).
__global__ void k_chunk_bounds(int nrows, const int* __restrict__ brp, const int* __restrict__ bci, int width, int nchn, int* bnd) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = nchn + 1;
  if (i >= (long long)nrows * stride) return;
  const int b = int(i / stride), j = int(i % stride);
  const int s = brp[b], e = brp[b + 1];
  bnd[i] = j == nchn ? e : lower_bound(bci, s, e, j * width);
}

// ---------------------------------------------------------------- grouping
// One thread a row: products of the row (int64, flagged above INT_MAX), symbolic group id, histogram,
// total products. Also clears cnt (the nnz per row, summed into by the dense path) and didx.
// hash-opt: rows of more than gl.long_nnz nonzeros of A are not summed here (one warp would walk all of them); they are
// listed instead: d = their place in the long list (didx[row], lrow[d] = row), loff[d] = offset of their nonzeros in
// the long rows' product prefix, and the most prefix segments of one row (lsmall[0]); k_long_prefix counts them.
__global__ void k_products(int m, const int* __restrict__ arp, const int* __restrict__ aci, const int* __restrict__ brp,
                           const int* __restrict__ bci, int* prod, int* cnt, int* didx, unsigned char* gid, GroupLimits gl, int* gcount,
                           unsigned long long* total, int* overflow, int* lsmall, int* lrow, int* loff) {
  __shared__ int hist[kMaxGroups + 1];
  if (threadIdx.x <= kMaxGroups) hist[threadIdx.x] = 0;
  __syncthreads();
  const int row = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  const int a0 = row < m ? arp[row] : 0, a1 = row < m ? arp[row + 1] : 0;
  long long p = 0, ub = 0;  // products; the estimate of nnz (est_from, below)
  int big = 0;  // the row's longest B row
  // rows of more than 32 nonzeros are summed by their whole warp (an R-MAT hub row of thousands of nonzeros
  // walked by one thread was the tail of this kernel)
  const bool lng_a = gl.long_nnz > 0 && a1 - a0 > gl.long_nnz;
  const bool wide = a1 - a0 > 32 && !lng_a;
  if (!wide && !lng_a) for (int k = a0; k < a1; ++k) { const int a = aci[k], l = brp[a + 1] - brp[a]; p += l; big = max(big, l); }
  for (unsigned w = __ballot_sync(0xffffffffu, wide); w; w &= w - 1) {
    const int src = __ffs(w) - 1;
    const int s0 = __shfl_sync(0xffffffffu, a0, src), s1 = __shfl_sync(0xffffffffu, a1, src);
    long long q = 0;
    int bq = 0;
    for (int k = s0 + lane; k < s1; k += 32) { const int a = aci[k], l = brp[a + 1] - brp[a]; q += l; bq = max(bq, l); }
    for (int o = 16; o > 0; o >>= 1) { q += __shfl_xor_sync(0xffffffffu, q, o); bq = max(bq, __shfl_xor_sync(0xffffffffu, bq, o)); }
    if (lane == src) { p = q; big = bq; }
  }
  // A row whose products are mostly one long B row (the neighbours of a full row) is walked by a single dense-path block
  // per chunk: it takes the long group too when it has more than long_prod products, at least half of them from one B
  // row, covering an eighth of the columns or more (so its global accumulator is not mostly empty). Rows whose products
  // spread over many B rows (R-MAT and power-law hubs) stay dense, where they run in parallel: sending them down the
  // long path cost 15-20 % on rmat16/18 (H200 A/B, docs/spgemm-notes.md v8). k_long_prefix_fix adds the row's products
  // to the total, so they are not added here.
  const bool lng = lng_a || (gl.long_prod > 0 && p > gl.long_prod && 2LL * big >= p && p * 8 >= gl.ncols);
  if (lng) p = 0;
  // Symbolic level from an estimate of the row's nnz (GroupLimits::est_from): its products with each run of consecutive
  // B rows that start at the same column with the same length counted once. A FEM row of 3x3 blocks (81 nonzeros, 6561
  // products, 375 entries of C) took the 16384-entry level; the estimate (2187) takes 8192. Not a bound (rows alike at
  // both ends may differ inside): k_tb_sym counts a row whose table fills in column bitmaps instead.
  // Only above the two smallest TB levels: the estimate costs a dependent load a nonzero, and a small table is cheap anyway
  // (stencil rows of 729 products lost 3-5 % to it). A warp estimates its rows one after the other, lanes on 32 nonzeros
  // at a time (a thread walking its own row measured 0.25 ms more on rmat16's many rows of ~16 nonzeros).
  const int gp = row < m && p <= INT_MAX ? group_of(gl, int(p)) : -1;
  const bool est = gl.est_from >= 0 && gp > gl.est_from && gp < gl.n;
  for (unsigned w = __ballot_sync(0xffffffffu, est); w; w &= w - 1) {
    const int src = __ffs(w) - 1;
    const int s0 = __shfl_sync(0xffffffffu, a0, src), s1 = __shfl_sync(0xffffffffu, a1, src);
    long long u = 0;
    int cf = -1, cl = -1;  // lane 31's B row of the previous round
    for (int k0 = s0; k0 < s1; k0 += 32) {
      const int k = k0 + lane;
      int f = -1, l = 0;  // the B row's first column (-1: empty) and length
      if (k < s1) { const int a = aci[k], b0 = brp[a]; l = brp[a + 1] - b0; f = l > 0 ? bci[b0] : -1; }
      int pf = __shfl_up_sync(0xffffffffu, f, 1), pl = __shfl_up_sync(0xffffffffu, l, 1);
      if (lane == 0) { pf = cf; pl = cl; }
      if (!(f >= 0 && f == pf && l == pl)) u += l;
      cf = __shfl_sync(0xffffffffu, f, 31); cl = __shfl_sync(0xffffffffu, l, 31);
    }
    for (int o = 16; o > 0; o >>= 1) u += __shfl_xor_sync(0xffffffffu, u, o);
    if (lane == src) ub = u;
  }
  ub /= gl.est_div;
  if (row < m) {
    int pi = int(p);
    if (p > INT_MAX) { atomicExch(overflow, 1); pi = INT_MAX; }
    const int na = a1 - a0;
    int g = group_of(gl, pi), c = 0, d = -1;
    if (est) g = min(g, max(gl.est_floor, group_of(gl, int(max(1LL, ub)))));
    if (lng) {
      g = gl.long_group();
      d = atomicAdd(&lsmall[1], 1);
      if (d < gl.long_cap) {
        lrow[d] = row;
        loff[d] = atomicAdd(&lsmall[2], na);
        atomicMax(&lsmall[0], (na + kLongSeg - 1) / kLongSeg);
      } else {
        atomicExch(overflow, 1);  // more long rows than the bound: only possible beyond 2^31 - 1 products in all
      }
    } else if (g >= 0 && gl.direct_max > 0 && na == 1 && pi <= gl.direct_max) {
      g = gl.direct_group(); c = pi;
    }
    prod[row] = pi; cnt[row] = c; didx[row] = d;
    gid[row] = (unsigned char)(g < 0 ? kNoGroup : g);
    if (g >= 0) atomicAdd(&hist[g], 1);
  }
  if (row == m) cnt[m] = 0;  // the scan's last element, so rp[m] = nnz
  unsigned long long s = (unsigned long long)p;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0 && s) atomicAdd(total, s);
  __syncthreads();
  if (threadIdx.x <= gl.direct_group() && hist[threadIdx.x]) atomicAdd(&gcount[threadIdx.x], hist[threadIdx.x]);
}

// Numeric group of each row from its nnz; a row goes dense only if its symbolic pass was dense (didx >= 0),
// which the configuration guarantees for every row too large for the largest numeric table.
// sym_long/sym_direct: the symbolic limits' ids of those groups (the phases may have different level counts).
__global__ void k_num_groups(int m, const int* __restrict__ cnt, const int* __restrict__ didx, unsigned char* gid,
                             GroupLimits gl, int sym_long, int sym_direct, int* gcount) {
  __shared__ int hist[kMaxGroups + 1];
  if (threadIdx.x <= kMaxGroups) hist[threadIdx.x] = 0;
  __syncthreads();
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    int g = gid[row];
    // long and direct rows keep their group (decided by A's row); the others are regrouped by nnz of C
    if (g == sym_long) g = gl.long_group();
    else if (g == sym_direct) g = gl.direct_group();
    else {
      g = group_of(gl, cnt[row]);
      if (g == gl.n && didx[row] < 0) g = gl.n - 1;  // density rule only applies to rows with chunk counts
    }
    gid[row] = (unsigned char)(g < 0 ? kNoGroup : g);
    if (g >= 0 && g != kNoGroup) atomicAdd(&hist[g], 1);
  }
  __syncthreads();
  if (threadIdx.x <= gl.direct_group() && hist[threadIdx.x]) atomicAdd(&gcount[threadIdx.x], hist[threadIdx.x]);
}

// Rows of groups [0, ngroups) into per-group lists: perm[cursor[g]...] (cursor starts at the group's offset).
// Rows of other groups (direct: walked over all rows by gid) get no list entry.
__global__ void k_scatter(int m, const unsigned char* __restrict__ gid, int ngroups, int* cursor, int* perm) {
  __shared__ int cnt[kMaxGroups + 1], base[kMaxGroups + 1];
  if (threadIdx.x <= kMaxGroups) cnt[threadIdx.x] = 0;
  __syncthreads();
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  int g = kNoGroup, local = 0;
  if (row < m) { g = gid[row]; if (g < ngroups) local = atomicAdd(&cnt[g], 1); }
  __syncthreads();
  if (threadIdx.x < ngroups && cnt[threadIdx.x]) base[threadIdx.x] = atomicAdd(&cursor[threadIdx.x], cnt[threadIdx.x]);
  __syncthreads();
  if (g < ngroups) perm[base[g] + local] = row;
}

// ---------------------------------------------------------------- hash tables
// Symbolic insert: returns 1 when this call added the key.
// The grouping keeps every table at most half full (hash-opt; full for the paper's), so a probe always ends; the
// loops still stop after a whole lap, so a table that could fill ends with a lost key (caught by verification)
// rather than a hung kernel.
// Returns -1 when no slot was found within max_probe probes (a full lap at most).
__device__ __forceinline__ int sym_insert(int* table, int mask, int key, unsigned hmul, int max_probe) {
  int h = hash_slot(key, mask, hmul);
  for (int probe = 0; probe <= max_probe; ++probe) {
    const int t = ((volatile int*)table)[h];
    if (t == key) return 0;
    if (t == -1) {
      const int old = atomicCAS(&table[h], -1, key);
      if (old == -1) return 1;
      if (old == key) return 0;
    }
    h = (h + 1) & mask;
  }
  return -1;
}

template <typename T>
__device__ __forceinline__ void num_insert(int* keys, T* vals, int mask, int key, T v, unsigned hmul) {
  int h = hash_slot(key, mask, hmul);
  for (int probe = 0; probe <= mask; ++probe) {
    const int t = ((volatile int*)keys)[h];
    if (t == key) { atomicAdd(&vals[h], v); return; }
    if (t == -1) {
      const int old = atomicCAS(&keys[h], -1, key);
      if (old == -1 || old == key) { atomicAdd(&vals[h], v); return; }
    }
    h = (h + 1) & mask;
  }
}

// Sets bit c of a shared bitmap, testing it first: hub columns are marked early, and lanes on one word would serialise on
// the atomic (the dense chunks of both phases and k_tb's recount in bitmaps).
__device__ __forceinline__ void mark_bit(unsigned* bits, int c) {
  const unsigned bit = 1u << (c & 31);
  if (!(((volatile unsigned*)bits)[c >> 5] & bit)) atomicOr(&bits[c >> 5], bit);
}

// ---------------------------------------------------------------- DENSE/CHUNK
// Symbolic: one block per (row, symbolic chunk of `width` columns): a bitmap of the chunk's columns. Writes the
// count of every numeric chunk (num_width columns) inside it to chunkcnt[d * nchn + j] and adds the
// total to cnt[row]. didx[row] = d, the row's index in the dense list.
__global__ void k_sym_dense(const int* __restrict__ perm, const int* __restrict__ arp, const int* __restrict__ aci,
                            const int* __restrict__ brp, const int* __restrict__ bci, int ncols, int width, int nchs,
                            int num_width, int nchn, int* cnt, int* chunkcnt, int* didx, const int* __restrict__ prod,
                            bool pieces, bool merge) {
  extern __shared__ unsigned sh_bits[];
  __shared__ int scratch[32];
  const int d = blockIdx.x / nchs, cs = blockIdx.x % nchs;
  const int row = perm[d];
  const int lo = cs * width, hi = int(min((long long)ncols, (long long)lo + width)), w = hi - lo;  // no int overflow near INT_MAX columns
  const int words = (w + 31) >> 5, subs = (w + num_width - 1) / num_width;
  int* subcnt = reinterpret_cast<int*>(sh_bits + width / 32);
  for (int i = threadIdx.x; i < words; i += blockDim.x) sh_bits[i] = 0u;
  for (int i = threadIdx.x; i < subs; i += blockDim.x) subcnt[i] = 0;
  if (cs == 0 && threadIdx.x == 0) didx[row] = d;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  auto mark = make_acc<int>(bci, merge, no_value, [&](int col, int) { mark_bit(sh_bits, col - lo); });
  const bool flat = short_b_rows(prod, arp, row);
  int* pa = subcnt + width / num_width;  // row_pieces' ints
  if (nchs > 1) row_walk<true>(pieces, flat, arp[row], arp[row + 1], aci, brp, bci, Clip{lo, hi}, pa, scratch, mark);
  else row_walk<false>(pieces, flat, arp[row], arp[row + 1], aci, brp, bci, Clip{lo, hi}, pa, scratch, mark);
  __syncthreads();
  const int wps = num_width / 32;  // words per numeric chunk
  for (int i = threadIdx.x; i < words; i += blockDim.x) {
    const int pc = __popc(sh_bits[i]);
    if (pc) atomicAdd(&subcnt[i / wps], pc);
  }
  __syncthreads();
  int mine = 0;
  for (int j = threadIdx.x; j < subs; j += blockDim.x) {
    const int gj = cs * (width / num_width) + j;
    if (gj < nchn) chunkcnt[(long long)d * nchn + gj] = subcnt[j];
    mine += subcnt[j];
  }
  mine = warp_sum(mine);
  if (lane == 0 && mine) atomicAdd(&cnt[row], mine);
}

// ---------------------------------------------------------------- table policies
// The hash-table kernels of both phases are one template a level kind (k_pwarp, k_warp, k_tb) on a table policy: what a
// put does and what a row ends with. SymTable (symbolic): keys only; a thread counts the keys it added, and the row's
// count goes to cnt. NumTable<T> (numeric): keys and values; the row is sorted by column into C.
// full (k_tb, estimated levels): a shared flag raised when an insert found no slot within kFullProbes probes; puts stop
// and the block counts the row another way. Without it a key that finds no slot in a whole lap is lost (the paper's
// tables are sized by products, so that cannot happen there).
constexpr int kFullProbes = 256;
struct SymTable {
  using Value = int;
  static constexpr bool kNumeric = false;
  int* keys;
  int mask;
  unsigned hmul;
  int added = 0;
  int* full = nullptr;
  __device__ SymTable(int* k, void*, int tsize, unsigned hm) : keys(k), mask(tsize - 1), hmul(hm) {}
  __device__ __forceinline__ void clear(int i) { keys[i] = -1; }
  __device__ __forceinline__ void put(int c, int) {
    if (full && *(volatile int*)full) return;
    const int r = sym_insert(keys, mask, c, hmul, full ? min(mask, kFullProbes) : mask);
    if (r > 0) added += r;
    else if (r < 0 && full) atomicExch(full, 1);  // an atomic: read by the other threads' puts meanwhile
  }
};
template <typename T>
struct NumTable {
  using Value = T;
  static constexpr bool kNumeric = true;
  int* keys;
  T* vals;
  int mask;
  unsigned hmul;
  __device__ NumTable(int* k, void* v, int tsize, unsigned hm) : keys(k), vals(static_cast<T*>(v)), mask(tsize - 1), hmul(hm) {}
  __device__ __forceinline__ void clear(int i) { keys[i] = -1; vals[i] = T(0); }
  __device__ __forceinline__ void put(int c, T v) { num_insert(keys, vals, mask, c, v, hmul); }
};

// A and B of the product (values only in the numeric phase: V = int and null values in the symbolic one) and where a
// row's result goes: cnt[row] (symbolic) or C's row (numeric: crp, cci, cv).
template <typename V>
struct Operands {
  const int* __restrict__ arp;
  const int* __restrict__ aci;
  const V* __restrict__ av;
  const int* __restrict__ brp;
  const int* __restrict__ bci;
  const V* __restrict__ bv;
  int* cnt;
  const int* __restrict__ crp;
  int* cci;
  V* cv;
};

// A product's value for the table: av[k] * bv[l] (numeric), nothing (symbolic).
template <typename Tab>
__device__ __forceinline__ typename Tab::Value product_value(const Operands<typename Tab::Value>& op, int l, int k) {
  if constexpr (Tab::kNumeric) return op.av[k] * op.bv[l];
  else return 0;
}
template <typename Tab>
__device__ __forceinline__ auto table_acc(Tab& tab, const Operands<typename Tab::Value>& op, bool merge) {
  using V = typename Tab::Value;
  return make_acc<V>(op.bci, merge, [&op](int l, int k) { return product_value<Tab>(op, l, k); }, [&tab](int c, V v) { tab.put(c, v); });
}

// Options of the TB level (hash-opt's, or the paper's with everything off).
struct TbOptions {
  int bitonic_above = 1 << 30;  // numeric: count-smaller up to this many entries ...
  int cs_max = 4096;            // ... or while n * n / blockDim is at most this
  bool flat = false, pieces = false, bucket = false, merge = false;
  int ncols = 0;  // symbolic with estimated levels (> 0): a row whose table fills is counted in column bitmaps
};

// The nnz of a row (this thread's part of it) counted in bitmaps of `words` words, 32 * words columns a pass over the
// row: k_tb's way out when an estimated table fills.
__device__ __forceinline__ int count_in_bitmaps(unsigned* bits, int words, const TbOptions& tbo, const int* __restrict__ aci,
                                             const int* __restrict__ brp, const int* __restrict__ bci, int a0, int a1, bool flat,
                                             int* pa, int* scratch) {
  const int span = 32 * words;
  int mine = 0;
  for (long long lo = 0; lo < tbo.ncols; lo += span) {
    const int hi = int(min((long long)tbo.ncols, lo + span));
    for (int i = threadIdx.x; i < words; i += blockDim.x) bits[i] = 0u;
    __syncthreads();
    auto mark = make_acc<int>(bci, tbo.merge, no_value, [&](int col, int) { mark_bit(bits, col - int(lo)); });
    row_walk<true>(tbo.pieces, flat, a0, a1, aci, brp, bci, Clip{int(lo), hi}, pa, scratch, mark);
    __syncthreads();
    for (int i = threadIdx.x; i < words; i += blockDim.x) mine += __popc(bits[i]);
    __syncthreads();
  }
  return mine;
}

// ---------------------------------------------------------------- PWARP/ROW: 4 threads a row
// Tables of a block: keys of row r at r * (tsize + 1) (+1: rows of a warp in different banks), values after all keys
// at (rows a block) * (tsize + 2) ints (+2: 8-byte aligned). Numeric: the rank of an entry is the count of smaller keys.
template <typename Tab>
__global__ void k_pwarp(const int* __restrict__ perm, int nrows, Operands<typename Tab::Value> op, int tsize, unsigned hmul) {
  static_assert(kPw == 4, "the numeric gather takes a row's lanes as 4 bits of a ballot");
  using V = typename Tab::Value;
  extern __shared__ __align__(16) unsigned char sh_raw[];
  const int rpb = blockDim.x / kPw;
  const int local = threadIdx.x / kPw, lane = threadIdx.x % kPw;
  const int idx = blockIdx.x * rpb + local;
  Tab tab(reinterpret_cast<int*>(sh_raw) + local * (tsize + 1),
          reinterpret_cast<V*>(sh_raw + sizeof(int) * rpb * (tsize + 2)) + local * (tsize + 1), tsize, hmul);
  // a lane clears a run of its row's slots: rows are tsize + 1 apart, so the warp's 32 stores fall in distinct banks
  // (slot lane + 4 j put 4 lanes of neighbouring rows on one bank: 4 wavefronts a store)
  for (int i = lane * (tsize / kPw), e = i + tsize / kPw; i < e; ++i) tab.clear(i);
  __syncthreads();
  const int row = idx < nrows ? perm[idx] : -1;
  if (row >= 0) {
    for (int k = op.arp[row] + lane; k < op.arp[row + 1]; k += kPw) {
      const int a = op.aci[k];
      for (int l = op.brp[a]; l < op.brp[a + 1]; ++l) tab.put(op.bci[l], product_value<Tab>(op, l, k));
    }
  }
  if constexpr (!Tab::kNumeric) {
    int n = tab.added;
    for (int o = kPw / 2; o > 0; o >>= 1) n += __shfl_xor_sync(0xffffffffu, n, o);
    if (row >= 0 && lane == 0) op.cnt[row] = n;
  } else {
    __syncthreads();
    // Gather the row's entries to the front of its table (ballots of its 4 lanes; a round writes only slots already
    // read), then rank each among the n entries: n compares an entry instead of a whole table's.
    const int first = threadIdx.x & 28;  // the row's first lane in the warp (kPw == 4)
    const unsigned below_me = ((1u << lane) - 1u) << first;
    int n = 0;
    for (int r = 0; r < tsize; r += kPw) {
      const int k = tab.keys[r + lane];
      const V v = tab.vals[r + lane];
      const unsigned b = __ballot_sync(0xffffffffu, k >= 0);
      __syncwarp();
      if (k >= 0) { const int p = n + __popc(b & below_me); tab.keys[p] = k; tab.vals[p] = v; }
      n += __popc((b >> first) & 0xFu);
      __syncwarp();
    }
    if (row < 0) return;
    const int base = op.crp[row];
    for (int i = lane; i < n; i += kPw) {
      const int key = tab.keys[i];
      int rank = 0;
      for (int j = 0; j < n; ++j) rank += below(tab.keys[j], key);
      op.cci[base + rank] = key;
      op.cv[base + rank] = tab.vals[i];
    }
  }
}

// ---------------------------------------------------------------- WARP/ROW (hash-opt): a warp a row, its own table
// Rows too big for PWARP, too small to fill a block. Keys of warp w at w * tsize, values after all keys. Numeric:
// compact with ballots, count-smaller sort (n <= table/2), write.
template <typename Tab>
__global__ void k_warp(const int* __restrict__ perm, int nrows, Operands<typename Tab::Value> op, int tsize, bool merge,
                       const int* __restrict__ prod, unsigned hmul) {
  using V = typename Tab::Value;
  extern __shared__ __align__(16) unsigned char sh_raw[];
  const int rpb = blockDim.x >> 5, w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int idx = blockIdx.x * rpb + w;
  if (idx >= nrows) return;  // whole warps leave; no block-wide barrier follows
  Tab tab(reinterpret_cast<int*>(sh_raw) + w * tsize, reinterpret_cast<V*>(sh_raw + sizeof(int) * rpb * tsize) + w * tsize, tsize, hmul);
  for (int i = lane; i < tsize; i += 32) tab.clear(i);
  __syncwarp();
  const int row = perm[idx];
  auto acc = table_acc(tab, op, merge);
  row_products<false>(op.arp[row], op.arp[row + 1], op.aci, op.brp, op.bci, 0, 0, short_b_rows(prod, op.arp, row), 0, 1, acc);
  if constexpr (!Tab::kNumeric) {
    const int n = warp_sum(tab.added);
    if (lane == 0) op.cnt[row] = n;
  } else {
    __syncwarp();
    int* keys = tab.keys;
    V* vals = tab.vals;
    int n = 0;
    for (int r = 0; r < tsize; r += 32) {
      const int k = keys[r + lane];
      const V v = vals[r + lane];
      const unsigned b = __ballot_sync(0xffffffffu, k >= 0);
      __syncwarp();
      if (k >= 0) { const int p = n + __popc(b & ((1u << lane) - 1u)); keys[p] = k; vals[p] = v; }
      n += __popc(b);
      __syncwarp();
    }
    const int base = op.crp[row];
    if (lane < 3) keys[n + lane] = INT_MAX;  // rank_of4's padding: n <= tsize / 2, and keys start 16-byte aligned (tsize >= 128)
    __syncwarp();
    for (int i = lane; i < n; i += 32) {
      const int key = keys[i];
      const int rank = rank_of4(keys, n, key);
      op.cci[base + rank] = key;
      op.cv[base + rank] = vals[i];
    }
  }
}

// ---------------------------------------------------------------- TB/ROW: a block a row
// Accumulate into the shared table (keys, then values when numeric, then pieces_ints(blockDim) ints for row_pieces and
// the bucket rank). Symbolic: the row's count. Numeric: gather the entries to the front, sort them by column
// (count-smaller as in the paper; above `bitonic_above` entries and cs_max compares a thread a rank from a bitmap of the
// columns, a bucket rank, or bitonic) and write the row. flat (hash-opt): row_walk; else seed 004's warp a nonzero of A.
template <typename Tab>
__device__ __forceinline__ void tb_row(const int* __restrict__ perm, const Operands<typename Tab::Value>& op, int tsize, const TbOptions& tbo,
                                       const int* __restrict__ prod, unsigned hmul) {
  using T = typename Tab::Value;
  extern __shared__ __align__(16) unsigned char sh_raw[];
  __shared__ int nz, kmin, kmax, full;
  __shared__ int scratch[32];
  Tab tab(reinterpret_cast<int*>(sh_raw), sh_raw + sizeof(int) * tsize, tsize, hmul);
  if constexpr (!Tab::kNumeric) if (tbo.ncols > 0) tab.full = &full;
  const int row = perm[blockIdx.x];
  for (int i = threadIdx.x; i < tsize; i += blockDim.x) tab.clear(i);
  if (threadIdx.x == 0) { nz = 0; kmin = INT_MAX; kmax = -1; full = 0; }
  __syncthreads();
  int* pa = reinterpret_cast<int*>(sh_raw + (sizeof(int) + (Tab::kNumeric ? sizeof(T) : 0)) * tsize);  // row_pieces' ints
  const int* __restrict__ arp = op.arp;
  if (tbo.flat) {
    auto acc = table_acc(tab, op, tbo.merge);
    row_walk<false>(tbo.pieces, short_b_rows(prod, arp, row), arp[row], arp[row + 1], op.aci, op.brp, op.bci, Clip{}, pa, scratch, acc);
  } else {  // seed 004: a warp per nonzero of A
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
    for (int k = arp[row] + warp; k < arp[row + 1]; k += nw) {
      const int a = op.aci[k];
      for (int l = op.brp[a] + lane; l < op.brp[a + 1]; l += 32) tab.put(op.bci[l], product_value<Tab>(op, l, k));
    }
  }
  if constexpr (!Tab::kNumeric) {
    const int n = warp_sum(tab.added);
    if ((threadIdx.x & 31) == 0 && n) atomicAdd(&nz, n);
    __syncthreads();
    if (full) {  // the estimate was short: count the row in bitmaps of the table's memory instead
      const int mine = warp_sum(count_in_bitmaps(reinterpret_cast<unsigned*>(tab.keys), tsize, tbo, op.aci, op.brp, op.bci, arp[row],
                                                 arp[row + 1], short_b_rows(prod, arp, row), pa, scratch));
      if (threadIdx.x == 0) nz = 0;
      __syncthreads();
      if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&nz, mine);
      __syncthreads();
    }
    if (threadIdx.x == 0) op.cnt[row] = nz;
  } else {
    int* keys = tab.keys;
    T* vals = tab.vals;
    int* __restrict__ cci = op.cci;
    T* __restrict__ cv = op.cv;
    const int* __restrict__ crp = op.crp;
    const int bitonic_above = tbo.bitonic_above, cs_max = tbo.cs_max;
    const bool bucket = tbo.bucket;
    __syncthreads();
    // Gather in rounds: an entry moves to a slot below the end of the round just read, so no unread slot is overwritten.
    int lmin = INT_MAX, lmax = -1;  // the row's column span, for the bitmap rank below
    for (int r = 0; r < tsize; r += blockDim.x) {
      const int i = r + threadIdx.x;
      int k = -1; T v = T(0);
      if (i < tsize) { k = keys[i]; v = vals[i]; }
      if (k >= 0) { lmin = min(lmin, k); lmax = max(lmax, k); }
      __syncthreads();
      // one counter update a warp (1024 same-address atomics a round otherwise)
      const unsigned b = __ballot_sync(0xffffffffu, k >= 0);
      int p = 0;
      if ((threadIdx.x & 31) == 0 && b) p = atomicAdd(&nz, __popc(b));
      p = __shfl_sync(0xffffffffu, p, 0) + __popc(b & ((1u << (threadIdx.x & 31)) - 1u));
      if (k >= 0) { keys[p] = k; vals[p] = v; }
      __syncthreads();
    }
    for (int o = 16; o > 0; o >>= 1) {
      lmin = min(lmin, __shfl_xor_sync(0xffffffffu, lmin, o));
      lmax = max(lmax, __shfl_xor_sync(0xffffffffu, lmax, o));
    }
    if ((threadIdx.x & 31) == 0 && lmax >= 0) { atomicMin(&kmin, lmin); atomicMax(&kmax, lmax); }
    __syncthreads();
    const int n = nz;
    const int base = crp[row];
    // count-smaller costs n*n/blockDim per thread; the others win once that is large
    if (n <= bitonic_above || (long long)n * n <= (long long)cs_max * blockDim.x) {
      // rank_of4 where the table has room for its padding (always at hash-opt's load of 0.5; a full paper table has none)
      const bool four = n + 3 <= tsize;
      if (four && threadIdx.x < 3) keys[n + threadIdx.x] = INT_MAX;
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int key = keys[i];
        int rank = 0;
        if (four) rank = rank_of4(keys, n, key);
        else for (int j = 0; j < n; ++j) rank += keys[j] < key;
        cci[base + rank] = key;
        cv[base + rank] = vals[i];
      }
      return;
    }
    // Bitmap rank (replaces a bitonic sort of 91 barrier stages at 8 k entries): with n <= tsize/2 the upper halves
    // of keys and vals are free after the gather: a bitmap of the span [kmin, kmax] (up to 16*tsize columns) in the
    // keys' half, the exclusive popcount of every word in the values' half; an entry's rank is its word's prefix
    // plus the set bits below it in the word.
    const int half = tsize >> 1, lo = kmin;
    const long long span = (long long)kmax - lo + 1;
    if (n <= half && span <= 32LL * half) {
      unsigned* bits = reinterpret_cast<unsigned*>(keys + half);
      int* wpre = reinterpret_cast<int*>(vals + half);  // half * sizeof(T) >= half ints
      const int words = int((span + 31) >> 5);
      for (int i = threadIdx.x; i < words; i += blockDim.x) bits[i] = 0u;
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int c = keys[i] - lo;
        atomicOr(&bits[c >> 5], 1u << (c & 31));
      }
      __syncthreads();
      const int per = (words + blockDim.x - 1) / blockDim.x;
      const int w0 = min(words, int(threadIdx.x) * per), w1 = min(words, w0 + per);
      int mine = 0;
      for (int i = w0; i < w1; ++i) mine += __popc(bits[i]);
      int pre = block_exclusive_scan(mine, scratch);
      for (int i = w0; i < w1; ++i) { wpre[i] = pre; pre += __popc(bits[i]); }
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int key = keys[i], c = key - lo;
        const int rank = wpre[c >> 5] + __popc(bits[c >> 5] & ((1u << (c & 31)) - 1u));
        cci[base + rank] = key;
        cv[base + rank] = vals[i];
      }
      return;
    }
    // Wider spans (R-MAT 18 rows of tables 2048-8192: ~250 k columns > 16 * tsize): bucket rank instead of the
    // bitonic sort (55-78 barrier stages). blockDim buckets of equal column ranges (monotone in the key); counts, their
    // scan and cursors in row_pieces' ints; the entries scattered by bucket into the free upper halves; an entry's
    // rank = its bucket's offset + the keys of its bucket below it (a few on average).
    if (bucket && n <= half) {
      const int nb = blockDim.x;
      int* bc = pa; int* bo = pa + nb; int* bcur = pa + 2 * nb;
      int* k2 = keys + half;
      T* v2 = vals + half;
      const auto bucket_of = [&](int key) { return int((long long)(key - lo) * nb / span); };
      bc[threadIdx.x] = 0; bcur[threadIdx.x] = 0;
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&bc[bucket_of(keys[i])], 1);
      __syncthreads();
      bo[threadIdx.x] = block_exclusive_scan(bc[threadIdx.x], scratch);
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int key = keys[i], b = bucket_of(key);
        const int q = bo[b] + atomicAdd(&bcur[b], 1);
        k2[q] = key; v2[q] = vals[i];
      }
      __syncthreads();
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int key = k2[i], b = bucket_of(key), b0 = bo[b], b1 = b0 + bc[b];
        int rank = b0;
        for (int j = b0; j < b1; ++j) rank += k2[j] < key;
        cci[base + rank] = key;
        cv[base + rank] = v2[i];
      }
      return;
    }
    int P = 1;
    while (P < n) P <<= 1;  // P <= tsize since n <= tsize
    for (int i = n + threadIdx.x; i < P; i += blockDim.x) keys[i] = INT_MAX;
    __syncthreads();
    for (int k = 2; k <= P; k <<= 1) {
      for (int j = k >> 1; j > 0; j >>= 1) {
        for (int i = threadIdx.x; i < P; i += blockDim.x) {
          const int ixj = i ^ j;
          if (ixj > i) {
            const int ki = keys[i], kj = keys[ixj];
            const bool up = (i & k) == 0;
            if ((ki > kj) == up) { keys[i] = kj; keys[ixj] = ki; const T t = vals[i]; vals[i] = vals[ixj]; vals[ixj] = t; }
          }
        }
        __syncthreads();
      }
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x) { cci[base + i] = keys[i]; cv[base + i] = vals[i]; }
  }
}

// One block per (row, numeric chunk of `width` columns): dense values + flag bits in shared memory, then
// an ordered compaction writes the chunk's entries already sorted. Chunks with no entry return at once.
template <typename T>
__global__ void k_num_dense(const int* __restrict__ perm, const int* __restrict__ arp, const int* __restrict__ aci,
                            const T* __restrict__ av, const int* __restrict__ brp, const int* __restrict__ bci,
                            const T* __restrict__ bv, const int* __restrict__ crp, int* cci, T* cv, int ncols,
                            int width, int nchn, const int* __restrict__ didx, const int* __restrict__ chunkcnt,
                            const int* __restrict__ prod, bool pieces, bool merge, const int* __restrict__ bnd) {
  extern __shared__ __align__(16) unsigned char sh_raw[];
  __shared__ int scratch[32];
  T* vals = reinterpret_cast<T*>(sh_raw);
  unsigned* flags = reinterpret_cast<unsigned*>(sh_raw + sizeof(T) * width);
  const int idx = blockIdx.x / nchn, ch = blockIdx.x % nchn;
  const int row = perm[idx];
  const int* cc = chunkcnt + (long long)didx[row] * nchn;
  if (cc[ch] == 0) return;
  int off = crp[row];
  for (int j = 0; j < ch; ++j) off += cc[j];
  const int lo = ch * width, hi = int(min((long long)ncols, (long long)lo + width)), w = hi - lo, words = (w + 31) >> 5;
  for (int i = threadIdx.x; i < w; i += blockDim.x) vals[i] = T(0);
  for (int i = threadIdx.x; i < words; i += blockDim.x) flags[i] = 0u;
  __syncthreads();
  auto acc = make_acc<T>(bci, merge, [&](int l, int k) { return av[k] * bv[l]; }, [&](int col, T v) {
    const int c = col - lo;
    atomicAdd(&vals[c], v);
    mark_bit(flags, c);
  });
  const bool flat = short_b_rows(prod, arp, row);
  int* pa = reinterpret_cast<int*>(flags + width / 32);  // row_pieces' ints
  const Clip clip{lo, hi, bnd, nchn + 1, ch};
  if (nchn > 1) row_walk<true>(pieces, flat, arp[row], arp[row + 1], aci, brp, bci, clip, pa, scratch, acc);
  else row_walk<false>(pieces, flat, arp[row], arp[row + 1], aci, brp, bci, clip, pa, scratch, acc);
  __syncthreads();
  // Each thread owns a contiguous run of words; the scan of their popcounts gives its output position.
  const int per = (words + blockDim.x - 1) / blockDim.x;
  const int w0 = min(words, threadIdx.x * per), w1 = min(words, w0 + per);
  int mine = 0;
  for (int i = w0; i < w1; ++i) mine += __popc(flags[i]);
  int pos = off + block_exclusive_scan(mine, scratch);
  for (int i = w0; i < w1; ++i) {
    unsigned f = flags[i];
    while (f) {
      const int b = __ffs(f) - 1;
      f &= f - 1;
      const int c = i * 32 + b;
      cci[pos] = lo + c;
      cv[pos] = vals[c];
      ++pos;
    }
  }
}



template <typename Tab>
__global__ void k_tb(const int* __restrict__ perm, Operands<typename Tab::Value> op, int tsize, TbOptions tbo,
                     const int* __restrict__ prod, unsigned hmul) {
  tb_row<Tab>(perm, op, tsize, tbo, prod, hmul);
}
// Symbolic: at most 32 registers, so that two 1024-thread blocks (the largest level) fit a SM.
__global__ void __launch_bounds__(1024, 2) k_tb_sym(const int* __restrict__ perm, Operands<int> op, int tsize, TbOptions tbo,
                                                   const int* __restrict__ prod, unsigned hmul) {
  tb_row<SymTable>(perm, op, tsize, tbo, prod, hmul);
}

// ---------------------------------------------------------------- long rows (hash-opt)
// A row of A with more than GroupLimits::long_nnz nonzeros (a full row of A, a power-law hub) would have one block walk
// all of them, and one nonzero of it may reach a B row of millions. So long rows are cut by products: k_long_prefix
// writes every nonzero's inclusive product prefix (pre, int64, per row from loff[d]); then each block of the walk
// takes windows of kLongWindow products, and the windows of a row merge in a global accumulator of the row: a flag
// byte per column (plain stores: no atomics) and, numeric only, ncols values. Rows are processed in batches whose
// accumulators fit the budget; blockIdx.y is the row's place in the batch (lrow, loff, lprod offset to the batch).

// Block (segment s, long row d): the inclusive product prefix of kLongSeg nonzeros, local to the segment, and the
// segment's sum in segtot[d * maxseg + s]. Eight consecutive nonzeros a thread.
__global__ void __launch_bounds__(kLongBlock) k_long_prefix(const int* __restrict__ lrow, const int* __restrict__ loff, const int* __restrict__ arp,
                                                            const int* __restrict__ aci, const int* __restrict__ brp, long long* pre,
                                                            long long* segtot, int maxseg) {
  __shared__ long long sh_tot[kLongBlock / 32];
  const int d = blockIdx.y, row = lrow[d];
  const int a0 = arp[row], na = arp[row + 1] - a0, j0 = blockIdx.x * kLongSeg;
  if (j0 >= na) return;
  const int per = kLongSeg / kLongBlock, jt = j0 + threadIdx.x * per;
  long long len[per];
  long long mine = 0;
#pragma unroll
  for (int i = 0; i < per; ++i) {
    len[i] = 0;
    if (jt + i < na) { const int a = aci[a0 + jt + i]; len[i] = brp[a + 1] - brp[a]; }
    mine += len[i];
  }
  // block exclusive scan of int64 sums
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  long long incl = mine;
  for (int o = 1; o < 32; o <<= 1) { const long long y = __shfl_up_sync(0xffffffffu, incl, o); if (lane >= o) incl += y; }
  if (lane == 31) sh_tot[warp] = incl;
  __syncthreads();
  long long before = 0, all = 0;
  for (int w = 0; w < kLongBlock / 32; ++w) { if (w < warp) before += sh_tot[w]; all += sh_tot[w]; }
  long long run = before + incl - mine;
  long long* out = pre + loff[d];
#pragma unroll
  for (int i = 0; i < per; ++i) if (jt + i < na) { run += len[i]; out[jt + i] = run; }
  if (threadIdx.x == 0) segtot[(long long)d * maxseg + blockIdx.x] = all;
}

// Adds the sums of the earlier segments to each segment's prefix; the last segment's block records the row's products
// (lprod[d], prod[row] clipped to INT_MAX), adds them to the total and flags rows beyond the int32 path.
__global__ void __launch_bounds__(kLongBlock) k_long_prefix_fix(const int* __restrict__ lrow, const int* __restrict__ loff, const int* __restrict__ arp,
                                                                long long* pre, const long long* __restrict__ segtot, int maxseg,
                                                                long long* lprod, int* prod, unsigned long long* total, int* overflow) {
  __shared__ long long sh_off[kLongBlock / 32];
  const int d = blockIdx.y, row = lrow[d];
  const int na = arp[row + 1] - arp[row], j0 = blockIdx.x * kLongSeg, s = blockIdx.x;
  if (j0 >= na) return;
  const long long* st = segtot + (long long)d * maxseg;
  long long mine = 0;
  for (int i = threadIdx.x; i < s; i += blockDim.x) mine += st[i];
  for (int o = 16; o > 0; o >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, o);
  if ((threadIdx.x & 31) == 0) sh_off[threadIdx.x >> 5] = mine;
  __syncthreads();
  long long off = 0;
  for (int w = 0; w < kLongBlock / 32; ++w) off += sh_off[w];
  long long* out = pre + loff[d];
  if (off) for (int j = j0 + threadIdx.x; j < min(na, j0 + kLongSeg); j += blockDim.x) out[j] += off;
  if (threadIdx.x == 0 && j0 + kLongSeg >= na) {
    const long long tot = off + st[s];
    lprod[d] = tot;
    prod[row] = int(min(tot, (long long)INT_MAX));
    atomicAdd(total, (unsigned long long)tot);
    if (tot > INT_MAX) atomicExch(overflow, 1);
  }
}

// Flags the columns of the row's products (symbolic) or also adds the products into its values (numeric, vals set),
// window by window: window w holds the row's products [w * kLongWindow, (w + 1) * kLongWindow). Each thread takes
// kLongPer consecutive products of the window (merge-path style: one binary search in the prefix for its first
// nonzero of A, then forward), so rows of A whose B rows have one to three entries keep every lane busy (a warp a
// nonzero idled 29-31 lanes: v7's 0.13-0.27 ms for 0.2-0.6 M products). Products on the last two columns a thread
// saw (hub columns of B: every product of a near-empty matrix's long row) are summed in registers, and a warp whose
// lanes all end on one column sums them before its single atomic; a flag is read before it is stored, so a hot column
// is written once, not by every product. Grid: (blocks a row, rows in batch).
constexpr int kLongPer = kLongWindow / kLongBlock;
template <typename T>
__device__ __forceinline__ void long_flush(int c, T v, unsigned char* fl, T* rv) {
  if (c < 0) return;
  if (!fl[c]) fl[c] = 1;
  if (rv) atomicAdd(&rv[c], v);
}
template <typename T>
__device__ __forceinline__ void long_flush_warp(int c, T v, int lane, unsigned char* fl, T* rv) {
  const int c0 = __shfl_sync(0xffffffffu, c, 0);
  if (__all_sync(0xffffffffu, c == c0)) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) long_flush(c0, v, fl, rv);
  } else {
    long_flush(c, v, fl, rv);
  }
}
template <typename T>
__global__ void __launch_bounds__(kLongBlock) k_long_walk(const int* __restrict__ lrow, const int* __restrict__ loff, const long long* __restrict__ lprod,
                                                          const long long* __restrict__ pre, const int* __restrict__ arp, const int* __restrict__ aci,
                                                          const T* __restrict__ av, const int* __restrict__ brp, const int* __restrict__ bci,
                                                          const T* __restrict__ bv, unsigned char* flags, long long fstride, T* vals, long long ncols) {
  __shared__ int win[2];
  const int row = lrow[blockIdx.y];
  const int a0 = arp[row], na = arp[row + 1] - a0;
  const long long P = lprod[blockIdx.y];
  const long long* pr = pre + loff[blockIdx.y];
  unsigned char* fl = flags + (long long)blockIdx.y * fstride;
  T* rv = vals ? vals + (long long)blockIdx.y * ncols : nullptr;
  const int lane = threadIdx.x & 31;
  for (long long p0 = (long long)blockIdx.x * kLongWindow; p0 < P; p0 += (long long)gridDim.x * kLongWindow) {
    const long long p1 = min(P, p0 + kLongWindow);
    __syncthreads();  // win is rewritten
    if (threadIdx.x < 2) {  // the window's nonzeros: first whose inclusive prefix exceeds p0, first that reaches p1
      const long long key = threadIdx.x ? p1 : p0 + 1;
      int lo = 0, hi = na;
      while (lo < hi) { const int mid = (lo + hi) >> 1; if (pr[mid] < key) lo = mid + 1; else hi = mid; }
      win[threadIdx.x] = lo;
    }
    __syncthreads();
    long long q = p0 + (long long)threadIdx.x * kLongPer;
    const long long q1 = min(p1, q + kLongPer);
    // two columns held in registers (the most recent first): B rows of two entries (a near-empty matrix with two long
    // columns) alternate between two hot columns, which one slot would flush at every product
    int c_run = -1, c_old = -1;
    T v_run = T(0), v_old = T(0);
    if (q < q1) {
      int lo = win[0], hi = min(na - 1, win[1]);  // this thread's first nonzero: first with prefix > q
      while (lo < hi) { const int mid = (lo + hi) >> 1; if (pr[mid] <= q) lo = mid + 1; else hi = mid; }
      for (int k = lo; q < q1; ++k) {
        const long long end = pr[k];
        if (end <= q) continue;  // a nonzero whose B row is empty
        const int a = aci[a0 + k];
        const int b0 = brp[a];
        const long long start = end - (brp[a + 1] - b0);
        const T x = rv ? av[a0 + k] : T(0);
        for (const long long e = min(q1, end); q < e; ++q) {
          const int l = b0 + int(q - start);
          const int c = bci[l];
          if (c == c_old) { const int tc = c_run; c_run = c_old; c_old = tc; const T tv = v_run; v_run = v_old; v_old = tv; }
          else if (c != c_run) { long_flush(c_old, v_old, fl, rv); c_old = c_run; v_old = v_run; c_run = c; v_run = T(0); }
          if (rv) v_run += x * bv[l];
        }
      }
    }
    // the whole block reaches this point each window: a warp whose lanes all hold one column in a slot adds once
    long_flush_warp(c_run, v_run, lane, fl, rv);
    long_flush_warp(c_old, v_old, lane, fl, rv);
  }
}

// Symbolic: the flagged columns of range blockIdx.x (kLongCols columns) of the batch row blockIdx.y; the range's count
// goes to rcnt[d * nranges + range] (d = didx[row]) and is added to cnt[row]. Flags are 0/1 bytes, so the popcount of
// a word counts its flagged bytes.
__global__ void __launch_bounds__(kLongBlock) k_long_count(const int* __restrict__ lrow, const int* __restrict__ didx, const unsigned char* __restrict__ flags,
                                                           long long fstride, long long ncols, int nranges, int* rcnt, int* cnt) {
  __shared__ int sh_tot[kLongBlock / 32];
  const int row = lrow[blockIdx.y];
  const unsigned* fw = reinterpret_cast<const unsigned*>(flags + (long long)blockIdx.y * fstride);
  const long long words = (ncols + 3) / 4;
  const long long w0 = (long long)blockIdx.x * (kLongCols / 4), w1 = min(words, w0 + kLongCols / 4);
  int mine = 0;
  for (long long i = w0 + threadIdx.x; i < w1; i += blockDim.x) mine += __popc(fw[i]);
  mine = warp_sum(mine);
  if ((threadIdx.x & 31) == 0) sh_tot[threadIdx.x >> 5] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < kLongBlock / 32; ++w) t += sh_tot[w];
    rcnt[(long long)didx[row] * nranges + blockIdx.x] = t;
    if (t) atomicAdd(&cnt[row], t);
  }
}

// Numeric: writes range blockIdx.x of the batch row blockIdx.y, sorted by construction: each thread owns 64
// consecutive columns (16 flag words); the scan of their counts after the counts of the earlier ranges gives its
// output position.
template <typename T>
__global__ void __launch_bounds__(kLongBlock) k_long_write(const int* __restrict__ lrow, const int* __restrict__ didx, const unsigned char* __restrict__ flags,
                                                           long long fstride, const T* __restrict__ vals, long long ncols, int nranges,
                                                           const int* __restrict__ rcnt, const int* __restrict__ crp, int* cci, T* cv) {
  __shared__ int scratch[32];
  const int row = lrow[blockIdx.y];
  const int* rc = rcnt + (long long)didx[row] * nranges;
  if (rc[blockIdx.x] == 0) return;
  int off = crp[row];
  for (int j = 0; j < int(blockIdx.x); ++j) off += rc[j];
  const unsigned* fw = reinterpret_cast<const unsigned*>(flags + (long long)blockIdx.y * fstride);
  const T* rv = vals + (long long)blockIdx.y * ncols;
  const long long words = (ncols + 3) / 4;
  const long long w0 = min(words, (long long)blockIdx.x * (kLongCols / 4) + threadIdx.x * 16), w1 = min(words, w0 + 16);
  int mine = 0;
  for (long long i = w0; i < w1; ++i) mine += __popc(fw[i]);
  int pos = off + block_exclusive_scan(mine, scratch);
  for (long long i = w0; i < w1; ++i) {
    for (unsigned f = fw[i]; f; f &= f - 1) {
      const int c = int(i * 4 + ((__ffs(f) - 1) >> 3));
      cci[pos] = c;
      cv[pos] = rv[c];
      ++pos;
    }
  }
}

// ---------------------------------------------------------------- direct rows (hash-opt)
// Rows of one nonzero a of A: C's row is a times B's row, in B's (sorted) order. One thread a row; rows whose B row
// is longer than 8 are copied by their whole warp (coalesced), one after the other.
template <typename T>
__global__ void k_num_direct(int m, const unsigned char* __restrict__ gid, int direct, const int* __restrict__ arp,
                             const int* __restrict__ aci, const T* __restrict__ av, const int* __restrict__ brp,
                             const int* __restrict__ bci, const T* __restrict__ bv, const int* __restrict__ crp, int* cci, T* cv) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int s = 0, len = 0, o = 0;
  T x = T(0);
  if (row < m && gid[row] == direct) {
    const int k = arp[row], a = aci[k];
    x = av[k]; s = brp[a]; len = brp[a + 1] - s; o = crp[row];
  }
  const bool wide = len > 8;
  if (!wide) for (int j = 0; j < len; ++j) { cci[o + j] = bci[s + j]; cv[o + j] = x * bv[s + j]; }
  for (unsigned w = __ballot_sync(0xffffffffu, wide); w; w &= w - 1) {
    const int src = __ffs(w) - 1;
    const int ss = __shfl_sync(0xffffffffu, s, src), ll = __shfl_sync(0xffffffffu, len, src), oo = __shfl_sync(0xffffffffu, o, src);
    const T xx = __shfl_sync(0xffffffffu, x, src);
    for (int j = lane; j < ll; j += 32) { cci[oo + j] = bci[ss + j]; cv[oo + j] = xx * bv[ss + j]; }
  }
}

}  // namespace spb::spgemm
