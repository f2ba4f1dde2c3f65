// Canonical CSR from per-row column lists, for the generators of tests and development tools: each row's columns are
// sorted and made distinct here, and value() is drawn once per entry in row order (so a seeded generator gives the
// same matrix whatever the caller). Consumes the lists (each row's memory goes back as soon as it is copied).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>
#include "binfmt.hpp"

namespace spb {

template <class Value>
Csr csr_from_rows(int64_t rows, int64_t cols, std::vector<std::vector<int64_t>>& adj, Value&& value) {
  Csr c;
  c.rows = rows; c.cols = cols;
  c.row_ptr.assign(size_t(rows) + 1, 0);
  size_t total = 0;
  for (const auto& a : adj) total += a.size();
  c.col_idx.reserve(total); c.values.reserve(total);
  for (int64_t i = 0; i < rows; ++i) {
    auto& a = adj[size_t(i)];
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    for (int64_t j : a) { c.col_idx.push_back(j); c.values.push_back(value()); }
    c.row_ptr[size_t(i) + 1] = int64_t(c.col_idx.size());
    std::vector<int64_t>().swap(a);
  }
  return c;
}

}  // namespace spb
