#include "runtime/in_place_moves.hpp"

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

}  // namespace hetscal::runtime
