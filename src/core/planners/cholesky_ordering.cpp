#include "core/planners/cholesky_ordering.hpp"

#include <sstream>

#include "core/common/error.hpp"
#include "core/grids/allocation_1d.hpp"
#include "core/patterns/pattern_hetero.hpp"

namespace hetscal::core {

std::vector<std::size_t> suffix_balanced_order(const std::vector<double>& shares, std::size_t tiles) {
  if (tiles == 0) throw InvalidArgument("suffix_balanced_order: no tile to order");
  const auto counts = apportion(shares, static_cast<std::int64_t>(tiles));
  std::vector<double> cycle_times;
  for (double share : shares) cycle_times.push_back(1.0 / share);
  return lu_order_with_counts(cycle_times, counts);
}

Candidate with_suffix_balanced_order(Candidate candidate, MatrixShape shape) {
  std::ostringstream msg;
  if (candidate.kind != CandidateKind::Cartesian)
    msg << "suffix-balanced order: '" << candidate.label << "' is not a Cartesian grid";
  else if (candidate.row_share.size() != candidate.rows || candidate.col_share.size() != candidate.cols)
    msg << "suffix-balanced order: '" << candidate.label << "' has " << candidate.row_share.size()
        << " row and " << candidate.col_share.size() << " column shares for a "
        << candidate.rows << " x " << candidate.cols << " grid";
  else if (candidate.tile == 0)
    msg << "suffix-balanced order: '" << candidate.label << "' has tile 0";
  if (msg.tellp() != 0) throw InvalidArgument(msg.str());
  const auto tiles = [&](std::size_t extent) { return (extent + candidate.tile - 1) / candidate.tile; };
  candidate.row_order = suffix_balanced_order(candidate.row_share, tiles(shape.rows));
  candidate.col_order = suffix_balanced_order(candidate.col_share, tiles(shape.cols));
  return candidate;
}

Candidate with_cholesky_order(Candidate candidate, std::size_t n) {
  Candidate ordered = with_suffix_balanced_order(std::move(candidate), {n, n});
  ordered.label += " ordered";
  return ordered;
}

}  // namespace hetscal::core
