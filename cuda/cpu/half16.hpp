// Portable f16 and bf16 for the CPU backend (plain C++17, no _Float16 / std::bfloat16_t needed): a value
// is its 16 bits; conversions from float round to nearest, ties to even (IEEE binary16 with subnormals;
// bfloat16 = the top half of a float), and to float are exact. Arithmetic happens in float
// (Acc<F16>::type, cuda/common/value_traits.hpp), as on the GPU. Conversions from double are correctly
// rounded too (as __double2half / __double2bfloat16): the double is rounded to float by rounding to odd,
// which keeps ties and near-ties apart for the second rounding (float has 13 more bits than f16).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include "../common/value_traits.hpp"

namespace spb::cpu {

inline uint32_t float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bits_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// v rounded to float toward zero, with the last bit set when inexact (round to odd).
inline float float_odd(double v) {
  float f = float(v);
  if (std::isnan(v) || double(f) == v) return f;
  if (std::fabs(double(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
  return bits_float(float_bits(f) | 1u);
}

inline uint16_t f16_bits(float f) {
  const uint32_t x = float_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return uint16_t(sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u));  // NaN, inf
  if (ax >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // >= 65520 rounds (to even) past 65504: inf
  if (ax < 0x38800000u) {  // below 2^-14: a multiple of 2^-24 (subnormal), rounded to nearest even
    return uint16_t(sign | uint32_t(std::nearbyint(bits_float(ax) * 16777216.0f)));
  }
  uint32_t h = ((((ax >> 23) - 112u) << 10) | ((ax >> 13) & 0x3FFu));  // rebias 127 -> 15
  const uint32_t rest = ax & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
  return uint16_t(sign | h);
}

inline float f16_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0) { const float v = std::ldexp(float(m), -24); return sign ? -v : v; }
  if (e == 31) return bits_float(sign | 0x7F800000u | (m << 13));
  return bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

inline uint16_t bf16_bits(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t((x >> 16) | 0x40u);  // NaN stays NaN (quiet)
  return uint16_t((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
inline float bf16_float(uint16_t b) { return bits_float(uint32_t(b) << 16); }

// A 16-bit value; Enc/Dec are the conversions above. Converts implicitly from double (rounding) and to float.
template <uint16_t (*Enc)(float), float (*Dec)(uint16_t)>
struct Value16 {
  uint16_t bits = 0;
  Value16() = default;
  Value16(double v) : bits(Enc(float_odd(v))) {}  // NOLINT: implicit, like float(v)
  operator float() const { return Dec(bits); }
};
using F16 = Value16<f16_bits, f16_float>;
using BF16 = Value16<bf16_bits, bf16_float>;

}  // namespace spb::cpu

namespace spb {
// The precisions of __half / __nv_bfloat16 (cuda/common/half_types.cuh), accumulated in float.
template <typename T, typename P>
struct AccFloat : P {
  using type = float;
  static float widen(T x) { return float(x); }
  static T narrow(float x) { return T(x); }
};
template <>
struct Acc<cpu::F16> : AccFloat<cpu::F16, PrecF16> {};
template <>
struct Acc<cpu::BF16> : AccFloat<cpu::BF16, PrecBF16> {};
}  // namespace spb
