// spbench plugin interface, version 1: a user's SpMM or SpGEMM kernel, run by spbench beside its own
// kernels and NVIDIA's libraries on the same data, verified and timed the same way (docs/plugins.md).
//
// A plugin is one .cu file that includes this header, declares a manifest and defines its entry
// points with one of the two macros at the end:
//
//   #include <spbench_plugin.h>
//   static spbench::Result run(const spbench::SpmmProblem& p, void* state) { ... launch on p.stream ... }
//   SPBENCH_SPMM_PLUGIN(R"spbench({"name": "my-spmm", "op": "spmm", "formats": ["csr"],
//                                  "layouts": ["row"], "precisions": ["f32", "f64"],
//                                  "mixed": true, "graph": true})spbench",
//                       nullptr, run, nullptr)
//
// spbench reads the manifest (the raw string between R"spbench( and )spbench") from the source before
// compiling, so the delimiter must be exactly `spbench`. Manifest fields:
//   name        method name in spbench's tables (letters, digits, '-', '_', '.'; at most 40 characters)
//   op          "spmm" or "spgemm"
//   precisions  ["f32"], ["f64"] or both; other precisions are reported not applicable, with the reason
//   spmm only:  formats ["csr"] / ["coo"] / both (one method per format: NAME-csr, NAME-coo when both),
//               layouts ["row"] / ["col"] / both, mixed (true: batches whose matrices differ in size
//               or nnz), graph (true: run() only enqueues work on p.stream, so it can be captured into
//               a CUDA graph: no synchronisation, no allocation through cudaMalloc, no host reads)
//   spgemm only: setup (true: the plugin defines a setup step, reported in the breakdown)
//   description optional, one line
//
// Rules for every entry point: enqueue work on the given stream only; allocate device memory only
// through the given Allocator (spbench counts it in the method's peak memory, and frees what is left
// after each run); report failures through the returned Result (status and message), never by
// exiting. A CUDA error (an illegal address, a trap) ends the plugin's process: spbench reports it as
// the method's error and keeps every other method's figures (they run in other processes).
#pragma once
#include <cuda_runtime.h>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#define SPBENCH_PLUGIN_API_VERSION 1

namespace spbench {

// ---------------------------------------------------------------------------------------------------
// Results

enum class Status : int {
  Ok = 0,             // the call did its work
  NotApplicable = 1,  // this input is outside what the plugin handles: reported as not_applicable with the message
  Error = 2,          // the call failed: reported as the method's error with the message
};

struct Result {
  Status status = Status::Ok;
  char message[512] = {0};
};

inline Result ok() { return Result{}; }

inline Result make_result(Status s, const char* fmt, va_list ap) {
  Result r;
  r.status = s;
  std::vsnprintf(r.message, sizeof r.message, fmt, ap);
  return r;
}
// printf-style messages: return spbench::error("row %d too long", r);
inline Result error(const char* fmt, ...) {
  va_list ap; va_start(ap, fmt);
  Result r = make_result(Status::Error, fmt, ap);
  va_end(ap);
  return r;
}
inline Result not_applicable(const char* fmt, ...) {
  va_list ap; va_start(ap, fmt);
  Result r = make_result(Status::NotApplicable, fmt, ap);
  va_end(ap);
  return r;
}
// Turns a CUDA error code into an Error result naming the call: SPBENCH_TRY_CUDA(cudaGetLastError());
#define SPBENCH_TRY_CUDA(call)                                                                       \
  do {                                                                                               \
    cudaError_t spbench_e_ = (call);                                                                 \
    if (spbench_e_ != cudaSuccess)                                                                   \
      return ::spbench::error("%s failed: %s (%s:%d)", #call, cudaGetErrorString(spbench_e_), __FILE__, __LINE__); \
  } while (0)

// ---------------------------------------------------------------------------------------------------
// Types shared by both operations

enum class ValueType : int { F32 = 0, F64 = 1 };
enum class Format : int { Csr = 0, Coo = 1 };
enum class Layout : int { RowMajor = 0, ColMajor = 1 };

inline const char* name_of(ValueType v) { return v == ValueType::F32 ? "f32" : "f64"; }

// Device memory, counted by spbench. allocate() is stream-ordered on the problem's stream
// (cudaMallocAsync from a pool) and returns nullptr when the device is out of memory; the block is
// filled with 0xFF bytes (NaN values, index -1) during the verified run, so an unwritten output entry
// is caught. free() is optional: whatever is live when the run ends is freed by spbench.
struct Allocator {
  void* ctx = nullptr;
  void* (*allocate_fn)(void* ctx, size_t bytes) = nullptr;
  void (*free_fn)(void* ctx, void* p) = nullptr;

  void* allocate_bytes(size_t bytes) const { return allocate_fn(ctx, bytes); }
  template <typename T> T* allocate(size_t count) const { return static_cast<T*>(allocate_fn(ctx, count * sizeof(T))); }
  void free(void* p) const { if (p) free_fn(ctx, p); }
};

// Element (r, j) of a dense matrix with leading dimension ld.
__host__ __device__ inline size_t dense_index(Layout l, int64_t r, int64_t j, int64_t ld) {
  return size_t(l == Layout::RowMajor ? r * ld + j : j * ld + r);
}

// ---------------------------------------------------------------------------------------------------
// Batched SpMM: C_i = A_i · B_i for i < count, all in one call (one launch or several: your choice).
//
// The batch is stored stacked: matrix i owns rows [row_offset[i], row_offset[i+1]) of the stacked rows,
// nonzeros [nnz_offset[i], nnz_offset[i+1]) and rows [col_offset[i], col_offset[i+1]) of the stacked B.
// A_i is rows_i × cols_i with rows_i = row_offset[i+1] - row_offset[i], cols_i = col_offset[i+1] - col_offset[i].
// Column indices are local to the matrix (0 ≤ col < cols_i). n_B (nb) is the same for the whole batch.
//
//   CSR (format Csr): row_ptr has total_rows + 1 entries and indexes the stacked nonzeros: the nonzeros
//     of stacked row R are [row_ptr[R], row_ptr[R+1]); columns sorted within a row.
//   COO (format Coo): coo_row (local row, 0 ≤ r < rows_i) and col_idx per nonzero, in a seeded
//     random order within each matrix (not sorted).
//   values: nonzero values (float or double as value_type says), indexed like col_idx.
//
//   B_i (cols_i × nb) starts at element col_offset[i]·nb of B; C_i (rows_i × nb) at row_offset[i]·nb of C.
//   Row-major: element (r, j) at r·nb + j (leading dimension nb). Column-major: at j·ld + r with
//   ld = cols_i for B_i and rows_i for C_i.  dense_index(layout, r, j, ld) computes it.
//   C is poisoned (NaN) before every verified call: write every element of every C_i.
struct SpmmProblem {
  ValueType value_type;
  Format format;
  Layout layout;
  int count;        // matrices in the batch
  int nb;           // columns of every B_i and C_i
  bool uniform;     // every matrix has the same rows, cols and nnz
  int max_rows, max_cols, max_nnz;
  int64_t total_rows, total_cols, total_nnz;

  // count + 1 exclusive prefix sums, on the host and on the device
  const int* h_row_offset; const int* h_col_offset; const int* h_nnz_offset;
  const int* d_row_offset; const int* d_col_offset; const int* d_nnz_offset;

  const int* row_ptr;   // CSR: total_rows + 1 (device); nullptr for COO
  const int* coo_row;   // COO: total_nnz local rows (device); nullptr for CSR
  const int* col_idx;   // total_nnz local columns (device)
  const void* values;   // total_nnz values (device)
  const void* B;        // total_cols · nb (device)
  void* C;              // total_rows · nb (device)

  cudaStream_t stream;
  Allocator workspace;  // counted in the method's peak memory
  const cudaDeviceProp* device;

  template <typename T> __host__ __device__ const T* values_as() const { return static_cast<const T*>(values); }
  template <typename T> __host__ __device__ const T* b_as() const { return static_cast<const T*>(B); }
  template <typename T> __host__ __device__ T* c_as() const { return static_cast<T*>(C); }
};

// setup (optional, not timed): once per case after the inputs are on the device; may allocate
//   persistent workspace through p.workspace and keep it in *state.
// run (timed): computes every C_i. In graph mode it is captured into a CUDA graph (manifest "graph": true).
// teardown (optional): releases state (workspace blocks are freed by spbench anyway).
struct SpmmPlugin {
  Result (*setup)(const SpmmProblem& p, void** state);
  Result (*run)(const SpmmProblem& p, void* state);
  void (*teardown)(void* state);
};

// ---------------------------------------------------------------------------------------------------
// SpGEMM: C = A · B, all CSR with int32 indices, columns sorted within each row.
//
// spbench allocates C's row pointer (a_rows + 1 entries, poisoned) through the allocator before calling
// compute(); the plugin fills it, allocates C's columns and values through p.alloc (their size is
// known only after a symbolic phase) and sets c_nnz, c_col_idx and c_values. Every buffer goes
// through p.alloc, so the method's peak memory counts it like spbench's own hash SpGEMM.
// Timed region ("whole-spgemm"): setup (when given) + compute, C's allocation included.
struct SpgemmProblem {
  ValueType value_type;
  int a_rows, a_cols, b_cols;
  int64_t a_nnz, b_nnz;
  const int* a_row_ptr; const int* a_col_idx; const void* a_values;
  const int* b_row_ptr; const int* b_col_idx; const void* b_values;
  cudaStream_t stream;
  Allocator alloc;
  const cudaDeviceProp* device;

  template <typename T> __host__ __device__ const T* a_values_as() const { return static_cast<const T*>(a_values); }
  template <typename T> __host__ __device__ const T* b_values_as() const { return static_cast<const T*>(b_values); }
};

struct SpgemmOutput {
  int* c_row_ptr;        // given: a_rows + 1 entries, allocated by spbench; the plugin writes it
  int* c_col_idx;        // set by the plugin (allocated through p.alloc)
  void* c_values;        // set by the plugin (allocated through p.alloc)
  int64_t c_nnz;         // set by the plugin
};

// setup (optional, manifest "setup": true): work that depends on A and B's patterns only (analysis),
//   kept in *state. Timed as part of the whole SpGEMM and reported in the breakdown.
// compute: the product; may read the state of setup.
// teardown (optional): releases the state.
struct SpgemmPlugin {
  Result (*setup)(const SpgemmProblem& p, void** state);
  Result (*compute)(const SpgemmProblem& p, void* state, SpgemmOutput& c);
  void (*teardown)(void* state);
};

}  // namespace spbench

// The runner driver calls these two functions; the macros define them in the plugin's translation unit.
extern "C" const char* spbench_plugin_manifest();
extern "C" int spbench_plugin_api_version();
spbench::SpmmPlugin spbench_spmm_plugin();
spbench::SpgemmPlugin spbench_spgemm_plugin();

#define SPBENCH_SPMM_PLUGIN(MANIFEST, SETUP, RUN, TEARDOWN)                                    \
  extern "C" const char* spbench_plugin_manifest() { return MANIFEST; }                      \
  extern "C" int spbench_plugin_api_version() { return SPBENCH_PLUGIN_API_VERSION; }         \
  spbench::SpmmPlugin spbench_spmm_plugin() { return spbench::SpmmPlugin{SETUP, RUN, TEARDOWN}; }

#define SPBENCH_SPGEMM_PLUGIN(MANIFEST, SETUP, COMPUTE, TEARDOWN)                                \
  extern "C" const char* spbench_plugin_manifest() { return MANIFEST; }                        \
  extern "C" int spbench_plugin_api_version() { return SPBENCH_PLUGIN_API_VERSION; }           \
  spbench::SpgemmPlugin spbench_spgemm_plugin() { return spbench::SpgemmPlugin{SETUP, COMPUTE, TEARDOWN}; }
