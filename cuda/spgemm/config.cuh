// Derives the hash SpGEMM parameters from the device, the way seed 004 derives its Table I for the P100:
// the largest power-of-two hash table that fits the opt-in shared memory per block gets a 1024-thread
// block; table and block are halved until the blocks resident per SM reach the device's limit; rows with
// at most 32 products (16 nonzeros in the numeric phase) go to PWARP/ROW (4 threads a row).
// Rows beyond the largest shared table go to the dense chunked accumulator (dense_kernels in
// hash_kernels.cuh) instead of the paper's global-memory hash table.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

namespace spb::spgemm {

constexpr int kMaxGroups = 14;  // PWARP + TB levels + dense + long + direct, upper bound

struct Level {
  int table;       // hash table entries (power of two)
  int block;       // threads per block
  int tb_per_sm;   // resident blocks per SM at this table/block size
  int max_count;   // rows with products (symbolic) / nnz (numeric) <= max_count use this level
  int smem_bytes;  // dynamic shared memory per block
  bool per_warp = false;  // WARP/ROW (hash-opt): block/32 rows a block, one table each
};

struct PhaseConfig {
  int pwarp_max = 0;      // PWARP/ROW for counts in [1, pwarp_max]
  int pwarp_table = 0;    // table entries per row in PWARP/ROW
  int pwarp_block = 512;  // threads per PWARP block (4 per row)
  std::vector<Level> levels;  // TB/ROW levels, ascending max_count
  int dense_width = 0;    // dense accumulator: columns per chunk (symbolic: bits of the bitmap)
  int dense_block = 512;
  int dense_smem = 0;
  int ngroups() const { return 1 + int(levels.size()) + 1; }  // pwarp, levels..., dense
  // the group of the smallest TB (block a row) level, -1 if none: hash-opt's symbolic estimates go no lower (k_tb_sym)
  int first_tb_group() const {
    for (size_t i = 0; i < levels.size(); ++i) if (!levels[i].per_warp) return int(i) + 1;
    return -1;
  }
  int dense_group() const { return ngroups() - 1; }
};

// What differs between `hash` (seed 004 as published) and `hash-opt` (our improvements).
struct HashOptions {
  bool opt = false;
  double load = 1.0;         // max keys per table entry: 1.0 in the paper, 0.5 for shorter probe chains
  int bitonic_above = 1 << 30;  // rows with more nonzeros than this are sorted bitonically (paper: count-smaller)
  // TB rows above bitonic_above keep the count-smaller sort while n * n / blockDim (compares a thread) is at most this
  int count_smaller_max = 4096;  // hash-opt: 256 (opt_options)
  // hash-opt: rows with many products relative to ncols take the dense accumulator even if a table fits.
  bool dense_by_density = false;
  // hash-opt: rows iterated by row_products (32 nonzeros of A loaded at once; products spread over the
  // lanes where B rows are short). Paper: a warp per nonzero of A, one after the other.
  bool flat_products = false;
  // hash-opt: multiplier of the key bits above the table mask added to the hash (0: seed 004's key*107).
  unsigned hash_mul = 0;
  // hash-opt (v6): TB and dense blocks walk rows of long B rows in balanced pieces (row_pieces); the numeric
  // dense path reads precomputed chunk bounds of B's rows instead of binary searches; TB rows whose column span
  // is too wide for the bitmap in the keys' free half get a bucket rank instead of the bitonic sort.
  bool pieces = false, chunk_bounds = false, bucket_rank = false;
  // hash-opt: products of one column met at a lane's offset in consecutive B rows add in registers before the table
  // (merged_rows, used where a quarter of the consecutive B rows start alike)
  bool merge = false;
  // hash-opt: symbolic rows above the two smallest TB levels take the level of an estimate of their nnz (not below the
  // smallest TB level): products, counting each run of consecutive B rows that start at the same column with the same
  // length once (the rows of one node of a block-structured matrix share their pattern); a row whose table turns out too
  // small is counted in column bitmaps by the same block (k_tb_sym). est_div (tests only) divides the estimate, to send
  // rows down that path.
  bool estimate = false;
  int est_div = 1;
  // hash-opt (v7, v8): rows of more than long_nnz nonzeros of A, or of more than long_prod products mostly from one B
  // row, are walked in windows of products by many blocks into a global accumulator (0: off); rows of one nonzero of A
  // with at most direct_max products are a scaled copy of the B row.
  int long_nnz = 0, long_prod = 0, direct_max = 0;
};

inline HashOptions paper_options() { return HashOptions{}; }
inline HashOptions opt_options() {
  HashOptions o;
  o.opt = true; o.load = 0.5; o.bitonic_above = 64; o.dense_by_density = true; o.flat_products = true;
  o.hash_mul = 0x9E3779B1u;
  // count-smaller above 256 compares a thread lost to the bitmap rank on FEM rows (375 entries, 64 threads: 2197)
  o.count_smaller_max = 256;
  o.pieces = o.chunk_bounds = o.bucket_rank = o.merge = o.estimate = true;
  // Long rows: more than 4096 nonzeros of A, or more than 65536 products mostly from one B row (k_products), are cut into
  // windows of products over many blocks (docs/spgemm-notes.md, v8). SPB_SPGEMM_LONG=N sets the nonzero threshold
  // (tests send many rows down the path with a small one), SPB_SPGEMM_LONG_PROD=N the product threshold (0: off).
  o.long_nnz = 4096; o.long_prod = 65536;
  if (const char* v = std::getenv("SPB_SPGEMM_LONG")) { const int x = std::atoi(v); if (x > 1) o.long_nnz = x; }
  if (const char* v = std::getenv("SPB_SPGEMM_LONG_PROD")) o.long_prod = std::max(0, std::atoi(v));
  if (const char* v = std::getenv("SPB_SPGEMM_CS")) o.count_smaller_max = std::max(0, std::atoi(v));
  if (const char* v = std::getenv("SPB_SPGEMM_EST_DIV")) o.est_div = std::max(1, std::atoi(v));
  // a warp copies a direct row in at most 256 coalesced steps; longer B rows take the chunked paths
  o.direct_max = 8192;
  // diagnosis only: SPB_SPGEMM_OFF=pieces,bounds,bucket,long,direct,merge,estimate turns v6's changes off one by one (A/B on one build)
  if (const char* off = std::getenv("SPB_SPGEMM_OFF")) {
    const std::string v = off;
    if (v.find("pieces") != std::string::npos) o.pieces = false;
    if (v.find("bounds") != std::string::npos) o.chunk_bounds = false;
    if (v.find("bucket") != std::string::npos) o.bucket_rank = false;
    if (v.find("long") != std::string::npos) o.long_nnz = o.long_prod = 0;
    if (v.find("direct") != std::string::npos) o.direct_max = 0;
    if (v.find("merge") != std::string::npos) o.merge = false;
    if (v.find("estimate") != std::string::npos) o.estimate = false;
  }
  return o;
}

inline int pow2_floor(long long x) { int p = 1; while ((long long)p * 2 <= x) p *= 2; return p; }

// Table I-style derivation for one phase: entry_bytes = 4 (symbolic keys) or 4 + sizeof(T) (numeric).
inline std::vector<Level> derive_levels(const cudaDeviceProp& p, int entry_bytes, int table_cap, double load, int min_count) {
  const int reserve = 1024;  // static shared memory of the kernels (counters, scan scratch)
  int T = std::min(pow2_floor((long long)(p.sharedMemPerBlockOptin - reserve) / entry_bytes), table_cap);
  int B = std::min(1024, p.maxThreadsPerBlock);
  const int maxb = std::max(1, p.maxBlocksPerMultiProcessor);
  std::vector<Level> out;
  while (T >= 64 && B >= 32) {
    const int bytes = T * entry_bytes;
    const int by_smem = int(p.sharedMemPerMultiprocessor / (bytes + reserve));
    const int by_threads = p.maxThreadsPerMultiProcessor / B;
    const int tb = std::min({maxb, by_smem, by_threads});
    out.push_back(Level{T, B, tb, int(T * load), bytes});
    if (tb >= maxb || B == 32) break;
    T /= 2; B /= 2;
  }
  std::reverse(out.begin(), out.end());
  // Drop levels that would start below the PWARP limit.
  std::vector<Level> kept;
  for (const Level& l : out) if (l.max_count > min_count) kept.push_back(l);
  return kept;
}

// hash-opt: WARP/ROW levels (tables 128..512, 8 rows a 256-thread block) below the smallest TB/ROW level,
// so a row of a few dozen products no longer initialises a 1024-entry table in a block of its own.
inline void add_warp_levels(PhaseConfig& ph, int entry_bytes, double load) {
  const int block = 256, rows = block / 32;
  std::vector<Level> w;
  int top = ph.pwarp_max;
  for (int T = 128; T <= 512; T *= 2) {
    const int cap = int(T * load);
    if (cap <= top) continue;
    w.push_back(Level{T, block, 0, cap, rows * T * entry_bytes, true});
    top = cap;
  }
  for (const Level& l : ph.levels) if (l.max_count > top) w.push_back(l);
  ph.levels = w;
}

struct HashConfig {
  HashOptions opt;
  PhaseConfig sym, num;
};

inline HashConfig derive_config(const cudaDeviceProp& p, int value_bytes, HashOptions o) {
  HashConfig c;
  c.opt = o;
  const int num_entry = 4 + value_bytes;
  const int half_sm = int(std::min<size_t>(p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor / 2)) - 2048;
  // Numeric phase.
  c.num.pwarp_max = 16;
  c.num.pwarp_table = 32;
  c.num.levels = derive_levels(p, num_entry, 1 << 30, o.load, c.num.pwarp_max);
  const int num_cap = c.num.levels.empty() ? 0 : c.num.levels.back().table;
  // Dense chunk: values + one flag bit per column, two blocks per SM.
  c.num.dense_width = pow2_floor((long long)half_sm * 8 / (8 * value_bytes + 1));
  c.num.dense_smem = c.num.dense_width * value_bytes + c.num.dense_width / 8;
  // Symbolic phase: its largest table is capped at the numeric one, so a row too big for every numeric
  // table was counted by the dense path (which also records its per-chunk counts).
  c.sym.pwarp_max = 32;
  c.sym.pwarp_table = o.opt ? 64 : 32;
  c.sym.levels = derive_levels(p, 4, num_cap, o.load, c.sym.pwarp_max);
  if (o.opt) { add_warp_levels(c.sym, 4, o.load); add_warp_levels(c.num, num_entry, o.load); }
  c.sym.dense_width = std::max(c.num.dense_width, pow2_floor((long long)half_sm * 8));  // bits
  c.sym.dense_smem = c.sym.dense_width / 8 + 4 * (c.sym.dense_width / c.num.dense_width);
  return c;
}

}  // namespace spb::spgemm
