// Value types of the SpMM methods: the storage type T of A, B and C, the type a kernel accumulates in
// (Acc<T>::type: T itself for float and double, float for the 16-bit types), the conversions between
// them, and per precision its name and verification tolerance. One trait, so that every kernel is one
// template for f64, f32, f16 and bf16 alike (docs/spmm-notes.md "f16/bf16").
// Plain C++17: the 16-bit specializations are where their types are, cuda/common/half_types.cuh
// (__half, __nv_bfloat16) and cuda/cpu/half16.hpp (the CPU backend's portable f16/bf16).
#pragma once
#include <limits>
#ifdef __CUDACC__
#define SPB_HD __host__ __device__ __forceinline__
#else
#define SPB_HD inline
#endif

namespace spb {

// What a precision is, whatever C++ type holds it: name (the --precision value); tol, the bound on the
// normalized error |c - ref| / max(sum|a*b|, floor) (reference.hpp max_norm_err); floor, the smallest
// normalizer (below it an output's rounding error is absolute, not relative: f16's subnormals).
//
// 16-bit tolerances: the reference is computed in float64 from the values already rounded to 16 bits,
// so what is measured is the f32 accumulation (<= n * 2^-24 of sum|a*b| for n terms) and the rounding
// of C to 16 bits (<= 2^-11 of |c| for f16, 2^-8 for bf16, and |c| <= sum|a*b|): the tolerance is about
// twice the output rounding, f16 1e-3 and bf16 8e-3 (room for n up to ~8000 terms). f16's normalizer is
// at least 2^-14, its smallest normal: an output in the subnormal range is stored with an absolute error
// of up to 2^-25, which 2^-14 turns into 2^-11. bf16 has float's exponent range: no floor needed.
struct PrecF32 {
  static constexpr const char* name = "f32";
  static constexpr double tol = 1e-4;
  static constexpr double floor = std::numeric_limits<double>::min();
};
struct PrecF64 {
  static constexpr const char* name = "f64";
  static constexpr double tol = 1e-12;
  static constexpr double floor = std::numeric_limits<double>::min();
};
struct PrecF16 {
  static constexpr const char* name = "f16";
  static constexpr double tol = 1e-3;
  static constexpr double floor = 0x1p-14;
};
struct PrecBF16 {
  static constexpr const char* name = "bf16";
  static constexpr double tol = 8e-3;
  static constexpr double floor = std::numeric_limits<double>::min();
};

// Acc<T>: the precision of T (above), its accumulation type and the conversions.
template <typename T>
struct Acc;

// float and double accumulate in themselves.
template <typename T, typename P>
struct AccSelf : P {
  using type = T;
  static SPB_HD T widen(T x) { return x; }
  static SPB_HD T narrow(T x) { return x; }
};
template <>
struct Acc<float> : AccSelf<float, PrecF32> {};
template <>
struct Acc<double> : AccSelf<double, PrecF64> {};

template <typename T>
using acc_t = typename Acc<T>::type;

// T -> the accumulation type (exact), and back (rounded to nearest even).
template <typename T>
SPB_HD acc_t<T> widen(T x) { return Acc<T>::widen(x); }
template <typename T>
SPB_HD T narrow(acc_t<T> x) { return Acc<T>::narrow(x); }

}  // namespace spb
