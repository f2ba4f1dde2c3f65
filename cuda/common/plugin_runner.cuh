// What the two plugin runners (cuda/drivers/plugin_spmm.cu, plugin_spgemm.cu) share: the plugin's
// Result as an exception, the counting allocator handed to the plugin (spbench::Allocator over the
// TrackingAllocator, so peak memory is measured like ours), the test for a CUDA error that loses the
// context, and the `manifest` command.
#pragma once
#include <exception>
#include <string>
#include <spbench_plugin.h>
#include "json.hpp"
#include "tracking_alloc.cuh"

namespace spb::plugin {

// A CUDA error that leaves the context unusable (illegal address, trap, ...): nothing after it can run.
inline bool sticky(cudaError_t e) {
  return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorIllegalInstruction || e == cudaErrorMisalignedAddress ||
         e == cudaErrorAssert || e == cudaErrorHardwareStackError || e == cudaErrorInvalidAddressSpace || e == cudaErrorInvalidPc ||
         e == cudaErrorLaunchTimeout;
}

// Thrown when a plugin call returns not applicable / error; `message` is what the result line's reason says.
struct PluginStatus {
  spbench::Status status;
  std::string message;
};

inline void check_result(const spbench::Result& r, const char* what) {
  if (r.status == spbench::Status::Ok) return;
  std::string m = r.message[0] ? r.message : "(no message)";
  throw PluginStatus{r.status, r.status == spbench::Status::NotApplicable ? m : std::string(what) + ": " + m};
}

// The plugin's allocator: every block through the TrackingAllocator; a failed allocation returns nullptr
// (as the interface promises) and is remembered, so the runner reports it even if the plugin does not.
struct Counting {
  TrackingAllocator* al;
  std::string last_error;

  static void* alloc_fn(void* ctx, size_t bytes) {
    Counting* c = static_cast<Counting*>(ctx);
    try { return c->al->raw(bytes); } catch (const std::exception& e) { c->last_error = e.what(); return nullptr; }
  }
  static void free_fn(void* ctx, void* p) { static_cast<Counting*>(ctx)->al->free(p); }
  spbench::Allocator allocator() { return spbench::Allocator{this, alloc_fn, free_fn}; }
};

// The plugin was compiled against the header this runner was: returns an error sentence, or "".
inline std::string api_mismatch() {
  if (spbench_plugin_api_version() == SPBENCH_PLUGIN_API_VERSION) return "";
  return "the plugin was built against plugin API " + std::to_string(spbench_plugin_api_version()) + ", this runner is " + std::to_string(SPBENCH_PLUGIN_API_VERSION);
}

// `manifest`: an env line without devices, the manifest as a log line, done.
inline void emit_manifest(const char* exe) {
  Json().str("type", "env").integer("protocol", 1).str("backend", "cuda").str("executable", exe).raw("devices", "[]").emit();
  emit_log("info", spbench_plugin_manifest());
  emit_done();
}

}  // namespace spb::plugin
