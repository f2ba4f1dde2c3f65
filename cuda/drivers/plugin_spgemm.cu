// spbench-plugin-spgemm-<hash>: runs one user SpGEMM plugin (cuda/include/spbench_plugin.h) on the same
// A and B as the spgemm driver, verified against the shared CPU reference (cuda/common/spgemm_check.hpp:
// identical pattern, sorted columns, values within tolerance) with every allocation poisoned on the
// verified run, timed as the whole SpGEMM (setup + compute, C's allocation included). Every buffer goes
// through the TrackingAllocator (cuda/common/tracking_alloc.cuh), so peak memory is counted as for hash SpGEMM.
// Built per plugin (src/plugins/build.ts): nvcc -I cuda/include cuda/drivers/plugin_spgemm.cu PLUGIN.cu.
//   spgemm --a A.spb [--b B.spb] --precision f32|f64 --warmup N --samples N --name NAME [--breakdown]
//          [--reference cpu|none|rows:N] [--reference-cache DIR] [--verify-seed S]
//   manifest
// Needs only the CUDA runtime (no cuSPARSE). Protocol: docs/native-protocol.md; family "user".
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include <spbench_plugin.h>
#include "../common/args.hpp"
#include "../common/binfmt.hpp"
#include "../common/check.cuh"
#include "../common/device_csr.cuh"
#include "../common/driver_main.hpp"
#include "../common/gpu_env.cuh"
#include "../common/json.hpp"
#include "../common/measure.cuh"
#include "../common/reference.hpp"
#include "../common/spgemm_check.hpp"
#include "../common/spgemm_fetch.cuh"
#include "../common/plugin_runner.cuh"
#include "../common/tracking_alloc.cuh"

namespace {
using namespace spb;
using namespace spb::plugin;

struct Options {
  std::string a_path, b_path, precision = "f32", name;
  int warmup = 2;
  std::shared_ptr<Measurer> meas;  // --samples N|auto, --cache, clocks (cuda/common/measure.cuh)
  bool breakdown = false;
  ReferenceSpec reference;
};

template <typename T>
int run(const Options& opt, const cudaDeviceProp& prop, const std::string& exe) {
  const spbench::SpgemmPlugin plug = spbench_spgemm_plugin();
  if (!plug.compute) throw std::invalid_argument("the plugin defines no compute function (SPBENCH_SPGEMM_PLUGIN's third argument)");
  Csr A = load_spgemm_operand(opt.a_path, "a");
  Csr B = opt.b_path.empty() ? A : load_spgemm_operand(opt.b_path, "b");
  if (A.cols != B.rows) throw std::invalid_argument("A is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + " but B is " + std::to_string(B.rows) + "x" + std::to_string(B.cols));
  round_values<T>(A); round_values<T>(B);

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  TrackingAllocator al(s);
  Counting counting{&al, ""};
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  emit_env(exe, "[" + gpu_json(dev) + "]", cuda_versions());

  const long long products = spgemm_products(A, B);
  std::future<SpgemmReference> ref_job = std::async(std::launch::async, [&] { return make_reference(A, B, opt.reference, int(sizeof(T))); });
  DeviceCsr<T> dA(A);
  std::unique_ptr<DeviceCsr<T>> dBown;
  if (!opt.b_path.empty()) dBown = std::make_unique<DeviceCsr<T>>(B);
  const DeviceCsr<T>& dB = dBown ? *dBown : dA;

  spbench::SpgemmProblem p{};
  p.value_type = sizeof(T) == 4 ? spbench::ValueType::F32 : spbench::ValueType::F64;
  p.a_rows = int(A.rows); p.a_cols = int(A.cols); p.b_cols = int(B.cols); p.a_nnz = A.nnz(); p.b_nnz = B.nnz();
  p.a_row_ptr = dA.rp; p.a_col_idx = dA.ci; p.a_values = dA.v;
  p.b_row_ptr = dB.rp; p.b_col_idx = dB.ci; p.b_values = dB.v;
  p.stream = s;
  p.alloc = counting.allocator();
  p.device = &prop;

  cudaEvent_t e0, e1, em;
  CUDA_CHECK(cudaEventCreate(&e0)); CUDA_CHECK(cudaEventCreate(&e1)); CUDA_CHECK(cudaEventCreate(&em));
  std::string status = "ok", reason;
  std::vector<double> samples, setup_ms, compute_ms;
  SpgemmCheck vo;
  long long nnzc = -1;
  size_t peak = 0;
  void* state = nullptr;
  bool have_state = false, sticky_ = false, ref_have_ = false, ref_cached_ = false;
  std::string ref_label_;
  Measurer& meas = *opt.meas;
  const NvmlClocks::Reading clk0 = meas.clocks();
  NvmlClocks::Reading clk1;
  SamplingOutcome so;
  // One whole SpGEMM: C's row pointer, setup (if any), compute. Returns C.
  auto once = [&](bool timed) {
    spbench::SpgemmOutput c{};
    if (timed) CUDA_CHECK(cudaEventRecord(e0, s));
    c.c_row_ptr = static_cast<int*>(Counting::alloc_fn(&counting, sizeof(int) * (size_t(A.rows) + 1)));
    if (!c.c_row_ptr) throw PluginStatus{spbench::Status::Error, "allocating C's row pointer failed: " + counting.last_error};
    if (plug.setup) { check_result(plug.setup(p, &state), "setup"); have_state = true; }
    if (timed) CUDA_CHECK(cudaEventRecord(em, s));
    check_result(plug.compute(p, state, c), "compute");
    if (!counting.last_error.empty()) throw PluginStatus{spbench::Status::Error, "an allocation failed: " + counting.last_error};
    if (timed) {
      CUDA_CHECK(cudaEventRecord(e1, s));
      CUDA_CHECK(cudaEventSynchronize(e1));
      float ms = 0, ms_setup = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
      CUDA_CHECK(cudaEventElapsedTime(&ms_setup, e0, em));
      samples.push_back(ms); setup_ms.push_back(ms_setup); compute_ms.push_back(ms - ms_setup);
    }
    if (have_state && plug.teardown) { plug.teardown(state); }
    state = nullptr; have_state = false;
    return c;
  };
  try {
    al.begin(); al.set_poison(true);
    spbench::SpgemmOutput c = once(false);
    al.set_poison(false);
    CUDA_CHECK(cudaStreamSynchronize(s));
    peak = al.peak_since_begin();
    nnzc = c.c_nnz;
    const SpgemmReference ref = ref_job.get();
    if (ref.have) {
      if (c.c_nnz < 0) vo = SpgemmCheck{false, 0, "the plugin set c_nnz to " + std::to_string(c.c_nnz)};
      else if (c.c_nnz > 0 && (!c.c_col_idx || !c.c_values)) vo = SpgemmCheck{false, 0, "the plugin set c_nnz but not c_col_idx / c_values"};
      else vo = fetch_and_check(ref, A.rows, c.c_nnz, c.c_row_ptr, c.c_col_idx, static_cast<const T*>(c.c_values), default_tol(sizeof(T) == 4));
      if (!vo.passed) status = "failed";
      ref_cached_ = ref.from_cache;
      ref_label_ = ref.label;
      ref_have_ = true;
    }
    al.free_all();
    if (status == "ok") {
      run_warmups(opt.warmup, [&] { al.begin(); once(false); peak = std::max(peak, al.peak_since_begin()); al.free_all(); });
      so = meas.sample(s, [&] { al.begin(); }, [&] { once(true); peak = std::max(peak, al.peak_since_begin()); al.free_all(); return samples.back(); });
      clk1 = meas.clocks();
    }
  } catch (const PluginStatus& e) {
    status = e.status == spbench::Status::NotApplicable ? "not_applicable" : "error";
    reason = e.message;
  } catch (const CudaError& e) {
    status = "error"; reason = e.what();
    const cudaError_t last = cudaStreamSynchronize(s);
    if (sticky(last != cudaSuccess ? last : cudaGetLastError())) sticky_ = true;
  }
  if (have_state && plug.teardown) plug.teardown(state);
  if (!sticky_) { al.set_poison(false); al.free_all(); cudaStreamSynchronize(s); cudaGetLastError(); }
  if (!ref_have_ && ref_job.valid()) {
    const SpgemmReference ref = ref_job.get();
    ref_have_ = ref.have; ref_label_ = ref.label; ref_cached_ = ref.from_cache;
    if (nnzc < 0 && ref.have && ref.rows.empty()) nnzc = ref.c.nnz();
  }
  const bool checked = ref_have_ && (status == "ok" || status == "failed");
  Json v;
  v.boolean("checked", checked).boolean("passed", status == "ok");  // as the spgemm driver: --verify none leaves passed to the status
  if (checked) v.num("max_rel_err", vo.err); else v.null("max_rel_err");
  v.num("tol", default_tol(sizeof(T) == 4)).str("reference", ref_have_ ? ref_label_ : "none");
  if (!vo.detail.empty()) v.str("detail", vo.detail);
  Json r;
  r.str("type", "result").str("op", "spgemm").str("method", opt.name).str("family", "user").raw("params", spgemm_params(A, B, opt.a_path, opt.b_path, int(sizeof(T)), products)).str("status", status);
  if (!reason.empty()) r.str("reason", reason);
  r.str("timed_region", "whole-spgemm").nums("samples_ms", status == "ok" ? samples : std::vector<double>{}).num("flops", 2.0 * double(products))
      .num("bytes_moved", spgemm_bytes_moved(A, B, nnzc, int(sizeof(T))))
      .num("peak_mem_bytes", double(peak)).raw("verify", v.done());
  if (opt.breakdown && plug.setup && status == "ok" && !samples.empty()) {
    auto median = [](std::vector<double> x) { std::sort(x.begin(), x.end()); return x[x.size() / 2]; };
    r.raw("breakdown_ms", Json().num("setup", median(setup_ms)).num("compute", median(compute_ms)).done());
  }
  Json info;
  info.integer("nnz_c", nnzc).str("alloc", "cudaMallocAsync pool (release threshold max), tracked").str("plugin", "user");
  if (ref_cached_) info.integer("reference_cached", 1);
  r.raw("info", info.done());
  meas.add_fields(r, clk0, clk1, status == "ok" ? &so : nullptr);
  r.emit();
  if (sticky_) {
    std::fprintf(stderr, "spbench-plugin-spgemm: %s: the CUDA context is unusable; stopping\n", opt.name.c_str());
    std::fflush(stdout);
    std::_Exit(3);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace spb;
  Options opt;
  return driver_main("spbench-plugin-spgemm", [&] {
    if (const std::string bad = plugin::api_mismatch(); !bad.empty()) throw std::invalid_argument(bad);
    Args args(argc, argv);
    if (args.command() == "manifest") {
      plugin::emit_manifest(argv[0]);
      return 0;
    }
    if (args.command() != "spgemm") throw std::invalid_argument("usage: spbench-plugin-spgemm spgemm --a A.spb [--b B.spb] --precision f32|f64 --name NAME --warmup N --samples N|auto [--max-noise P] [--min-samples N] [--min-time S] [--timeout S] [--cache hot|cold] [--breakdown] [--reference cpu|none|rows:N] [--reference-cache DIR] [--verify-seed S]");
    opt.a_path = args.need("a");
    opt.b_path = args.get("b");
    opt.name = args.need("name");
    opt.precision = args.get("precision", "f32");
    if (opt.precision != "f32" && opt.precision != "f64") throw std::invalid_argument("--precision must be f32 or f64, got '" + opt.precision + "'");
    opt.warmup = int(args.integer("warmup", 2));
    if (opt.warmup < 0) throw std::invalid_argument("--warmup must be >= 0");
    opt.meas = std::make_shared<Measurer>(args, 10);
    opt.breakdown = args.has("breakdown");
    opt.reference = parse_reference(args.get("reference", "cpu"), uint64_t(args.integer("verify-seed", 1)), args.get("reference-cache"));
    opt.reference.threads = std::max(1u, std::thread::hardware_concurrency() - std::min(2u, std::thread::hardware_concurrency()));
    return -1;
  }, [&] {
    int dev = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    opt.meas->init(dev);
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    keep_pool_memory(dev);
    int rc = opt.precision == "f32" ? run<float>(opt, prop, argv[0]) : run<double>(opt, prop, argv[0]);
    emit_done();
    return rc;
  });
}
