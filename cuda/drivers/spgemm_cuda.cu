// spbench-spgemm-cuda: hash SpGEMM (ours) and cuSPARSE SpGEMM on the same inputs, verified against the
// CPU Gustavson reference, timed as the whole SpGEMM (CSR inputs on the device -> CSR output on the
// device, C's allocation included). Protocol: docs/native-protocol.md. Links cusparse
// (-DSPB_NO_PEERS builds without cuSPARSE, for compile checks where its headers are missing).
// The CPU reference runs on a host thread while the GPU methods run; the first check waits for it.
#include <algorithm>
#include <future>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>
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
#ifndef SPB_NO_PEERS
#include "../peers/spgemm_cusparse.cuh"
#endif
#include "../spgemm/hash_spgemm.cuh"

using namespace spb;
using namespace spb::spgemm;

namespace {

struct Options {
  std::string a_path, b_path, precision;
  std::vector<std::string> methods;
  int warmup = 2;
  std::shared_ptr<Measurer> meas;  // --samples N|auto, --cache, clocks (cuda/common/measure.cuh)
  bool breakdown = false, explain = false;
  ReferenceSpec reference;
  float chunk_fraction = 0.2f;
  int device = 0;  // --device N: the CUDA device this process uses
};

const std::vector<std::string> kAllMethods = {"hash", "hash-opt", "cusparse-alg1", "cusparse-alg2", "cusparse-alg3", "cusparse-reuse"};

// The kernels' and the peer's view of an operand on the device.
template <typename T>
DevCsr<T> view(const DeviceCsr<T>& m) {
  DevCsr<T> d;
  d.rows = m.rows; d.cols = m.cols; d.nnz = m.nnz; d.rp = m.rp; d.ci = m.ci; d.v = m.v;
  return d;
}

template <typename T>
SpgemmCheck verify(const DevCsr<T>& C, const SpgemmReference& ref) {
  if (C.cols != ref.c.cols) return SpgemmCheck{false, 0, "C has " + std::to_string(C.cols) + " columns, the reference " + std::to_string(ref.c.cols)};
  return fetch_and_check(ref, C.rows, C.nnz, C.rp, C.ci, C.v, default_tol(sizeof(T) == 4));
}

template <typename T>
int run_all(const Options& opt, const cudaDeviceProp& prop, const std::string& exe) {
  Csr A = load_spgemm_operand(opt.a_path, "a");
  Csr B = opt.b_path.empty() ? A : load_spgemm_operand(opt.b_path, "b");
  if (opt.b_path.empty() && A.rows != A.cols)
    throw std::invalid_argument("--a " + opt.a_path + " is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + ", not square: give --b");
  if (A.cols != B.rows) throw std::invalid_argument("A is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + " but B is " + std::to_string(B.rows) + "x" + std::to_string(B.cols));
  round_values<T>(A); round_values<T>(B);

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  TrackingAllocator al(s);
#ifndef SPB_NO_PEERS
  CusparseSpgemm<T> cs(s);
#endif
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  Json cuda = cuda_versions();
#ifndef SPB_NO_PEERS
  cuda.str("cusparse", cusparse_version_text(cs.version()));
#endif
  emit_env(exe, "[" + gpu_json(dev) + "]", cuda);

  std::map<std::string, std::unique_ptr<HashSpgemm<T>>> ours;
  for (const std::string& name : {std::string("hash"), std::string("hash-opt")})
    ours[name] = std::make_unique<HashSpgemm<T>>(prop, name == "hash" ? paper_options() : opt_options(), s);
  if (opt.explain) {
    for (auto& kv : ours) {
      std::string rows = "[";
      bool first = true;
      for (auto& r : explain_rows(kv.second->config())) {
        rows += first ? "[" : ",["; first = false;
        for (size_t i = 0; i < r.size(); ++i) rows += (i ? ",\"" : "\"") + json_escape(r[i]) + "\"";
        rows += "]";
      }
      rows += "]";
      Json().str("type", "explain").str("op", "spgemm").str("title", kv.first + " (" + (kv.first == "hash" ? "seed 004 Table I rule" : "ours") + ") parameters derived for " + prop.name + (sizeof(T) == 4 ? ", f32" : ", f64"))
          .raw("columns", "[\"phase\",\"group\",\"assignment\",\"rows with\",\"table\",\"block\",\"blocks/SM\"]").raw("rows", rows).emit();
    }
  }

  const long long products = spgemm_products(A, B);
  // the reference on a host thread (it may take seconds to minutes on large products) while the GPU methods run
  std::future<SpgemmReference> ref_job = std::async(std::launch::async, [&] { return make_reference(A, B, opt.reference, int(sizeof(T))); });
  SpgemmReference ref;
  bool ref_ready = false;
  auto reference = [&]() -> const SpgemmReference& { if (!ref_ready) { ref = ref_job.get(); ref_ready = true; } return ref; };
  DeviceCsr<T> dA(A);
  std::unique_ptr<DeviceCsr<T>> dBown;  // B's own copy only where B is not A
  if (!opt.b_path.empty()) dBown = std::make_unique<DeviceCsr<T>>(B);
  const DevCsr<T> a = view(dA), b = dBown ? view(*dBown) : a;

  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0)); CUDA_CHECK(cudaEventCreate(&e1));
  const double tol = default_tol(sizeof(T) == 4);
  for (const std::string& m : opt.methods) {
    const bool is_ours = ours.count(m) != 0;
#ifndef SPB_NO_PEERS
    const CusparseMethod* peer = nullptr;
    for (const auto& cm : cusparse_methods()) if (m == cm.name) peer = &cm;
    const bool chunked = peer && (peer->alg == CusparseAlg::Alg2 || peer->alg == CusparseAlg::Alg3);
#else
    const bool chunked = false;
#endif
    auto run_once = [&](DevCsr<T>& C, std::map<std::string, double>* bd) {
      if (is_ours) { ours[m]->run(a, b, C, al, bd); return; }
#ifndef SPB_NO_PEERS
      cs.run(peer->alg, a, b, C, al, opt.chunk_fraction);
#else
      throw std::runtime_error(m + " is not built in (compiled without cuSPARSE)");
#endif
    };
    auto release = [&](DevCsr<T>& C) { al.free(C.rp); al.free(C.ci); al.free(C.v); C = DevCsr<T>{}; };
    std::string status = "ok", reason;
    std::vector<double> samples;
    std::map<std::string, double> bd;
    SpgemmCheck vo;
    long long nnzc = -1;
    size_t peak = 0;
    Measurer& meas = *opt.meas;
    const NvmlClocks::Reading clk0 = meas.clocks();
    NvmlClocks::Reading clk1;
    SamplingOutcome so;
    try {
      DevCsr<T> C;
      al.begin(); al.set_poison(true);
      run_once(C, nullptr);
      al.set_poison(false);
      CUDA_CHECK(cudaStreamSynchronize(s));
      peak = std::max(peak, al.peak_since_begin());
      nnzc = C.nnz;
      if (reference().have) { vo = verify(C, ref); if (!vo.passed) status = "failed"; }
      release(C);
      if (status == "ok") {
        run_warmups(opt.warmup, [&] { al.begin(); run_once(C, nullptr); release(C); peak = std::max(peak, al.peak_since_begin()); });
        // al.begin() and the flush (cold) before each sample, outside the events
        so = meas.sample(s, [&] { al.begin(); }, [&] {
          CUDA_CHECK(cudaEventRecord(e0, s));
          run_once(C, nullptr);
          CUDA_CHECK(cudaEventRecord(e1, s));
          CUDA_CHECK(cudaEventSynchronize(e1));
          float ms = 0; CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
          peak = std::max(peak, al.peak_since_begin());
          release(C);
          return double(ms);
        });
        samples = so.samples;
        clk1 = meas.clocks();
        if (opt.breakdown && is_ours) { run_once(C, &bd); release(C); }
      }
    } catch (const std::overflow_error& e) {
      status = "not_applicable"; reason = e.what();
    } catch (const std::exception& e) {
      status = "error"; reason = e.what();
    }
    al.set_poison(false);
    al.free_all();
    cudaStreamSynchronize(s);
    cudaGetLastError();  // clear a non-sticky error so the next method starts clean
    Json v;
    reference();  // an error before the check still reports which reference the run had
    if (nnzc < 0 && ref.have && ref.rows.empty()) nnzc = ref.c.nnz();
    v.boolean("checked", ref.have && (status == "ok" || status == "failed")).boolean("passed", status == "ok");
    if (ref.have && (status == "ok" || status == "failed")) v.num("max_rel_err", vo.err); else v.null("max_rel_err");
    v.num("tol", tol).str("reference", ref.have ? ref.label : "none");
    if (!vo.detail.empty()) v.str("detail", vo.detail);
    Json r;
    r.str("type", "result").str("op", "spgemm").str("method", m).str("family", m == "hash" ? "paper" : is_ours ? "ours" : "peer")
        .raw("params", spgemm_params(A, B, opt.a_path, opt.b_path, int(sizeof(T)), products)).str("status", status);
    if (!reason.empty()) r.str("reason", reason);
    r.str("timed_region", "whole-spgemm").nums("samples_ms", samples).num("flops", 2.0 * double(products))
        .num("bytes_moved", spgemm_bytes_moved(A, B, nnzc, int(sizeof(T))))
        .num("peak_mem_bytes", double(peak)).raw("verify", v.done());
    if (!bd.empty()) { Json bj; for (auto& kv : bd) bj.num(kv.first, kv.second); r.raw("breakdown_ms", bj.done()); }
    Json info;
    info.integer("nnz_c", nnzc).str("alloc", "cudaMallocAsync pool (release threshold max), tracked");
    if (chunked) info.num("chunk_fraction", opt.chunk_fraction);
    if (ref.from_cache) info.integer("reference_cached", 1);
    r.raw("info", info.done());
    meas.add_fields(r, clk0, clk1, status == "ok" ? &so : nullptr);
    r.emit();
  }
  cudaEventDestroy(e0); cudaEventDestroy(e1);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  return driver_main("spbench-spgemm-cuda", [&] {
    Args args(argc, argv);
    if (args.command() != "spgemm") throw std::invalid_argument("usage: spbench-spgemm-cuda spgemm --a A.spb [--b B.spb] --precision f32|f64 --methods all|m1,m2 --warmup N --samples N|auto [--max-noise P] [--min-samples N] [--min-time S] [--timeout S] [--cache hot|cold] [--breakdown] [--explain] [--reference cpu|none|rows:N] [--reference-cache DIR] [--verify-seed S]");
    opt.a_path = args.need("a");
    opt.b_path = args.get("b");
    opt.precision = args.get("precision", "f32");
    if (opt.precision != "f32" && opt.precision != "f64") throw std::invalid_argument("--precision must be f32 or f64, got '" + opt.precision + "'");
    const std::string ml = args.get("methods", "all");
    opt.methods = ml == "all" ? kAllMethods : args.list("methods");
    for (const std::string& m : opt.methods)
      if (std::find(kAllMethods.begin(), kAllMethods.end(), m) == kAllMethods.end()) throw std::invalid_argument("--methods: unknown method '" + m + "' (known: hash, hash-opt, cusparse-alg1, cusparse-alg2, cusparse-alg3, cusparse-reuse)");
    opt.warmup = int(args.integer("warmup", 2));
    if (opt.warmup < 0) throw std::invalid_argument("--warmup must be >= 0");
    opt.meas = std::make_shared<Measurer>(args, 10);
    opt.breakdown = args.has("breakdown");
    opt.explain = args.has("explain");
    opt.reference = parse_reference(args.get("reference", "cpu"), uint64_t(args.integer("verify-seed", 1)), args.get("reference-cache"));
    // leave two cores to the GPU methods' host side while the reference runs beside them; --threads T
    // (run --devices: each worker's share of the host) overrides that
    const long long given_threads = args.integer("threads", 0);
    if (given_threads < 0) throw std::invalid_argument("--threads must be >= 0, got " + std::to_string(given_threads));
    opt.reference.threads = given_threads > 0 ? unsigned(given_threads) : std::max(1u, std::thread::hardware_concurrency() - std::min(2u, std::thread::hardware_concurrency()));
    opt.chunk_fraction = float(args.real("chunk-fraction", 0.2));
    opt.device = int(args.integer("device", 0));
    if (opt.device < 0) throw std::invalid_argument("--device must be >= 0, got " + std::to_string(opt.device));
    return -1;
  }, [&] {
    const int dev = opt.device;
    CUDA_CHECK(cudaSetDevice(dev));
    opt.meas->init(dev);
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    keep_pool_memory(dev);
    int rc = opt.precision == "f32" ? run_all<float>(opt, prop, argv[0]) : run_all<double>(opt, prop, argv[0]);
    emit_done();
    return rc;
  });
}
