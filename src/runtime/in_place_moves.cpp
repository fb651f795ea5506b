#include "runtime/in_place_moves.hpp"

#include <algorithm>

namespace hetscal::runtime {
namespace {

// The grid row (column) of each tile line in the caller's layout, and the lines' planned
// grid rows after the fewest moves: the weights of grid line g are the speeds of its ranks.
std::vector<int> kept_lines(const layout::CartesianDistribution& caller, bool rows, const std::vector<double>& speeds,
                            core::KeptLines kept) {
  const layout::ProcessGrid& grid = caller.grid();
  const int groups = rows ? grid.nprow() : grid.npcol();
  std::vector<double> weights(static_cast<std::size_t>(groups), 0.0);
  for (int r = 0; r < grid.nprow(); ++r)
    for (int c = 0; c < grid.npcol(); ++c)
      weights[static_cast<std::size_t>(rows ? r : c)] += speeds.at(static_cast<std::size_t>(grid.rank(r, c)));
  const std::int64_t lines = rows ? caller.rows().count() : caller.cols().count();
  std::vector<int> held(static_cast<std::size_t>(lines));
  for (std::int64_t l = 0; l < lines; ++l)
    held[static_cast<std::size_t>(l)] = rows ? caller.grid_row(l) : caller.grid_col(l);
  return core::keep_most_lines(held, core::planned_line_counts(lines, weights), kept);
}

}  // namespace

std::unique_ptr<layout::CartesianDistribution> minimal_move_layout(const layout::CartesianDistribution& caller,
                                                                   const std::vector<double>& speeds,
                                                                   core::KeptLines kept) {
  return std::make_unique<layout::CartesianDistribution>(caller.rows(), caller.cols(),
                                                         kept_lines(caller, true, speeds, kept),
                                                         kept_lines(caller, false, speeds, kept), caller.grid());
}

SurplusElements surplus_elements(const layout::CartesianDistribution& caller,
                                 const layout::CartesianDistribution& in_place, int ranks) {
  // Per grid row (column): the elements of its tile lines held by the caller, planned, and
  // both; a tile stays on its rank when its row and its column both stay.
  struct Lines {
    std::vector<double> held, planned, kept;
  };
  const auto lines = [](const layout::TileSplit& split, int groups, auto caller_group, auto planned_group) {
    Lines l{std::vector<double>(static_cast<std::size_t>(groups), 0.0),
            std::vector<double>(static_cast<std::size_t>(groups), 0.0),
            std::vector<double>(static_cast<std::size_t>(groups), 0.0)};
    for (std::int64_t t = 0; t < split.count(); ++t) {
      const auto size = static_cast<double>(split.size(t));
      const int from = caller_group(t), to = planned_group(t);
      l.held[static_cast<std::size_t>(from)] += size;
      l.planned[static_cast<std::size_t>(to)] += size;
      if (from == to) l.kept[static_cast<std::size_t>(to)] += size;
    }
    return l;
  };
  const layout::ProcessGrid& grid = caller.grid();
  const Lines rows = lines(caller.rows(), grid.nprow(), [&](std::int64_t i) { return caller.grid_row(i); },
                           [&](std::int64_t i) { return in_place.grid_row(i); });
  const Lines cols = lines(caller.cols(), grid.npcol(), [&](std::int64_t j) { return caller.grid_col(j); },
                           [&](std::int64_t j) { return in_place.grid_col(j); });
  const auto count = static_cast<std::size_t>(ranks);
  SurplusElements elements{std::vector<double>(count, 0.0), std::vector<double>(count, 0.0),
                           std::vector<double>(count, 0.0)};
  for (int r = 0; r < grid.nprow(); ++r) {
    for (int c = 0; c < grid.npcol(); ++c) {
      const auto x = static_cast<std::size_t>(grid.rank(r, c));
      const auto i = static_cast<std::size_t>(r), j = static_cast<std::size_t>(c);
      elements.held[x] += rows.held[i] * cols.held[j];
      elements.planned[x] += rows.planned[i] * cols.planned[j];
      elements.kept[x] += rows.kept[i] * cols.kept[j];
    }
  }
  return elements;
}

core::Candidate in_place_candidate(const layout::CartesianDistribution& in_place) {
  const layout::ProcessGrid& grid = in_place.grid();
  core::Candidate candidate;
  candidate.kind = core::CandidateKind::Cartesian;
  candidate.label = "in place";
  candidate.rows = static_cast<std::size_t>(grid.nprow());
  candidate.cols = static_cast<std::size_t>(grid.npcol());
  for (int r = 0; r < grid.nprow(); ++r)
    for (int c = 0; c < grid.npcol(); ++c) candidate.owner.push_back(static_cast<std::size_t>(grid.rank(r, c)));
  // Each tile line's grid line, in full (the model repeats an order only when it is shorter
  // than the matrix's lines); the shares count the lines, as the orders give them.
  candidate.row_share.assign(candidate.rows, 0.0);
  candidate.col_share.assign(candidate.cols, 0.0);
  for (std::int64_t i = 0; i < in_place.rows().count(); ++i) {
    candidate.row_order.push_back(static_cast<std::size_t>(in_place.grid_row(i)));
    candidate.row_share[candidate.row_order.back()] += 1.0;
    candidate.tile = std::max(candidate.tile, static_cast<std::size_t>(in_place.rows().size(i)));
  }
  for (std::int64_t j = 0; j < in_place.cols().count(); ++j) {
    candidate.col_order.push_back(static_cast<std::size_t>(in_place.grid_col(j)));
    candidate.col_share[candidate.col_order.back()] += 1.0;
  }
  return candidate;
}

}  // namespace hetscal::runtime
