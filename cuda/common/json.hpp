// Minimal JSON-lines writer for the native protocol (docs/native-protocol.md). One object per line on stdout.
#pragma once
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace spb {

inline std::string json_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
        else o += char(c);
    }
  }
  return o;
}

// Builds one JSON object; nested objects/arrays are added as raw JSON produced by another Json/helpers.
class Json {
 public:
  Json& str(const std::string& k, const std::string& v) { key(k); os_ << '"' << json_escape(v) << '"'; return *this; }
  Json& num(const std::string& k, double v) { key(k); number(v); return *this; }
  Json& integer(const std::string& k, long long v) { key(k); os_ << v; return *this; }
  Json& boolean(const std::string& k, bool v) { key(k); os_ << (v ? "true" : "false"); return *this; }
  Json& null(const std::string& k) { key(k); os_ << "null"; return *this; }
  Json& raw(const std::string& k, const std::string& json) { key(k); os_ << json; return *this; }
  Json& nums(const std::string& k, const std::vector<double>& v) {
    key(k); os_ << '[';
    for (size_t i = 0; i < v.size(); ++i) { if (i) os_ << ','; number(v[i]); }
    os_ << ']'; return *this;
  }
  std::string done() const { return "{" + os_.str() + "}"; }
  // Writes the object as one line on stdout and flushes, so the parent sees progress as it happens.
  void emit() const { std::string s = done(); std::fwrite(s.data(), 1, s.size(), stdout); std::fputc('\n', stdout); std::fflush(stdout); }

 private:
  void key(const std::string& k) { if (!first_) os_ << ','; first_ = false; os_ << '"' << json_escape(k) << "\":"; }
  void number(double v) {
    if (!std::isfinite(v)) { os_ << "null"; return; }  // JSON has no NaN/Inf; the schema rejects null where a number is required
    char b[32]; std::snprintf(b, sizeof b, "%.17g", v); os_ << b;
  }
  std::ostringstream os_;
  bool first_ = true;
};

inline void emit_log(const std::string& level, const std::string& msg) { Json().str("type", "log").str("level", level).str("message", msg).emit(); }
inline void emit_progress(long long done, long long total, const std::string& label) {
  Json().str("type", "progress").integer("done", done).integer("total", total).str("label", label).emit();
}
inline void emit_done() { Json().str("type", "done").emit(); }

}  // namespace spb
