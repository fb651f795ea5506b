#include "layout/candidate_distribution.hpp"

#include <sstream>
#include <vector>

#include "core/common/error.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"

namespace hetscal::layout {
namespace {

std::vector<int> as_ranks(const std::vector<std::size_t>& values, std::size_t limit, const char* what) {
  std::vector<int> out;
  out.reserve(values.size());
  for (std::size_t v : values) {
    if (v >= limit) {
      std::ostringstream msg;
      msg << "distribution_of: " << what << ' ' << v << " is not below " << limit;
      throw InvalidArgument(msg.str());
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace

std::unique_ptr<Distribution> distribution_of(const core::Candidate& candidate, std::int64_t n,
                                              int num_ranks) {
  return distribution_of(candidate, n, n, num_ranks);
}

std::unique_ptr<Distribution> distribution_of(const core::Candidate& candidate, std::int64_t m,
                                              std::int64_t n, int num_ranks) {
  if (candidate.kind == core::CandidateKind::CallerLayout)
    throw InvalidArgument("distribution_of: '" + candidate.label +
                          "' is the caller's layout; build it from the caller's descriptor");
  if (m < 1 || n < 1)
    throw InvalidArgument("distribution_of: M x N = " + std::to_string(m) + " x " + std::to_string(n) +
                          "; both must be >= 1");
  if (num_ranks < 1) throw InvalidArgument("distribution_of: no rank");
  // The classes the time model priced, one per tile row and column.
  const core::TileOwnership priced = core::ownership_of(
      candidate, core::MatrixShape{static_cast<std::size_t>(m), static_cast<std::size_t>(n)});
  const auto tile = static_cast<std::int64_t>(candidate.tile);
  const std::vector<int> owners = as_ranks(candidate.owner, static_cast<std::size_t>(num_ranks), "rank");
  const int rows = static_cast<int>(candidate.rows), cols = static_cast<int>(candidate.cols);
  if (candidate.kind == core::CandidateKind::Pattern)
    return std::make_unique<PatternDistribution>(TileSplit(m, tile), TileSplit(n, tile), rows, cols, owners, num_ranks);
  return std::make_unique<CartesianDistribution>(
      TileSplit(m, tile), TileSplit(n, tile), as_ranks(priced.row_class, candidate.rows, "grid row"),
      as_ranks(priced.col_class, candidate.cols, "grid column"), ProcessGrid(rows, cols, owners, num_ranks));
}

}  // namespace hetscal::layout
