// Command-line parsing shared by the native executables: `--key value` and `--flag` pairs.
#pragma once
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace spb {

class Args {
 public:
  Args(int argc, char** argv) {
    if (argc >= 2) command_ = argv[1];
    for (int i = 2; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument '" + a + "'");
      std::string k = a.substr(2);
      if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) kv_[k] = argv[++i];
      else kv_[k] = "";
    }
  }
  const std::string& command() const { return command_; }
  bool has(const std::string& k) const { return kv_.count(k) != 0; }
  std::string get(const std::string& k, const std::string& def = "") const { auto it = kv_.find(k); return it == kv_.end() ? def : it->second; }
  std::string need(const std::string& k) const {
    if (!has(k) || kv_.at(k).empty()) throw std::invalid_argument("missing --" + k);
    return kv_.at(k);
  }
  long long integer(const std::string& k, long long def) const {
    if (!has(k)) return def;
    char* end = nullptr; const std::string& v = kv_.at(k);
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end) throw std::invalid_argument("--" + k + " expects an integer, got '" + v + "'");
    return x;
  }
  double real(const std::string& k, double def) const {
    if (!has(k)) return def;
    char* end = nullptr; const std::string& v = kv_.at(k);
    double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end) throw std::invalid_argument("--" + k + " expects a number, got '" + v + "'");
    return x;
  }
  std::vector<std::string> list(const std::string& k, const std::string& def = "") const {
    std::vector<std::string> out; std::string v = get(k, def), cur;
    for (char c : v) { if (c == ',') { if (!cur.empty()) out.push_back(cur); cur.clear(); } else cur += c; }
    if (!cur.empty()) out.push_back(cur);
    return out;
  }
  std::vector<long long> ints(const std::string& k, const std::string& def = "") const {
    std::vector<long long> out;
    for (const std::string& s : list(k, def)) {
      char* end = nullptr; long long x = std::strtoll(s.c_str(), &end, 10);
      if (*end) throw std::invalid_argument("--" + k + " expects integers, got '" + s + "'");
      out.push_back(x);
    }
    return out;
  }

 private:
  std::string command_;
  std::map<std::string, std::string> kv_;
};

}  // namespace spb
