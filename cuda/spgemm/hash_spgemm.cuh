// Host side of hash SpGEMM: grouping, symbolic (count) phase, prefix sum and the one allocation of C,
// numeric phase; one CUDA stream per group. Everything C needs is allocated through TrackingAllocator.
#pragma once
#include <cub/device/device_scan.cuh>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include "../common/check.cuh"
#include "../common/tracking_alloc.cuh"
#include "config.cuh"
#include "hash_kernels.cuh"

namespace spb::spgemm {

// One explain row per group and phase: what --explain prints.
inline std::vector<std::vector<std::string>> explain_rows(const HashConfig& c) {
  std::vector<std::vector<std::string>> rows;
  auto phase = [&](const char* name, const PhaseConfig& p, const char* what, const char* unit, bool numeric) {
    int lo = 0, g = 0;
    rows.push_back({name, std::to_string(g++), "PWARP/ROW", std::string(what) + " 1-" + std::to_string(p.pwarp_max),
                    std::to_string(p.pwarp_table) + "/row", std::to_string(p.pwarp_block), "-"});
    lo = p.pwarp_max + 1;
    for (const Level& l : p.levels) {
      rows.push_back({name, std::to_string(g++), l.per_warp ? "WARP/ROW" : "TB/ROW", std::string(what) + " " + std::to_string(lo) + "-" + std::to_string(l.max_count),
                      std::to_string(l.table) + (l.per_warp ? "/row" : ""), std::to_string(l.block), l.per_warp ? "-" : std::to_string(l.tb_per_sm)});
      lo = l.max_count + 1;
    }
    rows.push_back({name, std::to_string(g), "DENSE/CHUNK", std::string(what) + " " + std::to_string(lo) + "-",
                    std::to_string(p.dense_width) + unit,
                    std::to_string(p.dense_block), "-"});
    if (c.opt.long_nnz > 0)
      rows.push_back({name, std::to_string(g + 1), "LONG/WINDOWS", "nnz of A > " + std::to_string(c.opt.long_nnz) +
                      (c.opt.long_prod > 0 ? " or products > " + std::to_string(c.opt.long_prod) + ", half from one B row, >= cols/8" : std::string()),
                      "global column flags" + std::string(numeric ? " + values" : "") + " of the row", std::to_string(kLongBlock) + " (windows of " + std::to_string(kLongWindow) + " products)", "-"});
    if (const int tb = p.first_tb_group(); !numeric && c.opt.estimate && tb >= 0)
      rows.push_back({name, std::to_string(tb + 2) + "-" + std::to_string(g - 1), "TB/ESTIMATE", "by an estimate (products, a run of alike B rows once), not below group " + std::to_string(tb),
                      "a full table: the row counted in column bitmaps", "-", "-"});
    if (c.opt.direct_max > 0)
      rows.push_back({name, std::to_string(g + 2), "DIRECT/COPY", "1 nnz of A, products 1-" + std::to_string(c.opt.direct_max),
                      numeric ? "none: scaled B row" : "none: nnz = products", numeric ? "256 (a thread a row)" : "-", "-"});
  };
  phase("symbolic", c.sym, "products", " bits", false);
  phase("numeric", c.num, "nnz", " cols", true);
  return rows;
}

template <typename F>
void allow_dynamic_smem(F* kernel, int optin) {
  cudaFuncAttributes a;
  CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - int(a.sharedSizeBytes)));
}

template <typename T>
class HashSpgemm {
 public:
  HashSpgemm(const cudaDeviceProp& prop, HashOptions o, cudaStream_t main) : main_(main), sms_(prop.multiProcessorCount) {
    cfg_ = derive_config(prop, int(sizeof(T)), o);
    nstreams_ = std::max(cfg_.sym.ngroups(), cfg_.num.ngroups()) + 2;  // + long and direct groups
    if (nstreams_ > kMaxGroups + 1) throw std::runtime_error("hash SpGEMM: too many groups derived from the device");
    for (int i = 0; i < nstreams_; ++i) {
      CUDA_CHECK(cudaStreamCreateWithFlags(&streams_[i], cudaStreamNonBlocking));
      CUDA_CHECK(cudaEventCreateWithFlags(&join_[i], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    for (auto& e : phase_) CUDA_CHECK(cudaEventCreate(&e));
    for (auto& ph : gev_) for (auto& g : ph) for (auto& e : g) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaMallocHost(&host_, 4096));
    // The attribute is per kernel and process-wide (hash and hash-opt, f32 and f64 objects share the kernels), so
    // every instance allows the device's whole opt-in (less the kernel's static shared memory) rather than its own
    // need; occupancy follows each launch's size.
    const int most = int(prop.sharedMemPerBlockOptin);
    allow_dynamic_smem(k_warp<SymTable>, most);
    allow_dynamic_smem(k_warp<NumTable<T>>, most);
    // (the largest shared-memory carveout was asked for here once: multimodal 5 % slower, nothing faster; notes, v10)
    allow_dynamic_smem(k_tb_sym, most);
    allow_dynamic_smem(k_tb<NumTable<T>>, most);
    allow_dynamic_smem(k_sym_dense, most);
    allow_dynamic_smem(k_num_dense<T>, most);
    allow_dynamic_smem(k_pwarp<SymTable>, most);
    allow_dynamic_smem(k_pwarp<NumTable<T>>, most);
  }
  ~HashSpgemm() {
    for (int i = 0; i < nstreams_; ++i) { cudaStreamDestroy(streams_[i]); cudaEventDestroy(join_[i]); }
    cudaEventDestroy(fork_);
    for (auto& e : phase_) cudaEventDestroy(e);
    for (auto& ph : gev_) for (auto& g : ph) for (auto& e : g) cudaEventDestroy(e);
    cudaFreeHost(host_);
  }
  HashSpgemm(const HashSpgemm&) = delete;
  HashSpgemm& operator=(const HashSpgemm&) = delete;

  const HashConfig& config() const { return cfg_; }

  // C = A * B, C allocated here (row pointers, columns, values); temporaries freed before returning.
  // Phase times (ms) go to *breakdown when it is given (this waits for the GPU at the end).
  void run(const DevCsr<T>& A, const DevCsr<T>& B, DevCsr<T>& C, TrackingAllocator& al, std::map<std::string, double>* breakdown) {
    if (A.cols != B.rows) throw std::invalid_argument("A has " + std::to_string(A.cols) + " columns but B has " + std::to_string(B.rows) + " rows");
    C = DevCsr<T>{};
    C.rows = A.rows; C.cols = B.cols;
    CUDA_CHECK(cudaEventRecord(phase_[0], main_));
    if (A.rows == 0 || B.cols == 0 || A.nnz == 0 || B.nnz == 0) {
      C.rp = al.alloc<int>(size_t(A.rows) + 1);
      CUDA_CHECK(cudaMemsetAsync(C.rp, 0, sizeof(int) * (size_t(A.rows) + 1), main_));
      C.ci = al.alloc<int>(0); C.v = al.alloc<T>(0);
      for (int i = 1; i < 5; ++i) CUDA_CHECK(cudaEventRecord(phase_[i], main_));
      fill_breakdown(breakdown);
      return;
    }
    Work w{A, B, C, al};
    w.m = A.rows; w.n = B.cols;
    // SPB_SPGEMM_GROUPS set: the --breakdown run also times every group (stderr), to see where power-law rows go;
    // =serial runs the groups one after the other on the main stream, so each time is the group's alone
    const char* tenv = breakdown ? std::getenv("SPB_SPGEMM_GROUPS") : nullptr;
    w.trace = tenv != nullptr; w.serial = w.trace && std::string(tenv) == "serial";
    try {
      group_by_products(w);
      if (w.all_direct) {
        for (int i = 1; i < 3; ++i) CUDA_CHECK(cudaEventRecord(phase_[i], main_));
      } else {
        symbolic(w);
        CUDA_CHECK(cudaEventRecord(phase_[2], main_));
        allocate_c(w);
      }
      CUDA_CHECK(cudaEventRecord(phase_[3], main_));
      numeric(w);
      CUDA_CHECK(cudaEventRecord(phase_[4], main_));
    } catch (...) {
      // side streams may still run on the temporaries: wait for them before the memory goes back
      for (int i = 0; i < nstreams_; ++i) cudaStreamSynchronize(streams_[i]);
      cudaStreamSynchronize(main_);
      for (void* p : w.temps) al.free(p);
      throw;
    }
    for (void* p : w.temps) al.free(p);
    fill_breakdown(breakdown);
    if (w.trace) trace_groups({w.scount, w.ncount});
  }

 private:
  // One product's buffers and group counts, from grouping to the numeric phase.
  struct Work {
    const DevCsr<T>& A;
    const DevCsr<T>& B;
    DevCsr<T>& C;
    TrackingAllocator& al;
    int m = 0, n = 0;
    bool trace = false, serial = false, all_direct = false;
    std::vector<void*> temps;
    int *prod = nullptr, *cnt = nullptr, *didx = nullptr, *perm = nullptr, *small = nullptr;
    unsigned char* gid = nullptr;
    GroupLimits gs, gn;
    std::vector<int> scount, soff, ncount, noff;
    int* chunkcnt = nullptr;  // dense rows: nnz per numeric chunk
    // long rows (listed by k_products in lrow/loff, in the order of didx)
    int *lrow = nullptr, *loff = nullptr;
    int maxseg = 0, nlong = 0, lbatch = 0, nranges = 0;
    long long lnnz = 0, fstride = 0;
    long long *pre = nullptr, *lprod = nullptr;  // products prefix of their nonzeros; products a row
    int* rcnt = nullptr;                          // nnz per range of kLongCols columns
    unsigned char* lflags = nullptr;              // a batch's column flags
    T* lvals = nullptr;                           // a batch's values
    void* tmp(size_t bytes) { void* p = al.raw(bytes); temps.push_back(p); return p; }
  };
  // Layout of the small device block (ints) and of the pinned host block.
  enum : int { kCounts = 0, kCursor = 16, kOverflow = 32, kTotal = 34, kLong = 36 /* maxseg, count, nnz */, kSmallInts = 64,
               kHostNnz = 256, kHostSymCursor = 64, kHostNumCursor = 128 };

  // ---- grouping by products: one pass over A's rows, then the first host synchronisation (group sizes)
  void group_by_products(Work& w) {
    const int m = w.m;
    // one scratch block: the small block first (its 64-bit total stays 8-byte aligned), prod, cnt (m + 1), didx,
    // perm, gid (bytes last)
    // perm, lrow and loff, gid (bytes last). Long rows: at most nnz(A) / (long_nnz + 1) by nonzeros, and by products
    // at most (2^31 - 1) / long_prod while the products fit the int32 path (k_products flags the rest as overflow)
    size_t lcap = 1;
    if (cfg_.opt.long_nnz > 0) lcap += size_t(w.A.nnz / (cfg_.opt.long_nnz + 1));
    if (cfg_.opt.long_prod > 0) lcap += std::min<size_t>(size_t(m), size_t(INT_MAX / cfg_.opt.long_prod));
    const size_t ints = kSmallInts + size_t(m) * 4 + 1 + 2 * lcap;
    int* base = static_cast<int*>(w.tmp(sizeof(int) * ints + size_t(m)));
    w.small = base; w.prod = base + kSmallInts; w.cnt = w.prod + m; w.didx = w.cnt + m + 1; w.perm = w.didx + m;
    w.lrow = w.perm + m; w.loff = w.lrow + lcap;
    w.gid = reinterpret_cast<unsigned char*>(w.loff + lcap);
    int* hs = static_cast<int*>(host_);
    CUDA_CHECK(cudaMemsetAsync(w.small, 0, sizeof(int) * kSmallInts, main_));
    w.gs = limits(cfg_.sym, w.n, false);
    w.gs.long_cap = int(lcap);
    const int tpb = 256;
    unsigned long long* total = reinterpret_cast<unsigned long long*>(w.small + kTotal);
    k_products<<<(m + 1 + tpb - 1) / tpb, tpb, 0, main_>>>(m, w.A.rp, w.A.ci, w.B.rp, w.B.ci, w.prod, w.cnt, w.didx, w.gid, w.gs,
                                                          w.small + kCounts, total, w.small + kOverflow, w.small + kLong, w.lrow, w.loff);
    CUDA_CHECK_LAUNCH();
    // Rows of one nonzero of A know their nnz already: when every row is such (or empty), the prefix sum taken now is
    // C's row pointer and the symbolic pass and the second synchronisation are skipped. A few microseconds of scan
    // are spent for nothing on the other matrices.
    const bool speculate = w.gs.direct_max > 0;
    if (speculate) {
      w.C.rp = w.al.template alloc<int>(size_t(m) + 1);
      scan(w);
      CUDA_CHECK(cudaMemcpyAsync(hs + kHostNnz, w.C.rp + m, sizeof(int), cudaMemcpyDeviceToHost, main_));
    }
    CUDA_CHECK(cudaMemcpyAsync(hs, w.small, sizeof(int) * kSmallInts, cudaMemcpyDeviceToHost, main_));
    CUDA_CHECK(cudaStreamSynchronize(main_));
    check_products(hs);
    w.scount.assign(hs + kCounts, hs + kCounts + w.gs.direct_group() + 1);
    w.maxseg = hs[kLong]; w.nlong = hs[kLong + 1]; w.lnnz = hs[kLong + 2];
    w.all_direct = speculate;
    for (int g = 0; g < w.gs.direct_group(); ++g) if (w.scount[g]) w.all_direct = false;
    if (w.all_direct) {
      w.C.nnz = hs[kHostNnz];
      w.C.ci = w.al.template alloc<int>(size_t(w.C.nnz));
      w.C.v = w.al.template alloc<T>(size_t(w.C.nnz));
      w.ncount = w.scount;
      return;
    }
    w.soff = offsets(w.scount);
    scatter(m, w.gid, w.gs.n + 1, w.soff, w.small + kCursor, w.perm, kHostSymCursor);  // long and direct rows: no list
    if (w.nlong) plan_long(w);
    CUDA_CHECK(cudaEventRecord(phase_[1], main_));
  }

  // Long rows: their products prefix (so blocks can take equal windows of products), the batch size from the
  // accumulator budget, range counts, a batch's flags and values.
  void plan_long(Work& w) {
    constexpr size_t kBudget = size_t(256) << 20;  // bytes of accumulators at once
    w.fstride = (w.n + 15LL) / 16 * 16;
    w.nranges = int((w.n + kLongCols - 1) / kLongCols);
    const size_t per_row = size_t(w.fstride) + size_t(w.n) * sizeof(T);
    w.lbatch = int(std::max<size_t>(1, std::min<size_t>({size_t(w.nlong), kBudget / per_row, 65535})));
    w.pre = static_cast<long long*>(w.tmp(sizeof(long long) * size_t(w.lnnz)));
    long long* segtot = static_cast<long long*>(w.tmp(sizeof(long long) * size_t(w.nlong) * w.maxseg));
    w.lprod = static_cast<long long*>(w.tmp(sizeof(long long) * size_t(w.nlong)));
    w.rcnt = static_cast<int*>(w.tmp(sizeof(int) * size_t(w.nlong) * w.nranges));
    w.lflags = static_cast<unsigned char*>(w.tmp(size_t(w.lbatch) * w.fstride));
    w.lvals = static_cast<T*>(w.tmp(size_t(w.lbatch) * w.n * sizeof(T)));
    for (int d0 = 0; d0 < w.nlong; d0 += 65535) {  // gridDim.y is at most 65535
      const dim3 g(w.maxseg, std::min(65535, w.nlong - d0));
      long long* st = segtot + size_t(d0) * w.maxseg;
      k_long_prefix<<<g, kLongBlock, 0, main_>>>(w.lrow + d0, w.loff + d0, w.A.rp, w.A.ci, w.B.rp, w.pre, st, w.maxseg);
      CUDA_CHECK_LAUNCH();
      k_long_prefix_fix<<<g, kLongBlock, 0, main_>>>(w.lrow + d0, w.loff + d0, w.A.rp, w.pre, st, w.maxseg, w.lprod + d0, w.prod,
                                                     reinterpret_cast<unsigned long long*>(w.small + kTotal), w.small + kOverflow);
      CUDA_CHECK_LAUNCH();
    }
  }
  // Blocks a long row gets in the walk: enough for the whole GPU over the batch (each loops over its windows).
  int long_blocks(int nb) const { return std::max(1, sms_ * 8 / nb); }

  // ---- symbolic: count nnz per row (direct rows were counted by k_products)
  void symbolic(Work& w) {
    const PhaseConfig& S = cfg_.sym;
    const DevCsr<T>& A = w.A; const DevCsr<T>& B = w.B;
    const unsigned hm = cfg_.opt.hash_mul;
    const int n = w.n, dense = w.gs.n;
    const int nchn = (n + cfg_.num.dense_width - 1) / cfg_.num.dense_width;
    const int nchs = (n + S.dense_width - 1) / S.dense_width;
    const int ndense = w.scount[dense];
    if (ndense) w.chunkcnt = static_cast<int*>(w.tmp(sizeof(int) * size_t(ndense) * nchn));
    std::vector<int> run = w.scount;
    run[w.gs.direct_group()] = 0;
    fork(run, w.serial);
    for (int g = 0; g <= w.gs.long_group(); ++g) {
      const int rows = w.scount[g];
      if (!rows) continue;
      cudaStream_t s = stream_of(g, w.serial);
      const int* p = w.perm + w.soff[g];
      if (w.trace) CUDA_CHECK(cudaEventRecord(gev_[0][g][0], s));
      if (g == 0) {
        const int rpb = S.pwarp_block / kPw;
        k_pwarp<SymTable><<<(rows + rpb - 1) / rpb, S.pwarp_block, sizeof(int) * rpb * (S.pwarp_table + 1), s>>>(p, rows, sym_ops(w), S.pwarp_table, hm);
      } else if (g < dense) {
        const Level& l = S.levels[g - 1];
        if (l.per_warp) {
          const int rpb = l.block / 32;
          k_warp<SymTable><<<(rows + rpb - 1) / rpb, l.block, l.smem_bytes, s>>>(p, rows, sym_ops(w), l.table, cfg_.opt.merge, w.prod, hm);
        } else {
          k_tb_sym<<<rows, l.block, smem(l), s>>>(p, sym_ops(w), l.table, tb_options(cfg_.opt.estimate ? n : 0), w.prod, hm);
        }
      } else if (g == dense) {
        k_sym_dense<<<grid(size_t(rows) * nchs), S.dense_block, dense_smem(S), s>>>(p, A.rp, A.ci, B.rp, B.ci, n, S.dense_width, nchs,
                                                                                 cfg_.num.dense_width, nchn, w.cnt, w.chunkcnt, w.didx, w.prod, cfg_.opt.pieces, cfg_.opt.merge);
      } else {  // long rows, batch by batch
        for (int b0 = 0; b0 < rows; b0 += w.lbatch) {
          const int nb = std::min(w.lbatch, rows - b0);
          CUDA_CHECK(cudaMemsetAsync(w.lflags, 0, size_t(nb) * w.fstride, s));
          k_long_walk<T><<<dim3(long_blocks(nb), nb), kLongBlock, 0, s>>>(w.lrow + b0, w.loff + b0, w.lprod + b0, w.pre, A.rp, A.ci, A.v, B.rp, B.ci, B.v,
                                                                         w.lflags, w.fstride, nullptr, n);
          CUDA_CHECK_LAUNCH();
          k_long_count<<<dim3(w.nranges, nb), kLongBlock, 0, s>>>(w.lrow + b0, w.didx, w.lflags, w.fstride, n, w.nranges, w.rcnt, w.cnt);
        }
      }
      CUDA_CHECK_LAUNCH();
      if (w.trace) CUDA_CHECK(cudaEventRecord(gev_[0][g][1], s));
    }
    join(run, w.serial);
  }

  // ---- prefix sum, the one allocation of C; the numeric grouping rides on the same (second) synchronisation
  void allocate_c(Work& w) {
    const int m = w.m, tpb = 256;
    int* hs = static_cast<int*>(host_);
    if (!w.C.rp) w.C.rp = w.al.template alloc<int>(size_t(m) + 1);
    scan(w);
    CUDA_CHECK(cudaMemcpyAsync(hs + kHostNnz, w.C.rp + m, sizeof(int), cudaMemcpyDeviceToHost, main_));
    CUDA_CHECK(cudaMemsetAsync(w.small, 0, sizeof(int) * 32, main_));
    w.gn = limits(cfg_.num, w.n, true);
    k_num_groups<<<(m + tpb - 1) / tpb, tpb, 0, main_>>>(m, w.cnt, w.didx, w.gid, w.gn, w.gs.long_group(), w.gs.direct_group(), w.small + kCounts);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(hs, w.small, sizeof(int) * kSmallInts, cudaMemcpyDeviceToHost, main_));
    CUDA_CHECK(cudaStreamSynchronize(main_));
    if (w.nlong) check_products(hs);  // the long rows' products were counted after the first synchronisation
    w.C.nnz = hs[kHostNnz];
    w.C.ci = w.al.template alloc<int>(size_t(w.C.nnz));
    w.C.v = w.al.template alloc<T>(size_t(w.C.nnz));
    w.ncount.assign(hs + kCounts, hs + kCounts + w.gn.direct_group() + 1);
    w.noff = offsets(w.ncount);
  }

  // ---- numeric: values and sorted columns of every row
  void numeric(Work& w) {
    const PhaseConfig& N = cfg_.num;
    const DevCsr<T>& A = w.A; const DevCsr<T>& B = w.B; DevCsr<T>& C = w.C;
    const unsigned hm = cfg_.opt.hash_mul;
    const int n = w.n;
    const GroupLimits& gl = w.all_direct ? w.gs : w.gn;
    const int dense = gl.n;
    const int nchn = (n + N.dense_width - 1) / N.dense_width;
    // chunk bounds of B's rows for the dense group, only where they cost at most 8 ints a nonzero of B or a sixteenth of
    // C's bytes (rmat18 f64: 33 bounds a B row of 4 nonzeros, 35 MB beside a C of 2 GB; without them every chunk block
    // binary-searches every B row it walks, and f64's chunks are half as wide as f32's)
    int* bnd = nullptr;
    const long long nbnd = (long long)B.rows * (nchn + 1);
    const long long c_bytes = (long long)C.nnz * (long long)(sizeof(int) + sizeof(T));
    if (!w.all_direct && cfg_.opt.chunk_bounds && w.ncount[dense] && nchn > 1 && (nbnd <= 8LL * B.nnz || 16 * (long long)sizeof(int) * nbnd <= c_bytes))
      bnd = static_cast<int*>(w.tmp(sizeof(int) * size_t(nbnd)));
    if (!w.all_direct) scatter(w.m, w.gid, gl.n + 1, w.noff, w.small + kCursor, w.perm, kHostNumCursor);
    fork(w.ncount, w.serial);
    for (int g = 0; g <= gl.direct_group(); ++g) {
      const int rows = w.ncount[g];
      if (!rows) continue;
      cudaStream_t s = stream_of(g, w.serial);
      const int* p = w.all_direct ? nullptr : w.perm + w.noff[g];
      if (w.trace) CUDA_CHECK(cudaEventRecord(gev_[1][g][0], s));
      if (g == gl.direct_group()) {
        k_num_direct<T><<<(w.m + 255) / 256, 256, 0, s>>>(w.m, w.gid, g, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v);
      } else if (g == 0) {
        const int rpb = N.pwarp_block / kPw;
        k_pwarp<NumTable<T>><<<(rows + rpb - 1) / rpb, N.pwarp_block, pwarp_num_smem(), s>>>(p, rows, num_ops(w), N.pwarp_table, hm);
      } else if (g < dense) {
        const Level& l = N.levels[g - 1];
        if (l.per_warp) {
          const int rpb = l.block / 32;
          k_warp<NumTable<T>><<<(rows + rpb - 1) / rpb, l.block, l.smem_bytes, s>>>(p, rows, num_ops(w), l.table, cfg_.opt.merge, w.prod, hm);
        } else {
          k_tb<NumTable<T>><<<rows, l.block, smem(l), s>>>(p, num_ops(w), l.table, tb_options(), w.prod, hm);
        }
      } else if (g == dense) {
        if (bnd) {
          k_chunk_bounds<<<grid(size_t((nbnd + 255) / 256)), 256, 0, s>>>(B.rows, B.rp, B.ci, N.dense_width, nchn, bnd);
          CUDA_CHECK_LAUNCH();
        }
        k_num_dense<T><<<grid(size_t(rows) * nchn), N.dense_block, dense_smem(N), s>>>(p, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v, n,
                                                                                      N.dense_width, nchn, w.didx, w.chunkcnt, w.prod, cfg_.opt.pieces, cfg_.opt.merge, bnd);
      } else {  // long rows, batch by batch
        for (int b0 = 0; b0 < rows; b0 += w.lbatch) {
          const int nb = std::min(w.lbatch, rows - b0);
          CUDA_CHECK(cudaMemsetAsync(w.lflags, 0, size_t(nb) * w.fstride, s));
          CUDA_CHECK(cudaMemsetAsync(w.lvals, 0, size_t(nb) * n * sizeof(T), s));
          k_long_walk<T><<<dim3(long_blocks(nb), nb), kLongBlock, 0, s>>>(w.lrow + b0, w.loff + b0, w.lprod + b0, w.pre, A.rp, A.ci, A.v, B.rp, B.ci, B.v,
                                                                         w.lflags, w.fstride, w.lvals, n);
          CUDA_CHECK_LAUNCH();
          k_long_write<T><<<dim3(w.nranges, nb), kLongBlock, 0, s>>>(w.lrow + b0, w.didx, w.lflags, w.fstride, w.lvals, n, w.nranges, w.rcnt, C.rp, C.ci, C.v);
        }
      }
      CUDA_CHECK_LAUNCH();
      if (w.trace) CUDA_CHECK(cudaEventRecord(gev_[1][g][1], s));
    }
    join(w.ncount, w.serial);
  }

  // The operands of the table kernels: symbolic (no values; counts into cnt) and numeric (values; C's rows).
  static Operands<int> sym_ops(const Work& w) {
    return Operands<int>{w.A.rp, w.A.ci, nullptr, w.B.rp, w.B.ci, nullptr, w.cnt, nullptr, nullptr, nullptr};
  }
  static Operands<T> num_ops(const Work& w) {
    return Operands<T>{w.A.rp, w.A.ci, w.A.v, w.B.rp, w.B.ci, w.B.v, nullptr, w.C.rp, w.C.ci, w.C.v};
  }
  TbOptions tb_options(int ncols = 0) const {
    TbOptions t;
    t.ncols = ncols;
    t.bitonic_above = cfg_.opt.bitonic_above; t.cs_max = cfg_.opt.count_smaller_max;
    t.flat = cfg_.opt.flat_products; t.pieces = cfg_.opt.pieces; t.bucket = cfg_.opt.bucket_rank; t.merge = cfg_.opt.merge;
    return t;
  }

  static void check_products(const int* hs) {
    unsigned long long tot; std::memcpy(&tot, hs + kTotal, 8);
    if (hs[kOverflow] || tot > (unsigned long long)INT_MAX)
      throw std::overflow_error("SpGEMM has " + std::to_string(tot) + " intermediate products, more than the int32 path's 2^31-1");
  }

  void scan(Work& w) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, w.cnt, w.C.rp, w.m + 1, main_));
    void* t = w.tmp(bytes);
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(t, bytes, w.cnt, w.C.rp, w.m + 1, main_));
  }

  void trace_groups(const std::vector<std::vector<int>>& counts) {
    for (int ph = 0; ph < 2; ++ph)
      for (size_t g = 0; g < counts[ph].size(); ++g) {
        if (!counts[ph][g] || (ph == 0 && int(g) == int(counts[ph].size()) - 1)) continue;  // direct rows have no symbolic pass
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, gev_[ph][g][0], gev_[ph][g][1]));
        std::fprintf(stderr, "group %s %zu rows %d ms %.3f\n", ph ? "numeric" : "symbolic", g, counts[ph][g], ms);
      }
  }
  // Dynamic shared memory of a level's launch: hash-opt's TB blocks add row_pieces' ints (pieces_ints) after the tables.
  int smem(const Level& l) const { return l.smem_bytes + (cfg_.opt.opt && !l.per_warp ? 4 * pieces_ints(l.block) : 0); }
  int dense_smem(const PhaseConfig& p) const { return p.dense_smem + (cfg_.opt.opt ? 4 * pieces_ints(p.dense_block) : 0); }
  // keys then values, each row padded by one entry (bank spread); +2 keeps the values 8-byte aligned
  int pwarp_num_smem() const { return (cfg_.num.pwarp_block / kPw) * (cfg_.num.pwarp_table + 2) * int(sizeof(int) + sizeof(T)); }

  GroupLimits limits(const PhaseConfig& p, int ncols, bool numeric) const {
    GroupLimits g;
    g.n = 1 + int(p.levels.size());
    g.ub[0] = p.pwarp_max;
    for (size_t i = 0; i < p.levels.size(); ++i) g.ub[i + 1] = p.levels[i].max_count;
    g.ncols = ncols;
    if (cfg_.opt.dense_by_density) {
      g.dense_min = numeric ? 512 : 1024;
      g.dense_ratio = numeric ? 16 : 8;
    }
    g.long_nnz = cfg_.opt.long_nnz;
    g.long_prod = cfg_.opt.long_prod;
    g.direct_max = cfg_.opt.direct_max;
    if (const int tb = p.first_tb_group(); !numeric && cfg_.opt.estimate && tb >= 0) {
      g.est_floor = tb; g.est_from = tb + 1;
      g.est_div = cfg_.opt.est_div;
    }
    return g;
  }
  static std::vector<int> offsets(const std::vector<int>& c) {
    std::vector<int> o(c.size() + 1, 0);
    for (size_t i = 0; i < c.size(); ++i) o[i + 1] = o[i] + c[i];
    return o;
  }
  static unsigned grid(size_t blocks) {
    if (blocks > 0x7fffffffULL) throw std::overflow_error("hash SpGEMM: grid of " + std::to_string(blocks) + " blocks exceeds the CUDA limit");
    return unsigned(blocks);
  }
  // Group lists into perm (cursor starts at each group's offset; host slot `at` of the pinned buffer).
  void scatter(int m, const unsigned char* gid, int ngroups, const std::vector<int>& off, int* cursor, int* perm, int at) {
    int* hs = static_cast<int*>(host_) + at;
    for (int i = 0; i < ngroups; ++i) hs[i] = off[i];
    CUDA_CHECK(cudaMemcpyAsync(cursor, hs, sizeof(int) * ngroups, cudaMemcpyHostToDevice, main_));
    k_scatter<<<(m + 255) / 256, 256, 0, main_>>>(m, gid, ngroups, cursor, perm);
    CUDA_CHECK_LAUNCH();
  }
  // Groups run on streams of their own only when two or more have rows; a lone group runs on the main stream
  // (no fork, no join). Only the streams of groups with rows wait for the fork.
  static int busy(const std::vector<int>& count) { int b = 0; for (int c : count) b += c > 0; return b; }
  cudaStream_t stream_of(int g, bool serial) const { return serial || lone_ ? main_ : streams_[g]; }
  void fork(const std::vector<int>& count, bool serial) {
    lone_ = busy(count) < 2;
    if (serial || lone_) return;
    CUDA_CHECK(cudaEventRecord(fork_, main_));
    for (size_t g = 0; g < count.size(); ++g) if (count[g]) CUDA_CHECK(cudaStreamWaitEvent(streams_[g], fork_, 0));
  }
  void join(const std::vector<int>& count, bool serial) {
    if (serial || lone_) return;
    for (size_t g = 0; g < count.size(); ++g) {
      if (!count[g]) continue;
      CUDA_CHECK(cudaEventRecord(join_[g], streams_[g]));
      CUDA_CHECK(cudaStreamWaitEvent(main_, join_[g], 0));
    }
  }
  void fill_breakdown(std::map<std::string, double>* b) {
    if (!b) return;
    CUDA_CHECK(cudaEventSynchronize(phase_[4]));
    const char* names[4] = {"setup_grouping", "count", "allocation", "compute"};
    for (int i = 0; i < 4; ++i) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, phase_[i], phase_[i + 1]));
      (*b)[names[i]] = ms;
    }
  }

  cudaStream_t main_;
  int sms_ = 1;
  HashConfig cfg_;
  int nstreams_ = 0;
  bool lone_ = false;
  cudaStream_t streams_[kMaxGroups + 1] = {};
  cudaEvent_t join_[kMaxGroups + 1] = {};
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t phase_[5] = {};
  cudaEvent_t gev_[2][kMaxGroups + 1][2] = {};  // per phase and group: start, end (SPB_SPGEMM_GROUPS)
  void* host_ = nullptr;
};

}  // namespace spb::spgemm
