// spbench-spmm-cuda: Batched SpMM on the GPU, ours + the paper's kernels + peers, verified and
// timed in one process on the same data (docs/native-protocol.md, docs/spmm-notes.md).
//   spmm --input BATCH.spb --nb 16,64 --precision f32|f64 --methods all|a,b --mode kernel|e2e|graph
//        --warmup N --samples N|auto [--max-noise P --min-samples N --min-time S --timeout S] --cache hot|cold
//        --layout row|col --seed S
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spmm_cuda.cu -lcusparse -lcublas
// (-DSPB_NO_PEERS builds without cuSPARSE/cuBLAS, for compile checks where their headers are missing).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>
#include <unistd.h>
#include "../common/args.hpp"
#include "../common/binfmt.hpp"
#include "../common/gpu_env.cuh"
#include "../common/json.hpp"
#include "../common/reference.hpp"
#include "../common/timing.cuh"
#include "../common/measure.cuh"
#include "../spmm/methods.cuh"
#include "../peers/spmm_tf.cuh"
#ifndef SPB_NO_PEERS
#include "../peers/spmm_cublas.cuh"
#include "../peers/spmm_cusparse.cuh"
#endif

namespace spb {
namespace {

struct Options {
  std::string input, precision = "f32", mode = "kernel", layout = "row";
  std::vector<long long> nbs;
  std::vector<std::string> methods;  // empty = all
  int warmup = 5;
  std::shared_ptr<Measurer> meas;  // --samples N|auto, --cache, clocks (cuda/common/measure.cuh)
  uint64_t seed = 1;
  int device = 0;  // --device N: the CUDA device this process uses (spbench run --devices gives one per worker)
  bool explain = false;
};

// Uniform in [-1, 1] from a 64-bit generator; defined bit-for-bit (no std::uniform_real_distribution).
inline double unit(std::mt19937_64& g) { return double(g() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

template <typename T>
std::vector<std::unique_ptr<Method<T>>> all_methods() {
  auto v = all_kernel_methods<T>();
  v.emplace_back(new TfSparseDense<T>());
#ifndef SPB_NO_PEERS
  add_cusparse_peers(v);
  add_cublas_peers(v);
#endif
  return v;
}

// The batch's A with values rounded to T (the reference sees exactly what the GPU sees).
template <typename T>
std::vector<Csr> rounded(const std::vector<Csr>& mats) {
  std::vector<Csr> out = mats;
  for (Csr& c : out) for (double& x : c.values) x = double(T(x));
  return out;
}

// Builds the device-ready host batch for one nb: concatenated CSR, shuffled COO, a fresh random B
// from the seed (the same B for every method of this nb), in the requested layout.
template <typename T>
HostBatch<T> make_batch(const std::vector<Csr>& A, int nb, Layout layout, uint64_t seed, std::vector<double>& b_ref) {
  HostBatch<T> h;
  h.batch = int(A.size()); h.nb = nb; h.layout = layout;
  for (const Csr& c : A) {
    h.m.push_back(int(c.rows)); h.k.push_back(int(c.cols)); h.nnz.push_back(int(c.nnz()));
    h.total_rows += c.rows; h.total_cols += c.cols; h.total_nnz += c.nnz();
  }
  if (h.total_nnz >= (1ll << 31) || h.total_rows >= (1ll << 31) || h.total_cols * nb >= (1ll << 40))
    throw std::invalid_argument("batch too large for 32-bit indices");
  h.max_m = h.batch ? *std::max_element(h.m.begin(), h.m.end()) : 0;
  h.max_k = h.batch ? *std::max_element(h.k.begin(), h.k.end()) : 0;
  h.max_nnz = h.batch ? *std::max_element(h.nnz.begin(), h.nnz.end()) : 0;
  for (int i = 1; i < h.batch; ++i) h.uniform = h.uniform && h.m[i] == h.m[0] && h.k[i] == h.k[0] && h.nnz[i] == h.nnz[0];
  h.row_off = Pinned<int>(h.batch + 1); h.col_off = Pinned<int>(h.batch + 1); h.nnz_off = Pinned<int>(h.batch + 1);
  h.row_off[0] = h.col_off[0] = h.nnz_off[0] = 0;
  for (int i = 0; i < h.batch; ++i) {
    h.row_off[i + 1] = h.row_off[i] + h.m[i]; h.col_off[i + 1] = h.col_off[i] + h.k[i]; h.nnz_off[i + 1] = h.nnz_off[i] + h.nnz[i];
  }
  h.rp = Pinned<int>(h.total_rows + 1); h.ci = Pinned<int>(h.total_nnz); h.ci_g = Pinned<int>(h.total_nnz); h.val = Pinned<T>(h.total_nnz);
  h.coo_r = Pinned<int>(h.total_nnz); h.coo_c = Pinned<int>(h.total_nnz); h.coo_v = Pinned<T>(h.total_nnz);
  h.rp[0] = 0;
  std::mt19937_64 shuf(seed * 0x9E3779B97F4A7C15ull + 17);
  std::vector<int> perm;
  for (int i = 0; i < h.batch; ++i) {
    const Csr& c = A[i];
    const int z0 = h.nnz_off[i];
    for (int r = 0; r < h.m[i]; ++r) h.rp[h.row_off[i] + r + 1] = z0 + int(c.row_ptr[r + 1]);
    perm.resize(h.nnz[i]);
    for (int q = 0; q < h.nnz[i]; ++q) { perm[q] = q; h.ci[z0 + q] = int(c.col_idx[q]); h.ci_g[z0 + q] = h.col_off[i] + int(c.col_idx[q]); h.val[z0 + q] = T(c.values[q]); }
    for (int q = h.nnz[i] - 1; q > 0; --q) std::swap(perm[q], perm[shuf() % uint64_t(q + 1)]);  // Fisher-Yates
    for (int r = 0; r < h.m[i]; ++r)
      for (int64_t q = c.row_ptr[r]; q < c.row_ptr[r + 1]; ++q) {
        const int dst = z0 + perm[q];
        h.coo_r[dst] = r; h.coo_c[dst] = int(c.col_idx[q]); h.coo_v[dst] = T(c.values[q]);
      }
  }
  // B: element (r, j) of B_i gets the same value whatever the layout.
  h.B = Pinned<T>(size_t(h.total_cols) * nb);
  b_ref.assign(size_t(h.total_cols) * nb, 0.0);
  std::mt19937_64 g(seed * 1000003ull + uint64_t(nb));
  for (int i = 0; i < h.batch; ++i)
    for (int r = 0; r < h.k[i]; ++r)
      for (int j = 0; j < nb; ++j) {
        const T x = T(unit(g));
        const size_t base = size_t(h.col_off[i]) * nb;
        b_ref[base + size_t(r) * nb + j] = double(x);
        h.B[base + size_t(layout == Layout::Row ? int64_t(r) * nb + j : int64_t(j) * h.k[i] + r)] = x;
      }
  return h;
}

struct Reference {
  std::vector<double> c, abs;  // each C_i row-major, stacked
};

template <typename T>
Reference reference(const std::vector<Csr>& A, const HostBatch<T>& h, const std::vector<double>& b_ref) {
  Reference R;
  R.c.resize(size_t(h.total_rows) * h.nb); R.abs.resize(R.c.size());
  for (int i = 0; i < h.batch; ++i) {
    const size_t co = size_t(h.row_off[i]) * h.nb;
    ref_spmm(A[i], b_ref.data() + size_t(h.col_off[i]) * h.nb, h.nb, R.c.data() + co, R.abs.data() + co);
  }
  return R;
}

struct Check {
  bool passed = false;
  double max_err = 0;
  std::string detail;
};

// Copies C back and compares every C_i with the reference (normalized error, NaN = unwritten).
template <typename T>
Check verify(Method<T>& m, const HostBatch<T>& h, const Reference& R, double tol, const char* when) {
  std::vector<T> got(size_t(h.total_rows) * h.nb), row;
  if (!got.empty()) CUDA_CHECK(cudaMemcpy(got.data(), m.output(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  Check out;
  out.passed = true;
  for (int i = 0; i < h.batch; ++i) {
    const size_t co = size_t(h.row_off[i]) * h.nb, n = size_t(h.m[i]) * h.nb;
    row.resize(n);
    for (int r = 0; r < h.m[i]; ++r)
      for (int j = 0; j < h.nb; ++j)
        row[size_t(r) * h.nb + j] = got[co + size_t(h.layout == Layout::Row ? int64_t(r) * h.nb + j : int64_t(j) * h.m[i] + r)];
    ErrReport e = max_norm_err(row.data(), R.c.data() + co, R.abs.data() + co, int64_t(n));
    const bool bad = !e.finite || e.max_err > tol;
    if (e.finite) out.max_err = std::max(out.max_err, e.max_err);
    if (bad && out.passed) {
      out.passed = false;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s: matrix %d row %lld col %lld: got %.9g, want %.9g%s", when, i, (long long)(e.where / h.nb),
                    (long long)(e.where % h.nb), e.got, e.want, e.finite ? "" : " (not finite: unwritten or overflow)");
      out.detail = buf;
      if (!e.finite) out.max_err = std::numeric_limits<double>::infinity();
    }
  }
  return out;
}

void emit_env(const char* exe) {
  int rt = 0, drv = 0, dev = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&rt));
  CUDA_CHECK(cudaDriverGetVersion(&drv));
  CUDA_CHECK(cudaGetDevice(&dev));
  Json c;
  c.str("runtime", cuda_version_text(rt)).str("driver", cuda_version_text(drv));
#ifndef SPB_NO_PEERS
  {
    cusparseHandle_t hs; int v = 0;
    CUSPARSE_CHECK(cusparseCreate(&hs)); CUSPARSE_CHECK(cusparseGetVersion(hs, &v)); cusparseDestroy(hs);
    c.str("cusparse", cusparse_version_text(v));
    cublasHandle_t hb;
    CUBLAS_CHECK(cublasCreate(&hb)); CUBLAS_CHECK(cublasGetVersion(hb, &v)); cublasDestroy(hb);
    c.str("cublas", cublas_version_text(v));
  }
#endif
  Json().str("type", "env").integer("protocol", 1).str("backend", "cuda").str("executable", exe).raw("devices", "[" + gpu_json(dev) + "]")
      .raw("cuda", c.done()).emit();
}


struct CaseInfo {
  int nb;
  std::string precision, mode, layout;
  int batch, max_m;
  double flops, bytes, tol;
};

void emit_result(const CaseInfo& ci, const std::string& method, const std::string& family, const std::string& status, const std::string& reason,
                 const std::vector<double>& samples, double peak, bool checked, const Check& chk, const std::string& info_json,
                 const std::string& region = "", const std::function<void(Json&)>& extra = nullptr) {
  Json params;
  params.integer("nb", ci.nb).str("precision", ci.precision).str("mode", ci.mode).str("layout", ci.layout).integer("batch", ci.batch)
      .integer("max_m", ci.max_m);
  Json v;
  v.boolean("checked", checked).boolean("passed", checked && chk.passed);
  if (checked && std::isfinite(chk.max_err)) v.num("max_rel_err", chk.max_err); else v.null("max_rel_err");
  v.num("tol", ci.tol).str("reference", "cpu-f64");
  if (!chk.detail.empty()) v.str("detail", chk.detail);
  Json r;
  r.str("type", "result").str("op", "spmm").str("method", method).str("family", family).raw("params", params.done()).str("status", status);
  if (!reason.empty()) r.str("reason", reason);
  r.str("timed_region", region.empty() ? ci.mode : region).nums("samples_ms", samples).num("flops", ci.flops).num("bytes_moved", ci.bytes).num("peak_mem_bytes", peak)
      .raw("verify", v.done()).raw("info", info_json);
  if (extra) extra(r);
  r.emit();
}

template <typename T>
std::string info_json(const Method<T>& m, int reps, int calls_per_graph = 0, const std::string& extra_key = "", const std::string& extra = "") {
  Json j;
  j.integer("reps_per_sample", reps);
  if (calls_per_graph > 0) j.integer("calls_per_graph", calls_per_graph);
  for (auto& kv : m.info_s) j.str(kv.first, kv.second);
  for (auto& kv : m.info_n) j.num(kv.first, kv.second);
  if (!extra_key.empty()) j.str(extra_key, extra);
  return j.done();
}

// Runs one method on one case: setup, first-run verification, warm-up, samples, last verification.
template <typename T>
void run_method(Method<T>& m, const HostBatch<T>& h, const Reference& R, const DeviceInfo& dev, const CaseInfo& ci, const Options& o,
                cudaStream_t s) {
  const std::string na = m.not_applicable(h, dev);
  Check none;
  if (!na.empty()) { emit_result(ci, m.name(), m.family(), "not_applicable", na, {}, 0, false, none, info_json(m, 0)); return; }
  cudaEvent_t ea = nullptr, eb = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  const size_t c_bytes = size_t(h.total_rows) * h.nb * sizeof(T);
  auto cleanup = [&] {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    if (ea) cudaEventDestroy(ea);
    if (eb) cudaEventDestroy(eb);
    exec = nullptr; graph = nullptr; ea = eb = nullptr;
  };
  int reps = 1;
  Measurer& meas = *o.meas;
  const NvmlClocks::Reading clk0 = meas.clocks();
  try {
    CUDA_CHECK(cudaEventCreate(&ea));
    CUDA_CHECK(cudaEventCreate(&eb));
    m.setup(h, dev, s);
    auto poison = [&] { if (c_bytes) CUDA_CHECK(cudaMemsetAsync(m.output(), 0xFF, c_bytes, s)); };
    // First run, verified before anything is timed.
    poison();
    m.run(s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    Check first = verify(m, h, R, ci.tol, "first run");
    if (!first.passed) {
      emit_result(ci, m.name(), m.family(), "failed", "", {}, double(m.peak_bytes()), true, first, info_json(m, 0));
      cleanup();
      return;
    }
    // Graph mode: the method's calls captured into one graph. A library peer whose calls cannot be
    // captured (cuSPARSE in some configurations) is timed as back-to-back stream calls instead (kernel
    // mode), and the result says so (timed_region "kernel", info.graph_capture); ours must capture.
    std::string mode = o.mode;
    auto capture = [&](int calls) -> std::string {  // "" on success, else the failure
      if (exec) { cudaGraphExecDestroy(exec); exec = nullptr; }
      if (graph) { cudaGraphDestroy(graph); graph = nullptr; }
      CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      std::string err;
      try {
        for (int i = 0; i < calls; ++i) m.run(s);
      } catch (const CudaError& e) { err = e.what(); }
      cudaGraph_t g = nullptr;
      const cudaError_t ec = cudaStreamEndCapture(s, &g);
      if (err.empty() && ec != cudaSuccess) err = std::string("cudaStreamEndCapture: ") + cudaGetErrorString(ec);
      if (err.empty()) {
        const cudaError_t ei = cudaGraphInstantiate(&exec, g, 0);
        if (ei != cudaSuccess) { err = std::string("cudaGraphInstantiate: ") + cudaGetErrorString(ei); exec = nullptr; }
      }
      if (!err.empty()) {
        if (g) cudaGraphDestroy(g);
        cudaGetLastError();
        CUDA_CHECK(cudaStreamSynchronize(s));  // the stream must be usable again (throws if it is not)
        if (!m.library()) throw CudaError("graph capture of " + m.name() + " failed: " + err);
        return err;
      }
      graph = g;
      return "";
    };
    auto fall_back = [&](const std::string& why) {
      mode = "kernel";
      m.info_s["graph_capture"] = "failed (" + why + "); timed as back-to-back stream calls (kernel mode) instead";
    };
    if (mode == "graph") {
      const std::string why = capture(1);
      if (!why.empty()) fall_back(why);
    }
    auto once = [&] {
      if (mode == "graph") CUDA_CHECK(cudaGraphLaunch(exec, s));
      else {
        if (mode == "e2e") m.upload(s);
        m.run(s);
      }
    };
    for (int i = 0; i < o.warmup; ++i) once();
    // Sub-10 us methods (in graph mode sub-50 us ones, whose one-call replay would carry the graph's launch):
    // time several back-to-back calls per sample (>= ~50 us) and divide.
    double t1 = 1e30;  // fastest of 3 single calls: one noisy call must not decide reps
    for (int i = 0; i < 3; ++i) t1 = std::min(t1, timed_ms(s, ea, eb, 1, once));
    // --cache cold (only the first of back-to-back calls would find the L2 flushed) and --profile-region: one call a sample
    if (!meas.one_call_per_sample() && t1 < (mode == "graph" ? 0.050 : 0.010)) reps = std::min(200, std::max(2, int(std::ceil(0.050 / std::max(t1, 1e-4)))));
    if (mode == "graph" && reps > 1) {
      // The reps calls go into one graph, replayed once a sample: each replay of a graph costs ~1.7 us of
      // launch on the H100 even when back to back, so a one-call graph would not remove launch overhead.
      const std::string why = capture(reps);
      if (!why.empty()) fall_back(why);
      else CUDA_CHECK(cudaGraphLaunch(exec, s));  // warm-up of the new graph (upload)
    }
    const int calls_per_graph = mode == "graph" ? reps : 0;
    auto sample = [&] {
      if (mode == "graph") return timed_ms(s, ea, eb, 1, [&] { CUDA_CHECK(cudaGraphLaunch(exec, s)); }) / reps;
      return timed_ms(s, ea, eb, reps, once);
    };
    const SamplingOutcome so = meas.sample(s, poison, sample);
    const std::vector<double>& samples = so.samples;
    CUDA_CHECK(cudaStreamSynchronize(s));
    const NvmlClocks::Reading clk1 = meas.clocks();
    auto fields = [&](Json& r) { meas.add_fields(r, clk0, clk1, &so); };
    Check last = verify(m, h, R, ci.tol, "after the last timed sample");
    if (!last.passed) emit_result(ci, m.name(), m.family(), "failed", "", {}, double(m.peak_bytes()), true, last, info_json(m, reps, calls_per_graph));
    else {
      last.max_err = std::max(last.max_err, first.max_err);
      emit_result(ci, m.name(), m.family(), "ok", "", samples, double(m.peak_bytes()), true, last, info_json(m, reps, calls_per_graph), mode, fields);
    }
  } catch (const CudaError& e) {
    cudaStreamCaptureStatus st;
    if (cudaStreamIsCapturing(s, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
      cudaGraph_t g = nullptr;
      cudaStreamEndCapture(s, &g);
      if (g) cudaGraphDestroy(g);
    }
    cudaGetLastError();
    cudaStreamSynchronize(s);
    cudaGetLastError();
    emit_result(ci, m.name(), m.family(), "error", e.what(), {}, double(m.peak_bytes()), false, none, info_json(m, reps));
  }
  cleanup();
}

// Gives memory that the stream-ordered allocator keeps cached (graph allocations, libraries using
// cudaMallocAsync) back to the device, so that it cannot starve the next method's cudaMalloc.
inline void release_pool(cudaStream_t s) {
  CUDA_CHECK(cudaStreamSynchronize(s));
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaMemPool_t pool;
  if (cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  cudaGetLastError();
}

// Refuses, before any allocation, a case whose smallest footprint cannot fit: on the device A (CSR),
// B and C (what every method needs at least, one method at a time); on the host the pinned batch,
// B, the float64 reference (B, C and |A||B|) and the copy of C read back.
template <typename T>
void check_fits(const std::vector<Csr>& A, int nb) {
  double rows = 0, cols = 0, nnz = 0;
  for (const Csr& c : A) { rows += double(c.rows); cols += double(c.cols); nnz += double(c.nnz()); }
  const double dev_need = nnz * (sizeof(T) + 4) + (rows + 1) * 4 + (cols + rows) * nb * double(sizeof(T));
  const double host_need = nnz * 3 * (sizeof(T) + 8) + cols * nb * (sizeof(T) + 8.0) + rows * nb * (16.0 + sizeof(T));
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const double host_total = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  auto gb = [](double b) { char t[32]; std::snprintf(t, sizeof t, "%.2f GB", b / 1e9); return std::string(t); };
  if (dev_need > double(free_b))
    throw std::invalid_argument("nb " + std::to_string(nb) + ": the batch needs at least " + gb(dev_need) + " of device memory (A, B and C) but the GPU has " +
                                gb(double(free_b)) + " free of " + gb(double(total_b)) + "; host side " + gb(host_need) + " of " + gb(host_total));
  if (host_need > host_total)
    throw std::invalid_argument("nb " + std::to_string(nb) + ": the batch needs about " + gb(host_need) + " of host memory (pinned batch, B, float64 reference) but the machine has " +
                                gb(host_total) + "; device side " + gb(dev_need) + " of " + gb(double(free_b)) + " free");
}

std::string json_rows(const std::vector<std::vector<std::string>>& rows) {
  std::string out = "[";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r ? ",[" : "[";
    for (size_t i = 0; i < rows[r].size(); ++i) out += (i ? ",\"" : "\"") + json_escape(rows[r][i]) + "\"";
    out += "]";
  }
  return out + "]";
}

// --explain: the planner's rule (what `auto` runs) and its choice for this batch at every nb.
template <typename T>
void explain_planner(const std::vector<Csr>& A, const Options& o, Layout layout, const DeviceInfo& dev) {
  Json().str("type", "explain").str("op", "spmm").str("title", "auto: the planner's rule (first match wins; cuda/spmm/methods.cuh choose_ours)")
      .raw("columns", "[\"#\",\"when\",\"method\"]").raw("rows", json_rows(planner_rule())).emit();
  std::vector<std::vector<std::string>> rows;
  for (long long nb : o.nbs) {
    std::vector<double> b_ref;
    const HostBatch<T> h = make_batch<T>(A, int(nb), layout, o.seed, b_ref);
    const Choice c = choose_ours(h, dev);
    rows.push_back({std::to_string(nb), c.method, c.rule});
  }
  Json().str("type", "explain").str("op", "spmm").str("title", std::string("auto: the planner's choice for this batch (") + o.precision + ", " + o.layout + "-major)")
      .raw("columns", "[\"nb\",\"method\",\"why\"]").raw("rows", json_rows(rows)).emit();
}

template <typename T>
void run_all(const std::vector<Csr>& mats, const Options& o) {
  const Layout layout = o.layout == "col" ? Layout::Col : Layout::Row;
  const std::vector<Csr> A = rounded<T>(mats);
  const DeviceInfo dev = DeviceInfo::query();
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {  // validate method names before any work
    std::set<std::string> known;
    for (auto& m : all_methods<T>()) known.insert(m->name());
    for (const std::string& n : o.methods)
      if (!known.count(n)) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        throw std::invalid_argument("--methods: unknown method '" + n + "' (known: " + list + ")");
      }
  }
  for (long long nb : o.nbs) check_fits<T>(A, int(nb));
  if (o.explain) explain_planner<T>(A, o, layout, dev);
  // Progress: making B and the float64 reference takes seconds on large batches, and so does each method.
  long long step = 0;
  const long long steps = (long long)o.nbs.size() * (1 + (long long)(o.methods.empty() ? all_methods<T>().size() : o.methods.size()));
  for (long long nb : o.nbs) {
    emit_progress(step++, steps, "nb " + std::to_string(nb) + ": making B and the float64 reference");
    std::vector<double> b_ref;
    HostBatch<T> h = make_batch<T>(A, int(nb), layout, o.seed, b_ref);
    const Reference R = reference(A, h, b_ref);
    CaseInfo ci{int(nb), o.precision, o.mode, o.layout, h.batch, h.max_m, 2.0 * double(h.total_nnz) * double(nb),
                double(h.total_nnz) * (sizeof(T) + 4) + double(h.total_rows + h.batch) * 4 + double(h.total_cols + h.total_rows) * nb * sizeof(T),
                default_tol(sizeof(T) == 4)};
    // One method alive at a time: each one's device memory (B, C, A in its format, workspaces) is freed
    // before the next one allocates (with every method kept until the end of the case, batch 5000 x dim 64
    // x nb 1024 f64 needed 16 copies of B and C, ~85 GB, and the last peer ran out of memory).
    auto methods = all_methods<T>();
    for (auto& m : methods) {
      if (!o.methods.empty() && std::find(o.methods.begin(), o.methods.end(), m->name()) == o.methods.end()) { m.reset(); continue; }
      emit_progress(step++, steps, "nb " + std::to_string(nb) + ": " + m->name());
      run_method(*m, h, R, dev, ci, o, s);
      m.reset();
      release_pool(s);
    }
  }
  cudaStreamDestroy(s);
}

Options parse(const Args& a) {
  Options o;
  if (a.command() != "spmm") throw std::invalid_argument("expected the command 'spmm', got '" + a.command() + "'");
  o.input = a.need("input");
  o.nbs = a.ints("nb", "64");
  if (o.nbs.empty()) throw std::invalid_argument("--nb needs at least one value");
  for (long long nb : o.nbs) if (nb < 1 || nb > (1 << 20)) throw std::invalid_argument("--nb values must be in 1..1048576, got " + std::to_string(nb));
  o.precision = a.get("precision", "f32");
  if (o.precision != "f32" && o.precision != "f64") throw std::invalid_argument("--precision must be f32 or f64, got '" + o.precision + "'");
  o.mode = a.get("mode", "kernel");
  if (o.mode != "kernel" && o.mode != "e2e" && o.mode != "graph") throw std::invalid_argument("--mode must be kernel, e2e or graph, got '" + o.mode + "'");
  o.layout = a.get("layout", "row");
  if (o.layout != "row" && o.layout != "col") throw std::invalid_argument("--layout must be row or col, got '" + o.layout + "'");
  const std::vector<std::string> ms = a.list("methods", "all");
  if (!(ms.size() == 1 && ms[0] == "all")) o.methods = ms;
  o.warmup = int(a.integer("warmup", 5));
  if (o.warmup < 0) throw std::invalid_argument("--warmup must be >= 0");
  o.meas = std::make_shared<Measurer>(a, 20);
  o.seed = uint64_t(a.integer("seed", 1));
  o.device = int(a.integer("device", 0));
  if (o.device < 0) throw std::invalid_argument("--device must be >= 0, got " + std::to_string(o.device));
  o.explain = a.has("explain");
  return o;
}

}  // namespace
}  // namespace spb

int main(int argc, char** argv) {
  using namespace spb;
  Options o;
  std::vector<Csr> mats;
  try {
    Args a(argc, argv);
    o = parse(a);
    mats = read_spb(o.input).mats;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spbench-spmm-cuda: %s\n", e.what());
    return 2;
  }
  try {
    CUDA_CHECK(cudaSetDevice(o.device));
    o.meas->init(o.device);
    emit_env(argv[0]);
    if (o.precision == "f32") run_all<float>(mats, o);
    else run_all<double>(mats, o);
    emit_done();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "spbench-spmm-cuda: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spbench-spmm-cuda: %s\n", e.what());
    return 3;
  }
  return 0;
}
