// spbench-cpu: the CPU reference backend. Same command lines and JSON lines as the GPU executables
// (docs/native-protocol.md); every figure it prints is a CPU wall-clock figure ("cpu-wall").
// Exit codes: 0 success (failed verification is a result), 2 bad arguments/input, 3 other failures.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include "../common/args.hpp"
#include "../common/binfmt.hpp"
#include "mtx_parse.hpp"
#include "spgemm_cpu.hpp"
#include "spmm_cpu.hpp"

using namespace spb;
using namespace spb::cpu;

namespace {

const char* kUsage =
    "usage: spbench-cpu spmm --input BATCH.spb --nb 16,64 --precision f32|f64|f16|bf16 --methods all|cpu-csr,cpu-coo\n"
    "                        [--mode kernel|e2e|graph] [--warmup N] [--samples N|auto] [--max-noise P] [--min-samples N] [--min-time S] [--timeout S] [--cache hot|cold] [--layout row|col] [--seed S]\n"
    "       spbench-cpu spgemm --a A.spb [--b B.spb] --precision f32|f64 --methods all|cpu-gustavson\n"
    "                        [--warmup N] [--samples N|auto] [--max-noise P] [--min-samples N] [--min-time S] [--timeout S] [--cache hot|cold] [--breakdown] [--explain] [--reference cpu|none|rows:N] [--reference-cache DIR] [--verify-seed S]\n"
    "       spbench-cpu mtx2spb --input A.mtx --offset BYTES --rows R --cols C --entries E --field real|integer|pattern\n"
    "                        --symmetry general|symmetric|skew-symmetric|hermitian --output A.spb\n";

std::string one_of(const Args& a, const std::string& key, const std::string& def, const std::vector<std::string>& allowed) {
  std::string v = a.get(key, def);
  for (const std::string& x : allowed)
    if (x == v) return v;
  std::string list;
  for (const std::string& x : allowed) list += (list.empty() ? "" : "|") + x;
  throw BadInput("--" + key + " must be " + list + ", got '" + v + "'");
}

Common common_options(const Args& a, const std::vector<std::string>& known, int warmup, int samples, const std::vector<std::string>& precisions) {
  Common c;
  c.precision = one_of(a, "precision", "f32", precisions);
  c.methods = pick_methods(a.list("methods", "all"), known);
  const long long w = a.integer("warmup", warmup);
  if (w < 0 || w > 100000) throw BadInput("--warmup must be between 0 and 100000, got " + std::to_string(w));
  c.warmup = int(w);
  c.sampling = parse_sampling(a, samples);
  return c;
}

std::vector<Csr> read_input(const std::string& path) {
  try {
    return read_spb(path).mats;
  } catch (const std::runtime_error& e) {
    throw BadInput(e.what());
  }
}

const Csr& single_matrix(const std::vector<Csr>& mats, const std::string& path) {
  if (mats.size() != 1) throw BadInput(path + ": SpGEMM expects one matrix, the file holds " + std::to_string(mats.size()));
  return mats[0];
}

void emit_env(const char* exe) {
  Json()
      .str("type", "env").integer("protocol", 1).str("backend", "cpu").str("executable", exe)
      .raw("devices", "[]").integer("threads", threads())
#ifdef __VERSION__
      .str("compiler", std::string("g++ ") + __VERSION__)
#endif
      .emit();
}

// The fast Matrix Market path (mtx_parse.hpp): exit 0 with the .spb written, or kFallback.
int mtx2spb(const Args& a) {
  mtx::Job j;
  j.input = a.need("input");
  j.output = a.need("output");
  j.offset = uint64_t(a.integer("offset", 0));
  j.threads = std::max(1, omp_get_max_threads());
  j.rows = a.integer("rows", 0);
  j.cols = a.integer("cols", 0);
  j.entries = a.integer("entries", 0);
  const std::string field = one_of(a, "field", "real", {"real", "integer", "pattern"});
  const std::string sym = one_of(a, "symmetry", "general", {"general", "symmetric", "skew-symmetric", "hermitian"});
  j.pattern = field == "pattern";
  j.integer = field == "integer";
  j.mirror = sym == "general" ? 0 : sym == "skew-symmetric" ? -1 : 1;
  if (j.rows < 0 || j.cols < 0 || j.rows > 0x7fffffffLL || j.cols > 0x7fffffffLL) throw BadInput("--rows/--cols out of range");
  try {
    mtx::mtx_to_spb(j);
  } catch (const mtx::Fallback& e) {
    std::fprintf(stderr, "spbench-cpu: mtx2spb: %s (the TypeScript reader takes over)\n", e.what());
    return mtx::kFallback;
  }
  return 0;
}

// Parses and loads everything first (exit 2 on any problem), then prints env and runs.
int run(int argc, char** argv) {
  Args a(argc, argv);
  if (a.command() == "mtx2spb") return mtx2spb(a);
  if (a.command() == "spmm") {
    SpmmOptions o;
    const std::string input = a.need("input");
    o.common = common_options(a, spmm_methods(), 5, 20, {"f32", "f64", "f16", "bf16"});
    o.nbs = a.ints("nb", "16");
    if (o.nbs.empty()) throw BadInput("--nb needs at least one value");
    for (long long nb : o.nbs)
      if (nb < 1 || nb > (1 << 20)) throw BadInput("--nb values must be between 1 and 1048576, got " + std::to_string(nb));
    o.mode = one_of(a, "mode", "kernel", {"kernel", "e2e", "graph"});
    o.layout = one_of(a, "layout", "row", {"row", "col"});
    o.seed = uint64_t(a.integer("seed", 1));
    o.index_b = one_of(a, "b-fill", "random", {"random", "index"}) == "index";
    o.dump = a.has("dump-output");
    o.fault = a.has("inject-fault");
    const std::vector<Csr> batch = read_input(input);
    if (batch.empty()) throw BadInput(input + ": the batch holds no matrices");
    emit_env(argv[0]);
    run_spmm(batch, o);
  } else if (a.command() == "spgemm") {
    SpgemmOptions o;
    const std::string pa = a.need("a");
    o.common = common_options(a, spgemm_methods(), 2, 10, {"f32", "f64"});
    o.breakdown = a.has("breakdown");
    o.explain = a.has("explain");
    o.reference = parse_reference(a.get("reference", "cpu"), uint64_t(a.integer("verify-seed", 1)), a.get("reference-cache"));
    o.fault = a.has("inject-fault");
    o.dump = a.has("dump-output");
    const std::vector<Csr> fa = read_input(pa);
    const Csr& A = single_matrix(fa, pa);
    std::vector<Csr> fb;
    const bool same = !a.has("b");
    if (!same) fb = read_input(a.need("b"));
    const Csr& B = same ? A : single_matrix(fb, a.need("b"));
    if (A.cols != B.rows)
      throw BadInput("cannot multiply: A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + " but B has " +
                     std::to_string(B.rows) + " rows");
    emit_env(argv[0]);
    run_spgemm(A, B, same, o);
  } else {
    throw BadInput(a.command().empty() ? "missing command (spmm or spgemm)" : "unknown command '" + a.command() + "' (expected spmm or spgemm)");
  }
  emit_done();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::invalid_argument& e) {  // BadInput and Args errors
    std::fprintf(stderr, "spbench-cpu: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spbench-cpu: %s\n", e.what());
    return 3;
  }
}
