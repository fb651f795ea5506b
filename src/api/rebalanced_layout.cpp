// A context's Cartesian layout re-planned for new speeds with Beaumont2000's migrations.
#include "api/rebalanced_layout.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "core/grids/exact_grid.hpp"
#include "core/grids/integer_plan.hpp"

namespace hetscal::api {
namespace {

// The grid with the new speeds' cycle times, each cell's rank as the processor.
core::Arrangement arrangement_of(const layout::ProcessGrid& grid, const std::vector<double>& speeds) {
  core::Arrangement a;
  a.rows = static_cast<std::size_t>(grid.nprow());
  a.cols = static_cast<std::size_t>(grid.npcol());
  for (const int rank : grid.ranks()) {
    a.processor.push_back(static_cast<std::size_t>(rank));
    a.cycle_time.push_back(1.0 / speeds.at(static_cast<std::size_t>(rank)));
  }
  return a;
}

std::vector<std::size_t> as_sizes(const std::vector<int>& map) {
  return std::vector<std::size_t>(map.begin(), map.end());
}

std::string counts_text(const std::vector<std::int64_t>& counts) {
  std::string text;
  for (const std::int64_t count : counts) text += (text.empty() ? "" : " ") + std::to_string(count);
  return text;
}

}  // namespace

std::vector<int> migrated_map(const std::vector<int>& map, const std::vector<std::int64_t>& counts,
                              std::size_t& migrations) {
  if (std::accumulate(counts.begin(), counts.end(), std::int64_t{0}) !=
      static_cast<std::int64_t>(map.size()))
    throw InvalidArgument("migrated_map: the counts do not add up to the panel's " +
                          std::to_string(map.size()) + " lines");
  std::vector<std::int64_t> held(counts.size(), 0);
  for (const int line : map) {
    if (line < 0 || static_cast<std::size_t>(line) >= counts.size())
      throw InvalidArgument("migrated_map: grid line " + std::to_string(line) + " out of range");
    ++held[static_cast<std::size_t>(line)];
  }
  std::vector<int> migrated = map;
  std::vector<std::size_t> released;  // panel lines leaving their grid line, in panel order
  for (std::size_t p = map.size(); p-- > 0;) {
    const auto line = static_cast<std::size_t>(map[p]);
    if (held[line] > counts[line]) {
      --held[line];
      released.push_back(p);
    }
  }
  std::reverse(released.begin(), released.end());
  for (const std::size_t p : released) {
    std::size_t neediest = 0;
    for (std::size_t g = 1; g < counts.size(); ++g)
      if (counts[g] - held[g] > counts[neediest] - held[neediest]) neediest = g;
    migrated[p] = static_cast<int>(neediest);
    ++held[neediest];
  }
  migrations = released.size();
  return migrated;
}

RebalancedLayout rebalance_cartesian(const ContextLayout& old, const std::vector<double>& speeds) {
  if (!old.cartesian()) throw InvalidArgument("rebalance_cartesian: not a Cartesian layout");
  const layout::CartesianDistribution& grid = *old.grid;
  if (speeds.size() != static_cast<std::size_t>(grid.grid().num_ranks()))
    throw InvalidArgument("rebalance_cartesian: " + std::to_string(speeds.size()) +
                          " speeds for " + std::to_string(grid.grid().num_ranks()) + " ranks");
  const core::Arrangement a = arrangement_of(grid.grid(), speeds);
  const core::PanelCounts counts =
      core::plan_panel_counts(a, core::optimal_shares(a),
                              static_cast<std::int64_t>(grid.row_map().size()),
                              static_cast<std::int64_t>(grid.col_map().size()))
          .counts;
  RebalancedLayout rebalanced;
  rebalanced.kept_structure = true;
  const std::vector<int> row_map = migrated_map(grid.row_map(), counts.r, rebalanced.row_migrations);
  const std::vector<int> col_map =
      migrated_map(grid.col_map(), counts.c, rebalanced.column_migrations);
  ContextLayout& planned = rebalanced.layout;
  planned = old;
  planned.grid = std::make_shared<const layout::CartesianDistribution>(
      grid.rows(), grid.cols(), row_map, col_map, grid.grid());
  planned.candidate.row_share.assign(counts.r.begin(), counts.r.end());
  planned.candidate.col_share.assign(counts.c.begin(), counts.c.end());
  planned.candidate.row_order = as_sizes(row_map);
  planned.candidate.col_order = as_sizes(col_map);
  planned.description = old.description + ", rebalanced r=(" + counts_text(counts.r) + ") c=(" +
                        counts_text(counts.c) + ")";
  return rebalanced;
}

}  // namespace hetscal::api
