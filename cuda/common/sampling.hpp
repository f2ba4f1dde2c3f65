// The one sampling loop of every native driver (GPU drivers, plugin runners, CPU backend): a fixed
// number of samples (--samples N) or noise-driven stopping (--samples auto), and the `sampling` object
// of a result line (docs/native-protocol.md). Host code only; the L2 flush of --cache cold is in
// l2flush.cuh, the caller passes it in `before` (outside the timed region).
//
// --samples auto keeps sampling until the relative standard error of the median is at most
// --max-noise percent, estimated as sqrt(pi/2) * sd / sqrt(n) / median (the large-sample standard
// error of the median of a normal sample), sd estimated as 1.4826 * MAD (robust to outliers), once at least
// --min-samples samples and --min-time seconds of timed samples are in; --timeout seconds of wall
// time (the loop's, flushes and poisoning included) stop it whatever the noise, and so does a hard
// cap of 100000 samples. The result says which rule stopped it: samples | noise | timeout | max-samples.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>
#include "args.hpp"
#include "json.hpp"

namespace spb {

struct SamplingSpec {
  bool autostop = false;     // --samples auto
  int samples = 20;          // --samples N (fixed count)
  double max_noise_pct = 0.5;
  int min_samples = 10;
  double min_time_s = 0.05;
  double timeout_s = 10;
  int max_samples = 100000;
  bool cold = false;         // --cache cold: the caller flushes the L2 before every sample
};

// Parses --samples N|auto, --max-noise P, --min-samples N, --min-time S, --timeout S, --cache hot|cold.
inline SamplingSpec parse_sampling(const Args& a, int default_samples) {
  SamplingSpec s;
  const std::string v = a.get("samples", std::to_string(default_samples));
  if (v == "auto") s.autostop = true;
  else {
    s.samples = int(a.integer("samples", default_samples));
    if (s.samples < 1 || s.samples > 100000) throw std::invalid_argument("--samples must be auto or between 1 and 100000, got " + v);
  }
  s.max_noise_pct = a.real("max-noise", 0.5);
  if (!(s.max_noise_pct > 0 && s.max_noise_pct <= 100)) throw std::invalid_argument("--max-noise must be a percentage in (0, 100], got " + a.get("max-noise"));
  s.min_samples = int(a.integer("min-samples", 10));
  if (s.min_samples < 1 || s.min_samples > 100000) throw std::invalid_argument("--min-samples must be between 1 and 100000, got " + a.get("min-samples"));
  s.min_time_s = a.real("min-time", 0.05);
  if (!(s.min_time_s >= 0 && s.min_time_s <= 3600)) throw std::invalid_argument("--min-time must be between 0 and 3600 seconds, got " + a.get("min-time"));
  s.timeout_s = a.real("timeout", 10);
  if (!(s.timeout_s > 0 && s.timeout_s <= 86400)) throw std::invalid_argument("--timeout must be between 0 and 86400 seconds (exclusive of 0), got " + a.get("timeout"));
  const std::string c = a.get("cache", "hot");
  if (c != "hot" && c != "cold") throw std::invalid_argument("--cache must be hot or cold, got '" + c + "'");
  s.cold = c == "cold";
  return s;
}

// Relative standard error of the median: sqrt(pi/2) * sd / sqrt(n) / median, with sd estimated
// robustly as 1.4826 * MAD (median absolute deviation; equals sd for normal samples), so that a few
// outliers (a preempted sample) do not keep the loop going; infinite below 2 samples.
inline double median_of(std::vector<double>& y) {
  const size_t n = y.size(), h = n / 2;
  std::nth_element(y.begin(), y.begin() + long(h), y.end());
  double med = y[h];
  if (n % 2 == 0) med = 0.5 * (med + *std::max_element(y.begin(), y.begin() + long(h)));
  return med;
}
inline double median_rel_stderr(const std::vector<double>& x) {
  const size_t n = x.size();
  if (n < 2) return INFINITY;
  std::vector<double> y = x;
  const double med = median_of(y);
  if (!(med > 0)) return INFINITY;
  for (size_t i = 0; i < n; ++i) y[i] = std::fabs(x[i] - med);
  const double sd = 1.4826 * median_of(y);
  return std::sqrt(M_PI / 2) * sd / std::sqrt(double(n)) / med;
}

struct SamplingOutcome {
  std::vector<double> samples;
  std::string rule;  // samples | noise | timeout | max-samples
  double noise = INFINITY;  // relative standard error of the median (fraction) at the end
  double wall_s = 0;
};

// Takes samples: before() outside the timed region (poison, L2 flush), then sample() returns one
// sample in ms. Fixed count, or --samples auto's rules (see the top of this file).
template <typename Before, typename Sample>
SamplingOutcome collect_samples(const SamplingSpec& spec, Before&& before, Sample&& sample) {
  SamplingOutcome out;
  const auto t0 = std::chrono::steady_clock::now();
  auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  double sum_ms = 0;
  size_t next_check = 1;
  for (;;) {
    before();
    const double ms = sample();
    out.samples.push_back(ms);
    sum_ms += ms;
    const size_t n = out.samples.size();
    if (!spec.autostop) {
      if (n >= size_t(spec.samples)) { out.rule = "samples"; break; }
      continue;
    }
    if (n >= size_t(spec.max_samples)) { out.rule = "max-samples"; break; }
    if (wall() >= spec.timeout_s) { out.rule = "timeout"; break; }
    if (n < size_t(spec.min_samples) || sum_ms < spec.min_time_s * 1e3 || n < next_check) continue;
    // the median's error is checked every sample up to 64, then every n/16 (sorting stays cheap)
    next_check = n < 64 ? n + 1 : n + n / 16;
    if (median_rel_stderr(out.samples) * 100 <= spec.max_noise_pct) { out.rule = "noise"; break; }
  }
  out.noise = median_rel_stderr(out.samples);
  out.wall_s = wall();
  return out;
}

// --warmup N: at most N untimed calls, and none past the first once kWarmupBudgetS seconds of them have gone by (a
// method of a second a call would otherwise warm up for N seconds; a call or two is warm enough there). Returns how
// many ran. Asynchronous launches count only their enqueue time, so the budget binds only on calls that wait.
constexpr double kWarmupBudgetS = 1.0;
template <typename Call>
int run_warmups(int n, Call&& call) {
  const auto t0 = std::chrono::steady_clock::now();
  int done = 0;
  while (done < n) {
    call();
    ++done;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= kWarmupBudgetS) break;
  }
  return done;
}

// The result line's `sampling` object.
inline std::string sampling_json(const SamplingSpec& spec, const SamplingOutcome& o) {
  Json j;
  j.str("samples", spec.autostop ? "auto" : std::to_string(spec.samples)).str("rule", o.rule).integer("n", (long long)o.samples.size());
  if (std::isfinite(o.noise)) j.num("noise_pct", o.noise * 100); else j.null("noise_pct");
  j.str("noise_estimator", "sqrt(pi/2)*1.4826*MAD/sqrt(n)/median").num("wall_s", o.wall_s);
  if (spec.autostop) j.num("max_noise_pct", spec.max_noise_pct).integer("min_samples", spec.min_samples).num("min_time_s", spec.min_time_s).num("timeout_s", spec.timeout_s);
  return j.done();
}

}  // namespace spb
