// spbench-spmm-cuda: Batched SpMM on the GPU, ours + the paper's kernels + peers, verified and
// timed in one process on the same data (docs/native-protocol.md, docs/spmm-notes.md).
//   spmm --input BATCH.spb --nb 16,64 --precision f32|f64|f16|bf16 --methods all|a,b --mode kernel|e2e|graph
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
#include "../common/driver_main.hpp"
#include "../common/half_types.cuh"
#include "../common/reference.hpp"
#include "../common/spmm_batch.hpp"
#include "../common/timing.cuh"
#include "../common/measure.cuh"
#include "../spmm/methods.cuh"
#include "../spmm/host_batch.cuh"
#include "../peers/spmm_tf.cuh"
#ifndef SPB_NO_PEERS
#include "../peers/spmm_cublas.cuh"
#include "../peers/spmm_cusparse.cuh"
#endif

namespace spb {
namespace {

struct Options : SpmmRunOptions {
  std::vector<std::string> methods;  // empty = all
  std::shared_ptr<Measurer> meas;  // --samples N|auto, --cache, clocks (cuda/common/measure.cuh)
  int device = 0;  // --device N: the CUDA device this process uses (spbench run --devices gives one per worker)
  bool explain = false;
};

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

inline BatchLayout batch_layout(Layout l) { return l == Layout::Row ? BatchLayout::Row : BatchLayout::Col; }

// Copies C back and compares every C_i with the reference (normalized error, NaN = unwritten).
template <typename T>
SpmmCheck verify(Method<T>& m, const SpmmBatchData<T>& g, const SpmmReference& R, double tol, const char* when) {
  std::vector<T> got(size_t(g.total_rows) * g.nb);
  if (!got.empty()) CUDA_CHECK(cudaMemcpy(got.data(), m.output(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return check_spmm(got, g, R, tol, when);
}

void emit_driver_env(const char* exe) {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  Json c = cuda_versions();
#ifndef SPB_NO_PEERS
  {
    cusparseHandle_t hs; int v = 0;
    LIB_CHECK(cusparseCreate(&hs)); LIB_CHECK(cusparseGetVersion(hs, &v)); cusparseDestroy(hs);
    c.str("cusparse", cusparse_version_text(v));
    cublasHandle_t hb;
    LIB_CHECK(cublasCreate(&hb)); LIB_CHECK(cublasGetVersion(hb, &v)); cublasDestroy(hb);
    c.str("cublas", cublas_version_text(v));
  }
#endif
  emit_env(exe, "[" + gpu_json(dev) + "]", c);
}


struct CaseInfo {
  int nb;
  std::string precision, mode, layout;
  int batch, max_m;
  double flops, bytes, tol;
};

void emit_result(const CaseInfo& ci, const std::string& method, const std::string& family, const std::string& status, const std::string& reason,
                 const std::vector<double>& samples, double peak, bool checked, const SpmmCheck& chk, const std::string& info_json,
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
void run_method(Method<T>& m, const HostBatch<T>& h, const SpmmBatchData<T>& g, const SpmmReference& R, const DeviceInfo& dev, const CaseInfo& ci, const Options& o,
                cudaStream_t s) {
  const std::string na = m.not_applicable(h, dev);
  SpmmCheck none;
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
    SpmmCheck first = verify(m, g, R, ci.tol, "first run");
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
    run_warmups(o.warmup, once);
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
    SpmmCheck last = verify(m, g, R, ci.tol, "after the last timed sample");
    if (!last.passed) emit_result(ci, m.name(), m.family(), "failed", "", {}, double(m.peak_bytes()), true, last, info_json(m, reps, calls_per_graph));
    else {
      last.max_err = std::max(last.max_err, first.max_err);
      emit_result(ci, m.name(), m.family(), "ok", "", samples, double(m.peak_bytes()), true, last, info_json(m, reps, calls_per_graph), mode, fields);
    }
  } catch (const NotApplicable& e) {  // found in setup (a library refuses this type or layout)
    cudaGetLastError();
    cudaStreamSynchronize(s);
    cudaGetLastError();
    emit_result(ci, m.name(), m.family(), "not_applicable", e.what(), {}, 0, false, none, info_json(m, 0));
  } catch (const CudaError& e) {
    abandon_capture(s);
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
    SpmmBatchData<T> g = build_spmm_batch<T>(A, int(nb), batch_layout(layout), o.seed);
    const HostBatch<T> h = make_batch(g);
    const Choice c = choose_ours(h, dev);
    rows.push_back({std::to_string(nb), c.method, c.rule});
  }
  Json().str("type", "explain").str("op", "spmm").str("title", std::string("auto: the planner's choice for this batch (") + o.precision + ", " + o.layout + "-major)")
      .raw("columns", "[\"nb\",\"method\",\"why\"]").raw("rows", json_rows(rows)).emit();
}

template <typename T>
void run_all(const std::vector<Csr>& mats, const Options& o) {
  const Layout layout = o.layout == "col" ? Layout::Col : Layout::Row;
  const std::vector<Csr> A = rounded_batch<T>(mats);
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
    SpmmBatchData<T> g = build_spmm_batch<T>(A, int(nb), batch_layout(layout), o.seed);
    const SpmmReference R = spmm_reference(A, g);
    HostBatch<T> h = make_batch(g);
    CaseInfo ci{int(nb), o.precision, o.mode, o.layout, h.batch, h.max_m, 2.0 * double(h.total_nnz) * double(nb),
                double(h.total_nnz) * (sizeof(T) + 4) + double(h.total_rows + h.batch) * 4 + double(h.total_cols + h.total_rows) * nb * sizeof(T),
                Acc<T>::tol};
    // One method alive at a time: each one's device memory (B, C, A in its format, workspaces) is freed
    // before the next one allocates (with every method kept until the end of the case, batch 5000 x dim 64
    // x nb 1024 f64 needed 16 copies of B and C, ~85 GB, and the last peer ran out of memory).
    auto methods = all_methods<T>();
    for (auto& m : methods) {
      if (!o.methods.empty() && std::find(o.methods.begin(), o.methods.end(), m->name()) == o.methods.end()) { m.reset(); continue; }
      emit_progress(step++, steps, "nb " + std::to_string(nb) + ": " + m->name());
      run_method(*m, h, g, R, dev, ci, o, s);
      m.reset();
      release_pool(s);
    }
  }
  cudaStreamDestroy(s);
}

Options parse(const Args& a) {
  Options o;
  if (a.command() != "spmm") throw std::invalid_argument("expected the command 'spmm', got '" + a.command() + "'");
  parse_spmm_run(a, o);
  const std::vector<std::string> ms = a.list("methods", "all");
  if (!(ms.size() == 1 && ms[0] == "all")) o.methods = ms;
  o.meas = std::make_shared<Measurer>(a, 20);
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
  return driver_main("spbench-spmm-cuda", [&] {
    Args a(argc, argv);
    o = parse(a);
    mats = read_spb(o.input).mats;
    return -1;
  }, [&] {
    CUDA_CHECK(cudaSetDevice(o.device));
    o.meas->init(o.device);
    emit_driver_env(argv[0]);
    // f16 / bf16: A and B rounded to 16 bits (from the .spb's f32 or f64 values), C stored in 16 bits,
    // every method accumulating in f32 (Acc<T>, cuda/common/half_types.cuh).
    if (o.precision == "f32") run_all<float>(mats, o);
    else if (o.precision == "f16") run_all<__half>(mats, o);
    else if (o.precision == "bf16") run_all<__nv_bfloat16>(mats, o);
    else run_all<double>(mats, o);
    emit_done();
    return 0;
  });
}
