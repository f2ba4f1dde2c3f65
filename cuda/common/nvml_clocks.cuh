// Clocks, temperature, power and clocks-event (throttle) reasons of the GPU at the start and end of
// each method, read through NVML loaded at run time with dlopen("libnvidia-ml.so.1") (no NVML header
// or link dependency; the few prototypes are declared here). Where NVML is absent or fails, the
// result's `clocks` says so: {"available": false, "reason": "..."}.
// A method is `throttled` when its SM clock at the end is below 90 % of the device's max SM clock, or
// a thermal or power reason (SW power cap, HW slowdown, SW/HW thermal, power brake) is set at either end.
#pragma once
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <string>
#include "json.hpp"

namespace spb {

class NvmlClocks {
 public:
  static constexpr double kThrottleFraction = 0.90;

  struct Reading {
    bool ok = false;
    unsigned sm_mhz = 0, mem_mhz = 0, temp_c = 0, power_mw = 0;
    unsigned long long reasons = 0;
  };

  // Loads NVML and finds the NVML device of CUDA device `cuda_dev` (by PCI bus id); never throws.
  explicit NvmlClocks(int cuda_dev) {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) { why_ = std::string("libnvidia-ml.so.1 could not be loaded (") + dlerror() + ")"; return; }
    auto sym = [&](const char* n) { return dlsym(lib_, n); };
    init_ = reinterpret_cast<Ret (*)()>(sym("nvmlInit_v2"));
    by_pci_ = reinterpret_cast<Ret (*)(const char*, Dev*)>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<Ret (*)(Dev, int, unsigned*)>(sym("nvmlDeviceGetClockInfo"));
    max_clock_ = reinterpret_cast<Ret (*)(Dev, int, unsigned*)>(sym("nvmlDeviceGetMaxClockInfo"));
    temp_ = reinterpret_cast<Ret (*)(Dev, int, unsigned*)>(sym("nvmlDeviceGetTemperature"));
    power_ = reinterpret_cast<Ret (*)(Dev, unsigned*)>(sym("nvmlDeviceGetPowerUsage"));
    reasons_ = reinterpret_cast<Ret (*)(Dev, unsigned long long*)>(sym("nvmlDeviceGetCurrentClocksEventReasons"));
    if (!reasons_) reasons_ = reinterpret_cast<Ret (*)(Dev, unsigned long long*)>(sym("nvmlDeviceGetCurrentClocksThrottleReasons"));
    if (!init_ || !by_pci_ || !clock_ || !max_clock_ || !temp_ || !power_ || !reasons_) { why_ = "libnvidia-ml.so.1 lacks a needed function"; return; }
    if (init_() != 0) { why_ = "nvmlInit_v2 failed"; return; }
    char bus[64] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_dev) != cudaSuccess) { cudaGetLastError(); why_ = "cudaDeviceGetPCIBusId failed"; return; }
    if (by_pci_(bus, &dev_) != 0) { why_ = std::string("NVML has no device at PCI bus id ") + bus; return; }
    if (max_clock_(dev_, kSm, &max_sm_) != 0) max_sm_ = 0;
    ok_ = true;
  }
  NvmlClocks(const NvmlClocks&) = delete;
  NvmlClocks& operator=(const NvmlClocks&) = delete;
  // NVML stays loaded until the process ends (nvmlShutdown is not needed for a short-lived driver).

  Reading read() const {
    Reading r;
    if (!ok_) return r;
    r.ok = clock_(dev_, kSm, &r.sm_mhz) == 0;
    if (clock_(dev_, kMem, &r.mem_mhz) != 0) r.mem_mhz = 0;
    if (temp_(dev_, 0, &r.temp_c) != 0) r.temp_c = 0;
    if (power_(dev_, &r.power_mw) != 0) r.power_mw = 0;
    if (reasons_(dev_, &r.reasons) != 0) r.reasons = 0;
    return r;
  }

  // The result line's `clocks` object for a method read at `start` and `end`.
  std::string json(const Reading& start, const Reading& end) const {
    if (!ok_) return Json().boolean("available", false).str("reason", why_).done();
    if (!start.ok || !end.ok) return Json().boolean("available", false).str("reason", "nvmlDeviceGetClockInfo failed").done();
    std::string why;
    const unsigned long long both = start.reasons | end.reasons;
    if (max_sm_ > 0 && double(end.sm_mhz) < kThrottleFraction * double(max_sm_))
      why = "SM clock at end " + std::to_string(end.sm_mhz) + " MHz < 90 % of max " + std::to_string(max_sm_) + " MHz";
    const std::string named = names(both & kThermalPower);
    if (!named.empty()) why += (why.empty() ? "" : "; ") + named;
    Json j;
    j.boolean("available", true).raw("start", reading(start)).raw("end", reading(end)).integer("max_sm_mhz", max_sm_)
        .num("threshold", kThrottleFraction).boolean("throttled", !why.empty());
    if (!why.empty()) j.str("throttle_why", why);
    return j.done();
  }

 private:
  using Ret = int;
  using Dev = void*;
  static constexpr int kSm = 1, kMem = 2;  // NVML_CLOCK_SM, NVML_CLOCK_MEM
  // nvmlClocksEventReason*: SwPowerCap 0x4, HwSlowdown 0x8, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80
  static constexpr unsigned long long kThermalPower = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

  static std::string names(unsigned long long r) {
    static const struct { unsigned long long bit; const char* name; } table[] = {
        {0x1, "gpu_idle"}, {0x2, "applications_clocks"}, {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"}, {0x10, "sync_boost"},
        {0x20, "sw_thermal"}, {0x40, "hw_thermal"}, {0x80, "hw_power_brake"}, {0x100, "display_clocks"}};
    std::string out;
    for (const auto& t : table) if (r & t.bit) out += (out.empty() ? "" : ",") + std::string(t.name);
    return out;
  }
  static std::string reading(const Reading& r) {
    return Json().integer("sm_mhz", r.sm_mhz).integer("mem_mhz", r.mem_mhz).integer("temp_c", r.temp_c).num("power_w", r.power_mw / 1000.0)
        .integer("reasons", (long long)r.reasons).str("reason_names", names(r.reasons)).done();
  }

  void* lib_ = nullptr;
  Ret (*init_)() = nullptr;
  Ret (*by_pci_)(const char*, Dev*) = nullptr;
  Ret (*clock_)(Dev, int, unsigned*) = nullptr;
  Ret (*max_clock_)(Dev, int, unsigned*) = nullptr;
  Ret (*temp_)(Dev, int, unsigned*) = nullptr;
  Ret (*power_)(Dev, unsigned*) = nullptr;
  Ret (*reasons_)(Dev, unsigned long long*) = nullptr;
  Dev dev_ = nullptr;
  unsigned max_sm_ = 0;
  bool ok_ = false;
  std::string why_;
};

}  // namespace spb
