// What every GPU driver (spmm, spgemm, both plugin runners) does around a method's timed samples:
// the sampling rule (sampling.hpp, --samples N|auto ...), the L2 flush of --cache cold (l2flush.cuh)
// before every sample outside the timed region, and the NVML clocks at the start and end of the
// method (nvml_clocks.cuh); then the result line's `cache`, `sampling` and `clocks` fields.
#pragma once
#include <cuda_profiler_api.h>
#include <memory>
#include <string>
#include "l2flush.cuh"
#include "nvml_clocks.cuh"
#include "sampling.hpp"

namespace spb {

class Measurer {
 public:
  SamplingSpec spec;
  // --profile-region: the samples run between cudaProfilerStart/Stop, for `ncu --profile-from-start off`
  // (spbench --profile / --metrics run one method with one sample so): only the timed call is profiled,
  // and SpMM takes one call a sample as with --cache cold.
  bool profile_region = false;

  Measurer(const Args& a, int default_samples) : spec(parse_sampling(a, default_samples)), profile_region(a.has("profile-region")) {}
  // One call a sample: cold samples (only the first call would find the L2 flushed) and profiled ones.
  bool one_call_per_sample() const { return spec.cold || profile_region; }
  // After cudaSetDevice: NVML for that device, and the cold-cache buffer allocated up front (outside
  // every method's allocations and peak memory).
  void init(int cuda_dev) {
    nvml_ = std::make_unique<NvmlClocks>(cuda_dev);
    if (spec.cold) flusher_.ensure();
  }
  NvmlClocks::Reading clocks() const { return nvml_ ? nvml_->read() : NvmlClocks::Reading{}; }

  // Samples with before() (poisoning) and then the flush (cold), both outside sample()'s timed region.
  template <typename Before, typename Sample>
  SamplingOutcome sample(cudaStream_t s, Before&& before, Sample&& one) {
    if (profile_region) CUDA_CHECK(cudaProfilerStart());
    SamplingOutcome o = collect_samples(spec, [&] { before(); if (spec.cold) flusher_.flush(s); }, one);
    if (profile_region) CUDA_CHECK(cudaProfilerStop());
    return o;
  }

  // cache, sampling (when samples were taken) and clocks, added to a result line.
  void add_fields(Json& r, const NvmlClocks::Reading& start, const NvmlClocks::Reading& end, const SamplingOutcome* o) const {
    r.str("cache", spec.cold ? "cold" : "hot");
    if (!o || o->samples.empty()) return;  // no samples: no sampling rule, no clocks of a measurement
    r.raw("sampling", sampling_json(spec, *o));
    if (nvml_) r.raw("clocks", nvml_->json(start, end));
  }

 private:
  L2Flusher flusher_;
  std::unique_ptr<NvmlClocks> nvml_;
};

}  // namespace spb
