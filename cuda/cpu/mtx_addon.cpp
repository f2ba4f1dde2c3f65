// The in-process fast path of the Matrix Market reader: a Node-API addon (built by g++ like
// spbench-cpu, src/native/targets.ts 'mtx-addon'; loaded by src/matrix/mtx-native.ts) around the
// parser that `spbench-cpu mtx2spb` uses (mtx_parse.hpp). It parses the entry lines on a libuv
// worker thread and its helpers straight into anonymous memory that becomes the returned typed
// arrays (external ArrayBuffers, unmapped by their finalizers): no child process, no .spb, no copy.
//
//   parse(path, offset, rows, cols, entries, field, mirror, threads, output)
//     field: 0 real, 1 integer, 2 pattern; mirror: 0 general, 1 symmetric/hermitian, -1 skew
//   → Promise of { rowPtr: Int32Array, colIdx: Int32Array, values: Float64Array } (canonical CSR);
//     with an output path (not ''), the .spb is written there instead (as mtx2spb writes it: a
//     temporary sibling renamed over it) and the promise gives true;
//     or a string saying why not (anything unusual: the TypeScript reader then parses the file
//     and reports the line; nothing is written).
#define NAPI_VERSION 8
#include <node_api.h>

#include <cstdint>
#include <string>

#include "mtx_parse.hpp"

namespace {

using namespace spb::mtx;

// Anonymous memory for one array; `mapped` (> 0 even for an empty array) is what munmap takes.
struct Region {
  void* p = nullptr;
  size_t bytes = 0, mapped = 0;
  void map(size_t n) {
    mapped = std::max<size_t>(n, 1);
    void* m = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw Fallback("out of memory");
    p = m;
    bytes = n;
  }
  void release() {
    if (p) ::munmap(p, mapped);
    p = nullptr;
  }
};

struct Task {
  Job job;
  napi_deferred deferred = nullptr;
  napi_async_work work = nullptr;
  std::string why;  // not parsed here: why
  Region rp, col, val;
  int64_t nnz = 0;
  ~Task() {
    rp.release();
    col.release();
    val.release();
  }
};

// On a libuv worker thread (no JavaScript here).
void execute(napi_env, void* data) {
  Task& t = *static_cast<Task*>(data);
  try {
    if (!t.job.output.empty()) return mtx_to_spb(t.job);
    Phases ph;
    Mapped file(t.job.input);
    const auto [begin, stop] = entry_lines(t.job, file);
    Parsed in = parse_entries(t.job, begin, stop);
    ph.mark("parse");
    if (in.nnz > 0x7fffffffLL) throw Fallback("more entries than int32 indices hold");
    t.rp.map(size_t(t.job.rows + 1) * 4);
    t.col.map(size_t(in.nnz) * 4);
    t.val.map(size_t(in.nnz) * 8);
    double* val = static_cast<double*>(t.val.p);
    t.nnz = assemble<int32_t>(t.job, in, static_cast<int32_t*>(t.rp.p), static_cast<int32_t*>(t.col.p), val,
                              [val](int64_t) { return val; })
                .first;
    ph.mark("assemble");
  } catch (const std::exception& e) {
    t.why = e.what();
  } catch (...) {
    t.why = "failed";
  }
}

void unmap(napi_env, void* data, void* hint) { ::munmap(data, reinterpret_cast<size_t>(hint)); }

// An external ArrayBuffer over the region (which it then owns) and a typed array of n elements on it.
bool typed_array(napi_env env, Region& r, napi_typedarray_type type, size_t n, napi_value* out) {
  napi_value ab;
  if (napi_create_external_arraybuffer(env, r.p, r.bytes, unmap, reinterpret_cast<void*>(r.mapped), &ab) != napi_ok) return false;
  r.p = nullptr;  // the ArrayBuffer's now
  return napi_create_typedarray(env, type, n, ab, 0, out) == napi_ok;
}

// On the main thread: the arrays, or the reason.
void complete(napi_env env, napi_status status, void* data) {
  Task* t = static_cast<Task*>(data);
  napi_value result = nullptr, rp, col, val;
  if (status == napi_ok && t->why.empty() && !t->job.output.empty()) {
    napi_get_boolean(env, true, &result);
  } else if (status == napi_ok && t->why.empty()) {
    const size_t n = size_t(t->nnz);
    if (typed_array(env, t->rp, napi_int32_array, size_t(t->job.rows + 1), &rp) && typed_array(env, t->col, napi_int32_array, n, &col) &&
        typed_array(env, t->val, napi_float64_array, n, &val) && napi_create_object(env, &result) == napi_ok) {
      napi_set_named_property(env, result, "rowPtr", rp);
      napi_set_named_property(env, result, "colIdx", col);
      napi_set_named_property(env, result, "values", val);
    } else {
      result = nullptr;
      t->why = "cannot create the arrays";
    }
  } else if (t->why.empty()) {
    t->why = "cancelled";
  }
  if (!result) napi_create_string_utf8(env, t->why.c_str(), t->why.size(), &result);
  napi_resolve_deferred(env, t->deferred, result);
  napi_delete_async_work(env, t->work);
  delete t;
}

napi_value throw_error(napi_env env, const char* what) {
  napi_throw_type_error(env, nullptr, what);
  return nullptr;
}

bool get_string(napi_env env, napi_value v, std::string& out) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &len) != napi_ok) return false;
  std::vector<char> buf(len + 1);
  if (napi_get_value_string_utf8(env, v, buf.data(), len + 1, &len) != napi_ok) return false;
  out.assign(buf.data(), len);
  return true;
}

napi_value parse(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc != 9) return throw_error(env, "parse: 9 arguments");
  Task* t = new Task();
  double num[7];
  bool ok = get_string(env, argv[0], t->job.input) && get_string(env, argv[8], t->job.output);
  for (int k = 0; k < 7 && ok; ++k) ok = napi_get_value_double(env, argv[k + 1], &num[k]) == napi_ok;
  if (!ok || !(num[0] >= 0) || !(num[1] >= 0 && num[1] <= 0x7fffffff) || !(num[2] >= 0 && num[2] <= 0x7fffffff) || !(num[3] >= 0)) {
    delete t;
    return throw_error(env, "parse: bad arguments");
  }
  t->job.offset = uint64_t(num[0]);
  t->job.rows = int64_t(num[1]);
  t->job.cols = int64_t(num[2]);
  t->job.entries = int64_t(num[3]);
  t->job.integer = num[4] == 1;
  t->job.pattern = num[4] == 2;
  t->job.mirror = num[5] > 0 ? 1 : num[5] < 0 ? -1 : 0;
  t->job.threads = std::max(1, std::min(256, int(num[6])));
  napi_value promise, name;
  if (napi_create_promise(env, &t->deferred, &promise) != napi_ok || napi_create_string_utf8(env, "spbench-mtx-parse", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, nullptr, name, execute, complete, t, &t->work) != napi_ok) {
    delete t;
    return throw_error(env, "parse: cannot start");
  }
  if (napi_queue_async_work(env, t->work) != napi_ok) {
    napi_delete_async_work(env, t->work);
    delete t;
    return throw_error(env, "parse: cannot start");
  }
  return promise;
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "parse", NAPI_AUTO_LENGTH, parse, nullptr, &fn) != napi_ok) return nullptr;
  if (napi_set_named_property(env, exports, "parse", fn) != napi_ok) return nullptr;
  return exports;
}
