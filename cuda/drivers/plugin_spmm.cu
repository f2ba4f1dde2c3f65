// spbench-plugin-spmm-<hash>: runs one user SpMM plugin (cuda/include/spbench_plugin.h) on the same batch,
// COO order and B as the spmm driver (cuda/common/spmm_batch.hpp, same seed), verified against the
// CPU float64 reference with a poisoned C, timed in kernel, e2e or graph mode. Built per plugin by
// spbench (src/plugins/build.ts): nvcc -I cuda/include cuda/drivers/plugin_spmm.cu PLUGIN.cu.
// Runs in its own process, so a plugin that crashes the CUDA context loses only its own results.
//   spmm --input BATCH.spb --nb 16,64 --precision f32|f64 --mode kernel|e2e|graph --warmup N --samples N|auto
//        [--max-noise P --min-samples N --min-time S --timeout S] --cache hot|cold
//        --layout row|col --seed S --formats csr[,coo] --names NAME[,NAME2]
//   manifest                          (prints the plugin's manifest as a log line, then done)
// Needs only the CUDA runtime (no cuSPARSE/cuBLAS). Protocol: docs/native-protocol.md; family "user".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <spbench_plugin.h>
#include "../common/args.hpp"
#include "../common/binfmt.hpp"
#include "../common/check.cuh"
#include "../common/gpu_env.cuh"
#include "../common/json.hpp"
#include "../common/reference.hpp"
#include "../common/spmm_batch.hpp"
#include "../common/timing.cuh"
#include "../common/measure.cuh"
#include "../common/plugin_runner.cuh"
#include "../common/driver_main.hpp"
#include "../common/tracking_alloc.cuh"

namespace {
using namespace spb;
using namespace spb::plugin;

struct Options : SpmmRunOptions {
  std::vector<std::string> formats, names;
  std::shared_ptr<Measurer> meas;  // --samples N|auto, --cache, clocks (cuda/common/measure.cuh)
};


template <typename T> struct DevBuf {
  T* p = nullptr; size_t n = 0;
  DevBuf() = default;
  explicit DevBuf(size_t count) : n(count) { CUDA_CHECK(cudaMalloc(&p, sizeof(T) * std::max<size_t>(1, n))); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() { if (p) cudaFree(p); }
  size_t bytes() const { return sizeof(T) * n; }
};
template <typename T> struct PinBuf {
  T* p = nullptr; size_t n = 0;
  explicit PinBuf(const std::vector<T>& v) : n(v.size()) {
    CUDA_CHECK(cudaMallocHost(&p, sizeof(T) * std::max<size_t>(1, n)));
    std::copy(v.begin(), v.end(), p);
  }
  PinBuf(const PinBuf&) = delete;
  PinBuf& operator=(const PinBuf&) = delete;
  ~PinBuf() { if (p) cudaFreeHost(p); }
};

struct CaseInfo {
  int nb; std::string precision, mode, layout; int batch, max_m; double flops, bytes, tol; std::string format;
};

void emit_result(const CaseInfo& ci, const std::string& method, const std::string& status, const std::string& reason, const std::vector<double>& samples,
                 double peak, bool checked, const SpmmCheck& chk, int reps, const std::function<void(Json&)>& extra = nullptr) {
  Json params;
  params.integer("nb", ci.nb).str("precision", ci.precision).str("mode", ci.mode).str("layout", ci.layout).integer("batch", ci.batch).integer("max_m", ci.max_m);
  Json v;
  v.boolean("checked", checked).boolean("passed", checked && chk.passed);
  if (checked && std::isfinite(chk.max_err)) v.num("max_rel_err", chk.max_err); else v.null("max_rel_err");
  v.num("tol", ci.tol).str("reference", "cpu-f64");
  if (!chk.detail.empty()) v.str("detail", chk.detail);
  Json info;
  info.str("format", ci.format).str("plugin", "user").integer("reps_per_sample", reps);
  Json r;
  r.str("type", "result").str("op", "spmm").str("method", method).str("family", "user").raw("params", params.done()).str("status", status);
  if (!reason.empty()) r.str("reason", reason);
  r.str("timed_region", ci.mode).nums("samples_ms", samples).num("flops", ci.flops).num("bytes_moved", ci.bytes).num("peak_mem_bytes", peak)
      .raw("verify", v.done()).raw("info", info.done());
  if (extra) extra(r);
  r.emit();
}

template <typename T>
void run_one(const spbench::SpmmPlugin& plug, const std::string& name, spbench::Format fmt, const SpmmBatchData<T>& h, const SpmmReference& R,
             const CaseInfo& ci, const Options& o, const cudaDeviceProp& prop, cudaStream_t s) {
  const bool coo = fmt == spbench::Format::Coo;
  TrackingAllocator al(s);
  Counting counting{&al, ""};
  SpmmCheck none;
  double peak = 0;
  int reps = 1;
  void* state = nullptr;
  bool have_state = false;
  cudaEvent_t ea = nullptr, eb = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  Measurer& meas = *o.meas;
  const NvmlClocks::Reading clk0 = meas.clocks();
  try {
    // inputs on the device (pinned host copies for e2e's uploads)
    DevBuf<int> d_row(h.row_off.size()), d_col(h.col_off.size()), d_nz(h.nnz_off.size());
    DevBuf<int> d_rp(coo ? 0 : h.rp.size()), d_r(coo ? h.coo_r.size() : 0), d_c(h.ci.size());
    DevBuf<T> d_v(h.val.size()), d_B(h.B.size()), d_C(size_t(h.total_rows) * h.nb);
    PinBuf<int> p_rp(coo ? std::vector<int>{} : h.rp), p_r(coo ? h.coo_r : std::vector<int>{}), p_c(coo ? h.coo_c : h.ci);
    PinBuf<T> p_v(coo ? h.coo_v : h.val), p_B(h.B);
    auto up = [&](void* dst, const void* src, size_t bytes) { if (bytes) CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s)); };
    auto upload_inputs = [&] {
      if (coo) up(d_r.p, p_r.p, d_r.bytes()); else up(d_rp.p, p_rp.p, d_rp.bytes());
      up(d_c.p, p_c.p, d_c.bytes()); up(d_v.p, p_v.p, d_v.bytes()); up(d_B.p, p_B.p, d_B.bytes());
    };
    up(d_row.p, h.row_off.data(), d_row.bytes()); up(d_col.p, h.col_off.data(), d_col.bytes()); up(d_nz.p, h.nnz_off.data(), d_nz.bytes());
    upload_inputs();
    CUDA_CHECK(cudaStreamSynchronize(s));
    const double input_bytes = double(d_row.bytes() + d_col.bytes() + d_nz.bytes() + d_rp.bytes() + d_r.bytes() + d_c.bytes() + d_v.bytes() + d_B.bytes() + d_C.bytes());

    spbench::SpmmProblem p{};
    p.value_type = sizeof(T) == 4 ? spbench::ValueType::F32 : spbench::ValueType::F64;
    p.format = fmt;
    p.layout = h.layout == BatchLayout::Row ? spbench::Layout::RowMajor : spbench::Layout::ColMajor;
    p.count = h.batch; p.nb = h.nb; p.uniform = h.uniform;
    p.max_rows = h.max_m; p.max_cols = h.max_k; p.max_nnz = h.max_nnz;
    p.total_rows = h.total_rows; p.total_cols = h.total_cols; p.total_nnz = h.total_nnz;
    p.h_row_offset = h.row_off.data(); p.h_col_offset = h.col_off.data(); p.h_nnz_offset = h.nnz_off.data();
    p.d_row_offset = d_row.p; p.d_col_offset = d_col.p; p.d_nnz_offset = d_nz.p;
    p.row_ptr = coo ? nullptr : d_rp.p; p.coo_row = coo ? d_r.p : nullptr; p.col_idx = d_c.p;
    p.values = d_v.p; p.B = d_B.p; p.C = d_C.p;
    p.stream = s;
    p.workspace = counting.allocator();
    p.device = &prop;

    al.begin();
    if (plug.setup) { check_result(plug.setup(p, &state), "setup"); have_state = true; }
    auto run = [&] {
      check_result(plug.run(p, state), "run");
      if (!counting.last_error.empty()) throw PluginStatus{spbench::Status::Error, "workspace allocation failed: " + counting.last_error};
    };
    const size_t c_bytes = d_C.bytes();
    auto poison = [&] { if (c_bytes) CUDA_CHECK(cudaMemsetAsync(d_C.p, 0xFF, c_bytes, s)); };
    std::vector<T> got(size_t(h.total_rows) * h.nb);
    auto verify = [&](const char* when) {
      CUDA_CHECK(cudaStreamSynchronize(s));
      if (!got.empty()) CUDA_CHECK(cudaMemcpy(got.data(), d_C.p, c_bytes, cudaMemcpyDeviceToHost));
      return check_spmm(got, h, R, ci.tol, when);
    };
    CUDA_CHECK(cudaEventCreate(&ea)); CUDA_CHECK(cudaEventCreate(&eb));
    al.set_poison(true);
    poison();
    run();
    CUDA_CHECK(cudaStreamSynchronize(s));
    al.set_poison(false);
    SpmmCheck first = verify("first run");
    peak = input_bytes + double(al.peak_since_begin());
    if (!first.passed) {
      emit_result(ci, name, "failed", "", {}, peak, true, first, 0);
    } else {
      if (o.mode == "graph") {
        CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        run();
        CUDA_CHECK(cudaStreamEndCapture(s, &graph));
        CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
      }
      auto once = [&] {
        if (o.mode == "graph") CUDA_CHECK(cudaGraphLaunch(exec, s));
        else {
          if (o.mode == "e2e") upload_inputs();
          run();
        }
      };
      run_warmups(o.warmup, once);
      // Sub-10 us calls (graph: sub-50 us) are timed several to a sample, as the spmm driver does.
      double t1 = 1e30;
      for (int i = 0; i < 3; ++i) t1 = std::min(t1, timed_ms(s, ea, eb, 1, once));
      if (!meas.one_call_per_sample() && t1 < (o.mode == "graph" ? 0.050 : 0.010)) reps = std::min(200, std::max(2, int(std::ceil(0.050 / std::max(t1, 1e-4)))));
      if (o.mode == "graph" && reps > 1) {
        CUDA_CHECK(cudaGraphExecDestroy(exec)); exec = nullptr;
        CUDA_CHECK(cudaGraphDestroy(graph)); graph = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < reps; ++i) run();
        CUDA_CHECK(cudaStreamEndCapture(s, &graph));
        CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
        CUDA_CHECK(cudaGraphLaunch(exec, s));
      }
      const SamplingOutcome so = meas.sample(s, poison, [&] {
        if (o.mode == "graph") return timed_ms(s, ea, eb, 1, [&] { CUDA_CHECK(cudaGraphLaunch(exec, s)); }) / reps;
        return timed_ms(s, ea, eb, reps, once);
      });
      const std::vector<double>& samples = so.samples;
      CUDA_CHECK(cudaStreamSynchronize(s));
      const NvmlClocks::Reading clk1 = meas.clocks();
      SpmmCheck last = verify("after the last timed sample");
      peak = std::max(peak, input_bytes + double(al.peak_since_begin()));
      if (!last.passed) emit_result(ci, name, "failed", "", {}, peak, true, last, reps);
      else {
        last.max_err = std::max(last.max_err, first.max_err);
        emit_result(ci, name, "ok", "", samples, peak, true, last, reps, [&](Json& r) { meas.add_fields(r, clk0, clk1, &so); });
      }
    }
  } catch (const PluginStatus& e) {
    abandon_capture(s);
    emit_result(ci, name, e.status == spbench::Status::NotApplicable ? "not_applicable" : "error", e.message, {}, peak, false, none, reps);
  } catch (const CudaError& e) {
    abandon_capture(s);
    const cudaError_t last = cudaStreamSynchronize(s);
    const cudaError_t err = last != cudaSuccess ? last : cudaGetLastError();
    emit_result(ci, name, "error", e.what(), {}, peak, false, none, reps);
    if (sticky(err)) {
      // The context is lost: later cases cannot run. spbench reports them as errors of this plugin.
      std::fprintf(stderr, "spbench-plugin-spmm: %s: the CUDA context is unusable after %s; stopping\n", name.c_str(), cudaGetErrorName(err));
      std::fflush(stdout);
      std::_Exit(3);
    }
  }
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  if (ea) cudaEventDestroy(ea);
  if (eb) cudaEventDestroy(eb);
  if (have_state && plug.teardown) plug.teardown(state);
  al.free_all();
  cudaStreamSynchronize(s);
}

template <typename T>
void run_all(const std::vector<Csr>& mats, const Options& o, const cudaDeviceProp& prop) {
  const spbench::SpmmPlugin plug = spbench_spmm_plugin();
  if (!plug.run) throw std::invalid_argument("the plugin defines no run function (SPBENCH_SPMM_PLUGIN's third argument)");
  const BatchLayout layout = o.layout == "col" ? BatchLayout::Col : BatchLayout::Row;
  const std::vector<Csr> A = rounded_batch<T>(mats);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (long long nb : o.nbs) {
    SpmmBatchData<T> h = build_spmm_batch<T>(A, int(nb), layout, o.seed);
    const SpmmReference R = spmm_reference(A, h);
    for (size_t f = 0; f < o.formats.size(); ++f) {
      const bool coo = o.formats[f] == "coo";
      // the same byte count as the spmm driver's methods (CSR index arrays), so GB/s compare
      CaseInfo ci{int(nb), o.precision, o.mode, o.layout, h.batch, h.max_m, 2.0 * double(h.total_nnz) * double(nb),
                  double(h.total_nnz) * (sizeof(T) + 4) + double(h.total_rows + h.batch) * 4 + double(h.total_cols + h.total_rows) * nb * sizeof(T),
                  default_tol(sizeof(T) == 4), o.formats[f]};
      run_one<T>(plug, o.names[f], coo ? spbench::Format::Coo : spbench::Format::Csr, h, R, ci, o, prop, s);
    }
  }
  cudaStreamDestroy(s);
}

Options parse(const Args& a) {
  Options o;
  parse_spmm_run(a, o);
  o.formats = a.list("formats", "csr");
  o.names = a.list("names");
  if (o.names.size() != o.formats.size()) throw std::invalid_argument("--names must give one method name per --formats entry");
  for (const std::string& f : o.formats) if (f != "csr" && f != "coo") throw std::invalid_argument("--formats entries must be csr or coo, got '" + f + "'");
  o.meas = std::make_shared<Measurer>(a, 20);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace spb;
  Options o;
  std::vector<Csr> mats;
  return driver_main("spbench-plugin-spmm", [&] {
    if (const std::string bad = plugin::api_mismatch(); !bad.empty()) throw std::invalid_argument(bad);
    Args a(argc, argv);
    if (a.command() == "manifest") {
      plugin::emit_manifest(argv[0]);
      return 0;
    }
    if (a.command() != "spmm") throw std::invalid_argument("expected the command 'spmm' or 'manifest', got '" + a.command() + "'");
    o = parse(a);
    // The plugin ABI (spbench_plugin.h) has f32 and f64 values; spbench makes a plugin not applicable to f16/bf16 cases before it gets here.
    if (o.precision != "f32" && o.precision != "f64") throw std::invalid_argument("--precision " + o.precision + ": plugins take f32 or f64 values");
    mats = read_spb(o.input).mats;
    return -1;
  }, [&] {
    int dev = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    o.meas->init(dev);
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    keep_pool_memory(dev);
    emit_env(argv[0], "[" + gpu_json(dev) + "]", cuda_versions());
    if (o.precision == "f32") run_all<float>(mats, o, prop);
    else run_all<double>(mats, o, prop);
    emit_done();
    return 0;
  });
}
