#pragma once
/// @file time_model_test_support.hpp
/// Candidates shared by the time model's tests.
#include <cstddef>
#include <utility>
#include <vector>

#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// A candidate of `kind` owning rows × cols classes (row-major owners) with tiles of `tile`.
inline Candidate candidate_of(CandidateKind kind, const char* label, std::size_t rows,
                              std::size_t cols, std::size_t tile, std::vector<std::size_t> owner) {
  Candidate cand;
  cand.kind = kind;
  cand.label = label;
  cand.tile = tile;
  cand.rows = rows;
  cand.cols = cols;
  cand.owner = std::move(owner);
  return cand;
}

/// A Cartesian rows × cols grid candidate of `tile`; shares default to 1 (block-cyclic).
inline Candidate grid(std::size_t rows, std::size_t cols, std::size_t tile,
                      std::vector<std::size_t> owner, std::vector<double> r = {},
                      std::vector<double> c = {}) {
  Candidate cand = candidate_of(CandidateKind::Cartesian, "grid", rows, cols, tile, std::move(owner));
  cand.row_share = r.empty() ? std::vector<double>(rows, 1.0) : r;
  cand.col_share = c.empty() ? std::vector<double>(cols, 1.0) : c;
  return cand;
}

/// A rows × cols pattern candidate of `tile` (row-major owners).
inline Candidate pattern_candidate(std::size_t tile, std::size_t rows, std::size_t cols,
                                   std::vector<std::size_t> owner) {
  return candidate_of(CandidateKind::Pattern, "pattern", rows, cols, tile, std::move(owner));
}

}  // namespace hetscal::core
