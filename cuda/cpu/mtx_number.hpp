// Number tokens of the native Matrix Market reader (mtx_parse.hpp): row/column indices and values,
// eight digits at a time (SWAR: one 64-bit load, a mask for where the digits end, three
// multiplications for their value), and decimal-to-double conversion that is exact or gives up:
// Clinger's fast path (w * 10^q with w <= 2^53 and |q| <= 22: one correctly rounded operation on
// exact doubles), then Eisel-Lemire (w * 10^q from the top 64 bits of 5^q, giving up wherever the
// truncated product cannot decide the rounding: a possible carry, a subnormal or overflowing
// result, |q| > 100). A token given up on goes to std::from_chars, so every value is the correctly
// rounded double of its decimal text, the same as JavaScript's Number().
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace spb::mtx {

inline bool blank(char c) { return c == ' ' || c == '\t'; }

inline uint64_t load8(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);  // little-endian: the first character is the low byte
  return x;
}

// How many of the 8 characters in raw are leading digits (0-8); x gets their digit values.
inline int digit_run(uint64_t raw, uint64_t& x) {
  x = raw - 0x3030303030303030ULL;
  // a byte is not a digit when it wrapped below '0' (high bit set) or is above 9 (+0x76 sets the
  // high bit); borrows and carries only move upwards, past the first non-digit, where nothing counts
  const uint64_t nd = (x | (x + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
  return nd ? __builtin_ctzll(nd) >> 3 : 8;
}

// The value of the n (1-8) leading digits of x (digit values, first digit in the low byte).
inline uint64_t digits_value(uint64_t x, int n) {
  x <<= 8 * (8 - n);  // as an 8-digit number with leading zeros (the bytes past the digits drop out)
  x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;       // pairs of digits
  x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;     // fours
  return (x * 10000 + (x >> 32)) & 0xFFFFFFFFULL;        // eight
}

constexpr uint64_t kPow10u[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A row or column index at q: 1 to 12 digits, not followed by a digit. `hard_end`: no byte at or
// past it may be read.
inline bool scan_index(const char*& q, const char* hard_end, int64_t& out) {
  if (q + 16 <= hard_end) {
    uint64_t x;
    int n = digit_run(load8(q), x);
    if (n == 0) return false;
    uint64_t v = digits_value(x, n);
    if (n == 8) {
      uint64_t y;
      const int m = digit_run(load8(q + 8), y);
      if (m > 4) return false;  // more than 12 digits
      if (m > 0) v = v * kPow10u[m] + digits_value(y, m);
      n += m;
    }
    q += n;
    out = int64_t(v);
    return true;
  }
  const char* s = q;
  int64_t x = 0;
  while (q < hard_end && unsigned(*q - '0') <= 9u && q - s < 12) x = x * 10 + (*q++ - '0');
  out = x;
  return q > s && q < hard_end && unsigned(*q - '0') > 9u;
}

// Eisel-Lemire: the top 64 bits of 5^q normalised, 5^q ~ hi * 2^(64 - s), for |q| <= kQ.
constexpr int kQ = 100;
struct Pow5 {
  uint64_t hi;
  int s;
};

namespace detail {
using Big = std::vector<uint32_t>;  // little-endian 32-bit words
inline void mul_small(Big& a, uint32_t m) {
  uint64_t carry = 0;
  for (uint32_t& w : a) {
    const uint64_t t = uint64_t(w) * m + carry;
    w = uint32_t(t);
    carry = t >> 32;
  }
  if (carry) a.push_back(uint32_t(carry));
}
inline int bit_length(const Big& a) { return int(a.size() - 1) * 32 + (32 - __builtin_clz(a.back())); }
inline bool bit(const Big& a, int i) { return i >= 0 && size_t(i / 32) < a.size() && ((a[size_t(i / 32)] >> (i % 32)) & 1); }
inline bool geq(const Big& a, const Big& b) {  // a >= b, equal sizes
  for (size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] > b[i];
  return true;
}
inline void sub(Big& a, const Big& b) {  // a -= b, a >= b, equal sizes
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const int64_t t = int64_t(a[i]) - int64_t(b[i]) - borrow;
    borrow = t < 0;
    a[i] = uint32_t(t + (borrow << 32));
  }
}
inline void shl1(Big& a) {
  uint32_t carry = 0;
  for (uint32_t& w : a) {
    const uint32_t next = w >> 31;
    w = (w << 1) | carry;
    carry = next;
  }
}
inline std::vector<Pow5> make_pow5() {
  std::vector<Pow5> t(2 * kQ + 1);
  Big p{1};
  for (int n = 0; n <= kQ; ++n, mul_small(p, 5)) {
    const int L = bit_length(p);
    // q = n: the top 64 bits of 5^n (exact for n <= 27), s = 128 - L
    uint64_t hi = 0;
    for (int i = 0; i < 64; ++i) hi = (hi << 1) | uint64_t(bit(p, L - 1 - i));
    t[size_t(kQ + n)] = {hi, 128 - L};
    if (n == 0) continue;
    // q = -n: floor(2^(63 + L) / 5^n), s = 127 + L, by long division one bit at a time
    Big r(p.size() + 1, 0), d = p;
    d.push_back(0);
    uint64_t quo = 0;
    for (int i = 63 + L; i >= 0; --i) {
      shl1(r);
      if (i == 63 + L) r[0] |= 1;
      const bool ge = geq(r, d);
      if (ge) sub(r, d);
      if (i < 64) quo = (quo << 1) | uint64_t(ge);
    }
    t[size_t(kQ - n)] = {quo, 127 + L};
  }
  return t;
}
}  // namespace detail

inline const Pow5* pow5() {
  static const std::vector<Pow5> table = detail::make_pow5();  // (thread-safe initialisation)
  return table.data() + kQ;
}

// w * 10^q (w > 0) correctly rounded into out, or false where it cannot tell.
inline bool eisel_lemire(uint64_t w, int64_t q, double& out) {
  if (q < -kQ || q > kQ) return false;
  const Pow5 t = pow5()[q];
  const int lz = __builtin_clzll(w);
  const uint64_t wn = w << lz;
  const unsigned __int128 prod = static_cast<unsigned __int128>(wn) * t.hi;
  const uint64_t hi = uint64_t(prod >> 64), lo = uint64_t(prod);
  const int sh = int(hi >> 63) + 9;  // bits of hi below the 54 kept (53 and a rounding bit)
  const uint64_t mask = (uint64_t(1) << sh) - 1;
  // the true product lies in [prod, prod + wn) (t.hi is truncated) unless 5^q fits t.hi exactly
  const bool exact = q >= 0 && q <= 27;
  if (!exact && (hi & mask) == mask && lo + wn < lo) return false;  // a carry could reach the kept bits
  const uint64_t m = hi >> sh;
  uint64_t r;
  if (exact && (m & 1) && (hi & mask) == 0 && lo == 0) r = (m >> 1) + ((m >> 1) & 1);  // a tie: to even
  else r = (m + 1) >> 1;
  int64_t e = sh + 1 + 128 - t.s - lz + q;  // value = r * 2^e
  if (r == uint64_t(1) << 53) {
    r >>= 1;
    ++e;
  }
  const int64_t biased = e + 52 + 1023;
  if (biased < 1 || biased > 2046) return false;  // subnormal or overflow: from_chars decides
  const uint64_t bits = (uint64_t(biased) << 52) | (r & ((uint64_t(1) << 52) - 1));
  std::memcpy(&out, &bits, 8);
  return true;
}

// A value token at q: optional sign, digits, optional '.' and digits (at least one digit in all,
// at most 19 significant ones), optional exponent (e or E, optional sign, 1-4 digits), followed
// by a blank or the line's end. Returns false, consuming nothing, for anything else and where the
// conversion cannot tell (the caller then uses std::from_chars). `dotted`: a '.' or an exponent.
inline bool scan_value(const char*& q, const char* hard_end, double& out, bool& dotted) {
  const char* p = q;
  const bool neg = *p == '-';
  if (neg || *p == '+') ++p;
  uint64_t w = 0;
  int sig = 0;      // significant digits in w (from the first nonzero digit)
  int digits = 0;   // all mantissa digits
  int64_t frac = 0;  // digits after the '.'
  auto run = [&]() -> int {  // a run of digits into w; its length, or -1 when w would overflow
    int len = 0;
    for (;;) {
      if (p + 8 > hard_end) return -1;
      uint64_t x;
      const int n = digit_run(load8(p), x);
      if (n == 0) break;
      const uint64_t v = digits_value(x, n);
      if (sig == 0) {
        // leading zeros are not significant: count the digits from the first nonzero one
        if (v != 0) {
          const uint64_t nz = (x + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL;  // bytes 1-9 (first n)
          sig = n - (__builtin_ctzll(nz) >> 3);
        }
      } else {
        sig += n;
      }
      if (sig > 19) return -1;
      w = w * kPow10u[n] + v;
      p += n;
      len += n;
      if (n < 8) break;
    }
    return len;
  };
  const int whole = run();
  if (whole < 0) return false;
  digits = whole;
  dotted = false;
  if (*p == '.') {
    dotted = true;
    ++p;
    const int f = run();
    if (f < 0) return false;
    frac = f;
    digits += f;
  }
  if (digits == 0) return false;
  int64_t e = 0;
  if (*p == 'e' || *p == 'E') {
    dotted = true;
    ++p;
    const bool eneg = *p == '-';
    if (eneg || *p == '+') ++p;
    const char* es = p;
    while (unsigned(*p - '0') <= 9u && p - es < 4) e = e * 10 + (*p++ - '0');
    if (p == es || unsigned(*p - '0') <= 9u) return false;
    if (eneg) e = -e;
  }
  if (!(blank(*p) || *p == '\r' || *p == '\n')) return false;
  const int64_t x = e - frac;
  double v;
  if (w == 0) {
    v = 0;
  } else if (w <= (uint64_t(1) << 53) && x >= -22 && x <= 22) {
    v = double(w);  // exact
    if (x >= 0) v *= kPow10[x];
    else v /= kPow10[-x];
  } else if (!eisel_lemire(w, x, v)) {
    return false;
  }
  out = neg ? -v : v;
  q = p;
  return true;
}

}  // namespace spb::mtx
