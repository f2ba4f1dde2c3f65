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
#include "alloc.cuh"
#include "config.cuh"
#include "hash_kernels.cuh"

namespace spb::spgemm {

// One explain row per group and phase: what --explain prints.
inline std::vector<std::vector<std::string>> explain_rows(const HashConfig& c) {
  std::vector<std::vector<std::string>> rows;
  auto phase = [&](const char* name, const PhaseConfig& p, const char* what, const char* unit) {
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
  };
  phase("symbolic", c.sym, "products", " bits");
  phase("numeric", c.num, "nnz", " cols");
  return rows;
}

template <typename T>
class HashSpgemm {
 public:
  HashSpgemm(const cudaDeviceProp& prop, HashOptions o, cudaStream_t main) : main_(main) {
    cfg_ = derive_config(prop, int(sizeof(T)), o);
    nstreams_ = std::max(cfg_.sym.ngroups(), cfg_.num.ngroups());
    if (nstreams_ > kMaxGroups + 1) throw std::runtime_error("hash SpGEMM: too many groups derived from the device");
    for (int i = 0; i < nstreams_; ++i) {
      CUDA_CHECK(cudaStreamCreateWithFlags(&streams_[i], cudaStreamNonBlocking));
      CUDA_CHECK(cudaEventCreateWithFlags(&join_[i], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    for (auto& e : phase_) CUDA_CHECK(cudaEventCreate(&e));
    for (auto& ph : gev_) for (auto& g : ph) for (auto& e : g) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaMallocHost(&host_, 4096));
    int max_sym = 0, max_num = 0;
    int max_wsym = 0, max_wnum = 0;
    for (const Level& l : cfg_.sym.levels) (l.per_warp ? max_wsym : max_sym) = std::max(l.per_warp ? max_wsym : max_sym, smem(l));
    for (const Level& l : cfg_.num.levels) (l.per_warp ? max_wnum : max_num) = std::max(l.per_warp ? max_wnum : max_num, smem(l));
    if (max_wsym) CUDA_CHECK(cudaFuncSetAttribute(k_sym_warp, cudaFuncAttributeMaxDynamicSharedMemorySize, max_wsym));
    if (max_wnum) CUDA_CHECK(cudaFuncSetAttribute(k_num_warp<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, max_wnum));
    CUDA_CHECK(cudaFuncSetAttribute(k_sym_tb, cudaFuncAttributeMaxDynamicSharedMemorySize, max_sym));
    CUDA_CHECK(cudaFuncSetAttribute(k_num_tb<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, max_num));
    CUDA_CHECK(cudaFuncSetAttribute(k_sym_dense, cudaFuncAttributeMaxDynamicSharedMemorySize, dense_smem(cfg_.sym)));
    CUDA_CHECK(cudaFuncSetAttribute(k_num_dense<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, dense_smem(cfg_.num)));
    CUDA_CHECK(cudaFuncSetAttribute(k_num_pwarp<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, pwarp_num_smem()));
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
    const int m = A.rows, n = B.cols;
    C = DevCsr<T>{};
    C.rows = m; C.cols = n;
    CUDA_CHECK(cudaEventRecord(phase_[0], main_));
    if (m == 0 || n == 0 || A.nnz == 0 || B.nnz == 0) {
      C.rp = al.alloc<int>(size_t(m) + 1);
      CUDA_CHECK(cudaMemsetAsync(C.rp, 0, sizeof(int) * (size_t(m) + 1), main_));
      C.ci = al.alloc<int>(0); C.v = al.alloc<T>(0);
      for (int i = 1; i < 5; ++i) CUDA_CHECK(cudaEventRecord(phase_[i], main_));
      fill_breakdown(breakdown);
      return;
    }
    // SPB_SPGEMM_GROUPS set: the --breakdown run also times every group (stderr), to see where power-law rows go;
    // =serial runs the groups one after the other on the main stream, so each time is the group's alone
    const char* tenv = breakdown ? std::getenv("SPB_SPGEMM_GROUPS") : nullptr;
    const bool trace = tenv != nullptr, serial = trace && std::string(tenv) == "serial";
    std::vector<void*> temps;
    auto tmp = [&](size_t bytes) { void* p = al.raw(bytes); temps.push_back(p); return p; };
    int* prod = static_cast<int*>(tmp(sizeof(int) * m));
    int* cnt = static_cast<int*>(tmp(sizeof(int) * (size_t(m) + 1)));
    int* didx = static_cast<int*>(tmp(sizeof(int) * m));
    unsigned char* gid = static_cast<unsigned char*>(tmp(m));
    int* perm = static_cast<int*>(tmp(sizeof(int) * m));
    int* small = static_cast<int*>(tmp(256));  // [0,16) counts, [16,32) cursors, 32 overflow, [34,36) total
    int* gcount = small; int* cursor = small + 16; int* overflow = small + 32;
    unsigned long long* total = reinterpret_cast<unsigned long long*>(small + 34);
    int* hs = static_cast<int*>(host_);
    CUDA_CHECK(cudaMemsetAsync(small, 0, 256, main_));

    // ---- grouping by products
    const GroupLimits gs = limits(cfg_.sym, n, false);
    const int tpb = 256;
    k_products<<<(m + 1 + tpb - 1) / tpb, tpb, 0, main_>>>(m, A.rp, A.ci, B.rp, prod, cnt, didx, gid, gs, gcount, total, overflow);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(hs, small, 256, cudaMemcpyDeviceToHost, main_));
    CUDA_CHECK(cudaStreamSynchronize(main_));
    unsigned long long tot; std::memcpy(&tot, hs + 34, 8);
    if (hs[32] || tot > (unsigned long long)INT_MAX)
      throw std::overflow_error("SpGEMM has " + std::to_string(tot) + " intermediate products, more than the int32 path's 2^31-1");
    std::vector<int> scount(hs, hs + gs.n + 1), soff = offsets(scount);
    scatter(m, gid, gs.n + 1, soff, cursor, perm, 64);

    CUDA_CHECK(cudaEventRecord(phase_[1], main_));
    // ---- symbolic: count nnz per row
    const PhaseConfig& S = cfg_.sym;
    const unsigned hm = cfg_.opt.hash_mul;
    const int nchn = (n + cfg_.num.dense_width - 1) / cfg_.num.dense_width;
    const int nchs = (n + S.dense_width - 1) / S.dense_width;
    int* chunkcnt = nullptr;
    const int ndense = scount[gs.n];
    if (ndense) chunkcnt = static_cast<int*>(tmp(sizeof(int) * size_t(ndense) * nchn));
    fork();
    for (int g = 0; g <= gs.n; ++g) {
      const int rows = scount[g];
      if (!rows) continue;
      cudaStream_t s = serial ? main_ : streams_[g];
      const int* p = perm + soff[g];
      if (trace) CUDA_CHECK(cudaEventRecord(gev_[0][g][0], s));
      if (g == 0) {
        const int rpb = S.pwarp_block / kPw;
        k_sym_pwarp<<<(rows + rpb - 1) / rpb, S.pwarp_block, sizeof(int) * rpb * (S.pwarp_table + 1), s>>>(p, rows, A.rp, A.ci, B.rp, B.ci, cnt, S.pwarp_table, hm);
      } else if (g < gs.n) {
        const Level& l = S.levels[g - 1];
        if (l.per_warp) {
          const int rpb = l.block / 32;
          k_sym_warp<<<(rows + rpb - 1) / rpb, l.block, l.smem_bytes, s>>>(p, rows, A.rp, A.ci, B.rp, B.ci, cnt, l.table, prod, hm);
        } else
        k_sym_tb<<<rows, l.block, smem(l), s>>>(p, A.rp, A.ci, B.rp, B.ci, cnt, l.table, cfg_.opt.flat_products, cfg_.opt.pieces, prod, hm);
      } else {
        k_sym_dense<<<grid(size_t(rows) * nchs), S.dense_block, dense_smem(S), s>>>(p, A.rp, A.ci, B.rp, B.ci, n, S.dense_width, nchs,
                                                                                cfg_.num.dense_width, nchn, cnt, chunkcnt, didx, prod, cfg_.opt.pieces);
      }
      CUDA_CHECK_LAUNCH();
      if (trace) CUDA_CHECK(cudaEventRecord(gev_[0][g][1], s));
    }
    join(gs.n + 1, scount);
    CUDA_CHECK(cudaEventRecord(phase_[2], main_));

    // ---- prefix sum, the one allocation of C
    C.rp = al.alloc<int>(size_t(m) + 1);
    size_t scan_bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, cnt, C.rp, m + 1, main_));
    void* scan_tmp = tmp(scan_bytes);
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, cnt, C.rp, m + 1, main_));
    CUDA_CHECK(cudaMemcpyAsync(hs + 256, C.rp + m, sizeof(int), cudaMemcpyDeviceToHost, main_));
    // numeric grouping rides on the same synchronisation
    CUDA_CHECK(cudaMemsetAsync(small, 0, 128, main_));
    const GroupLimits gn = limits(cfg_.num, n, true);
    k_num_groups<<<(m + tpb - 1) / tpb, tpb, 0, main_>>>(m, cnt, didx, gid, gn, gcount);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(hs, small, 64, cudaMemcpyDeviceToHost, main_));
    CUDA_CHECK(cudaStreamSynchronize(main_));
    C.nnz = hs[256];
    C.ci = al.alloc<int>(size_t(C.nnz));
    C.v = al.alloc<T>(size_t(C.nnz));
    std::vector<int> ncount(hs, hs + gn.n + 1), noff = offsets(ncount);
    // chunk bounds of B's rows for the dense group (allocated here, before the fork, in main_'s stream order;
    // computed on the dense group's stream); only where they cost at most 8 ints a nonzero of B
    int* bnd = nullptr;
    if (cfg_.opt.chunk_bounds && ncount[gn.n] && nchn > 1 && (long long)B.rows * (nchn + 1) <= 8LL * B.nnz)
      bnd = static_cast<int*>(tmp(sizeof(int) * size_t(B.rows) * (nchn + 1)));
    CUDA_CHECK(cudaEventRecord(phase_[3], main_));

    // ---- numeric
    scatter(m, gid, gn.n + 1, noff, cursor, perm, 128);
    const PhaseConfig& N = cfg_.num;
    fork();
    for (int g = 0; g <= gn.n; ++g) {
      const int rows = ncount[g];
      if (!rows) continue;
      cudaStream_t s = serial ? main_ : streams_[g];
      const int* p = perm + noff[g];
      if (trace) CUDA_CHECK(cudaEventRecord(gev_[1][g][0], s));
      if (g == 0) {
        const int rpb = N.pwarp_block / kPw;
        k_num_pwarp<T><<<(rows + rpb - 1) / rpb, N.pwarp_block, pwarp_num_smem(), s>>>(p, rows, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v, N.pwarp_table, hm);
      } else if (g < gn.n) {
        const Level& l = N.levels[g - 1];
        if (l.per_warp) {
          const int rpb = l.block / 32;
          k_num_warp<T><<<(rows + rpb - 1) / rpb, l.block, l.smem_bytes, s>>>(p, rows, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v, l.table, prod, hm);
        } else
        k_num_tb<T><<<rows, l.block, smem(l), s>>>(p, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v, l.table, cfg_.opt.bitonic_above,
                                                   cfg_.opt.flat_products, cfg_.opt.pieces, cfg_.opt.bucket_rank, prod, hm);
      } else {
        if (bnd) {
          const long long nb = (long long)B.rows * (nchn + 1);
          k_chunk_bounds<<<grid(size_t((nb + 255) / 256)), 256, 0, s>>>(B.rows, B.rp, B.ci, N.dense_width, nchn, bnd);
          CUDA_CHECK_LAUNCH();
        }
        k_num_dense<T><<<grid(size_t(rows) * nchn), N.dense_block, dense_smem(N), s>>>(p, A.rp, A.ci, A.v, B.rp, B.ci, B.v, C.rp, C.ci, C.v, n,
                                                                                      N.dense_width, nchn, didx, chunkcnt, prod, cfg_.opt.pieces, bnd);
      }
      CUDA_CHECK_LAUNCH();
      if (trace) CUDA_CHECK(cudaEventRecord(gev_[1][g][1], s));
    }
    join(gn.n + 1, ncount);
    CUDA_CHECK(cudaEventRecord(phase_[4], main_));
    for (void* p : temps) al.free(p);
    fill_breakdown(breakdown);
    if (trace) trace_groups({scount, ncount});
  }

 private:
  void trace_groups(const std::vector<std::vector<int>>& counts) {
    for (int ph = 0; ph < 2; ++ph)
      for (size_t g = 0; g < counts[ph].size(); ++g) {
        if (!counts[ph][g]) continue;
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
  void fork() {
    CUDA_CHECK(cudaEventRecord(fork_, main_));
    for (int i = 0; i < nstreams_; ++i) CUDA_CHECK(cudaStreamWaitEvent(streams_[i], fork_, 0));
  }
  void join(int ngroups, const std::vector<int>& count) {
    for (int g = 0; g < ngroups; ++g) {
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
  HashConfig cfg_;
  int nstreams_ = 0;
  cudaStream_t streams_[kMaxGroups + 1] = {};
  cudaEvent_t join_[kMaxGroups + 1] = {};
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t phase_[5] = {};
  cudaEvent_t gev_[2][kMaxGroups + 1][2] = {};  // per phase and group: start, end (SPB_SPGEMM_GROUPS)
  void* host_ = nullptr;
};

}  // namespace spb::spgemm
