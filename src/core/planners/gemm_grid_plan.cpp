#include "core/planners/gemm_grid_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"
#include "core/grids/separation.hpp"

namespace hetscal::core {
namespace {

std::int64_t tiles(std::int64_t extent, std::int64_t tile) { return (extent + tile - 1) / tile; }

// Rank indexes, fastest first (ties: the lower rank first, so every rank sorts alike).
std::vector<std::size_t> fastest_first(const std::vector<double>& speeds) {
  std::vector<std::size_t> order(speeds.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return speeds[a] > speeds[b]; });
  return order;
}

// The fastest `count` ranks, as the grid planner sees them: cycle times relative to the
// fastest rank (>= 1, so no share underflows), sorted once, and their shapes.
struct RankSubset {
  std::vector<std::size_t> rank;    ///< the ranks planned, fastest first
  std::vector<double> cycle_times;  ///< of rank[i]
  SortedProcessors sorted;
  std::vector<GridCandidate> shapes;
};

RankSubset fastest_ranks(const std::vector<double>& speeds, const std::vector<std::size_t>& order, std::size_t count) {
  RankSubset subset;
  subset.rank.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
  const double fastest = speeds[order.front()];
  for (std::size_t r : subset.rank) subset.cycle_times.push_back(fastest / speeds[r]);
  subset.sorted = sort_processors(subset.cycle_times);
  // Only shapes whose sides a panel plan accepts (plan_for_tile): at most max_panel of them.
  subset.shapes = list_bounded_grid_shapes(subset.cycle_times, static_cast<std::size_t>(PanelSizeOptions{}.max_panel));
  return subset;
}

// C's rows (or columns) per grid line: tile line I lives in line_of_panel_line[I mod B].
std::vector<std::int64_t> extent_per_line(std::int64_t extent, std::int64_t tile,
                                          const std::vector<std::size_t>& line_of_panel_line, std::size_t lines) {
  std::vector<std::int64_t> per_line(lines, 0);
  const std::int64_t count = tiles(extent, tile);
  for (std::int64_t i = 0; i < count; ++i)
    per_line[line_of_panel_line[static_cast<std::size_t>(i) % line_of_panel_line.size()]] +=
        std::min(tile, extent - i * tile);
  return per_line;
}

// A grid shape's arrangement and panel plan on one subset. The panel plan depends on the
// matrix only through its tile rows and columns capped at the largest panel, so the tile
// sizes of a large matrix share one (each costs 0.06-0.12 s on 100 to 1,000 ranks).
struct ShapePlan {
  GridChoice choice;
  PanelPlan panel;
};
using ShapeKey = std::array<std::int64_t, 4>;  ///< grid rows, columns, capped tile rows, columns
using ShapePlans = std::map<ShapeKey, ShapePlan>;

const ShapePlan& shape_plan(ShapePlans& plans, const RankSubset& subset, const GridCandidate& shape,
                            std::int64_t tile_rows, std::int64_t tile_cols) {
  PanelSizeOptions options;
  options.tile_rows = std::min(tile_rows, options.max_panel);
  options.tile_cols = std::min(tile_cols, options.max_panel);
  const ShapeKey key{static_cast<std::int64_t>(shape.rows), static_cast<std::int64_t>(shape.cols), options.tile_rows,
                     options.tile_cols};
  auto found = plans.find(key);
  if (found == plans.end()) {
    ShapePlan plan;
    plan.choice = plan_grid_shape(subset.cycle_times, subset.sorted, shape.rows, shape.cols);
    plan.panel = default_panel_plan(plan.choice.arrangement, plan.choice.shares, options);
    for (std::size_t& processor : plan.choice.arrangement.processor) processor = subset.rank[processor];
    found = plans.emplace(key, std::move(plan)).first;
  }
  return found->second;
}

// One tile size's plan on `subset`, or nothing when no shape fits the matrix.
std::optional<GemmGridPlan> plan_for_tile(const std::vector<double>& speeds, const RankSubset& subset,
                                          ShapePlans& shape_plans, std::int64_t m, std::int64_t n, std::int64_t tile) {
  const std::int64_t tile_rows = tiles(m, tile), tile_cols = tiles(n, tile);
  // The best shape by W among those with at least one tile row per grid row and one tile
  // column per grid column (the panel plan gives every grid line a block), and no side longer
  // than the panel plan's largest panel (it refuses them: on 256 ranks W chose 1x256, and every
  // PDGEMM was refused a plan).
  const std::int64_t longest_side = PanelSizeOptions{}.max_panel;
  const auto fits = [&](const GridCandidate& g) {
    return static_cast<std::int64_t>(g.rows) <= std::min(tile_rows, longest_side) &&
           static_cast<std::int64_t>(g.cols) <= std::min(tile_cols, longest_side);
  };
  const GridCandidate& best = best_candidate(subset.shapes, [&](const GridCandidate& g) {
    return fits(g) ? score_by_work_per_time(g) : -std::numeric_limits<double>::infinity();
  });
  if (!fits(best)) return std::nullopt;
  const ShapePlan& shape = shape_plan(shape_plans, subset, best, tile_rows, tile_cols);
  GemmGridPlan plan;
  plan.tile = tile;
  plan.choice = shape.choice;
  plan.panel = shape.panel;
  plan.rows = extent_per_line(m, tile, plan.panel.row_of_panel_row, best.rows);
  plan.cols = extent_per_line(n, tile, plan.panel.col_of_panel_col, best.cols);
  for (std::size_t i = 0; i < best.rows; ++i) {
    for (std::size_t j = 0; j < best.cols; ++j) {
      const double cell = static_cast<double>(plan.rows[i]) * static_cast<double>(plan.cols[j]);
      plan.slowest = std::max(plan.slowest, cell / speeds[plan.choice.arrangement.at(i, j)]);
    }
  }
  return plan;
}

// m·n over the summed speed of the fastest `count` ranks: no plan on them has a slowest cell
// below it.
double balanced_slowest(const std::vector<double>& speeds, const std::vector<std::size_t>& order, std::size_t count,
                        std::int64_t m, std::int64_t n) {
  double speed = 0.0;
  for (std::size_t i = 0; i < count; ++i) speed += speeds[order[i]];
  return static_cast<double>(m) * static_cast<double>(n) / speed;
}

}  // namespace

std::int64_t planned_tile(std::int64_t m, std::int64_t n, int ranks) {
  // Up to 256: each SUMMA step is one local GEMM with inner dimension `tile`, and OpenBLAS
  // needs an inner dimension of a few hundred to run near its peak (ScaLAPACK's and hetscal's
  // best block size on this class of machine is 256; tests/bench/gemm). Smaller matrices
  // get smaller tiles so that every rank still holds several.
  return std::clamp<std::int64_t>(std::min(m, n) / (2 * std::max(ranks, 1)), 1, 256);
}

std::vector<std::size_t> gemm_process_counts(const std::vector<double>& speeds) {
  require_positive_finite(speeds, "speeds");
  const std::vector<std::size_t> order = fastest_first(speeds);
  const double fastest = speeds[order.front()];
  std::size_t planned = 0;
  while (planned < order.size() && speeds[order[planned]] / fastest >= kSmallestPlannedSpeedRatio) ++planned;
  // Each boundary between speed classes, by the drop of speed across it.
  std::vector<std::pair<double, std::size_t>> drops;
  for (std::size_t k = 1; k < planned; ++k) {
    const double above = speeds[order[k - 1]], below = speeds[order[k]];
    if (below < above) drops.emplace_back(above / below, k);
  }
  std::stable_sort(drops.begin(), drops.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  drops.resize(std::min(drops.size(), kMaxGemmSpeedDrops));
  std::vector<std::size_t> counts{planned};
  for (const auto& drop : drops) counts.push_back(drop.second);
  std::sort(counts.rbegin(), counts.rend());
  return counts;
}

GemmGridPlan plan_gemm_grid(const std::vector<double>& speeds, std::int64_t m, std::int64_t n,
                            std::int64_t largest_tile, const KernelRate& kernel) {
  const std::vector<std::size_t> counts = gemm_process_counts(speeds);
  const std::vector<std::size_t> order = fastest_first(speeds);
  // No tile narrower than the kernel runs efficiently, where the matrix is that wide: a
  // SUMMA step on 1-wide tiles is a rank-1 update, memory-bound (issue 29's skinny PDGEMMs).
  const std::int64_t efficient = std::min<std::int64_t>(
      std::min(m, n), static_cast<std::int64_t>(std::ceil(kernel.smallest_efficient_tile(kEfficientTileRate))));
  const auto priced = [&](const GemmGridPlan& plan) {
    return plan.slowest / kernel.efficiency(static_cast<double>(plan.tile));
  };
  std::optional<GemmGridPlan> best;
  // Most ranks first: fewer ranks, or a smaller tile, must be clearly better to be chosen.
  for (std::size_t count : counts) {
    // Fewer ranks cannot win when even their perfect balance is not clearly better (kernel
    // efficiencies are at most 1).
    if (best && balanced_slowest(speeds, order, count, m, n) >= 0.97 * priced(*best)) continue;
    const RankSubset subset = fastest_ranks(speeds, order, count);
    ShapePlans shape_plans;
    // The panel repeats over the matrix, and a matrix that is not a whole number of panels
    // leaves its last, partial panel unbalanced: a few smaller tiles are tried too, and a
    // smaller one kept only when it balances clearly better at its kernel rate.
    // A grid side holds at most max_panel ranks, so no grid needs tiles narrower than for
    // that many (16,384 ranks planned tiles of 3 at N = 10⁵).
    const auto widest_side = static_cast<int>(std::min<std::size_t>(count, PanelSizeOptions{}.max_panel));
    const std::int64_t largest =
        largest_tile > 0 ? largest_tile : std::max(planned_tile(m, n, widest_side), efficient);
    const std::int64_t smallest = std::max<std::int64_t>({1, largest / 4, std::min(efficient, largest)});
    for (std::int64_t tile = largest; tile >= smallest; tile = tile * 3 / 4) {
      std::optional<GemmGridPlan> plan = plan_for_tile(speeds, subset, shape_plans, m, n, tile);
      if (plan && (!best || priced(*plan) < 0.97 * priced(*best))) best = std::move(plan);
      if (tile == 1) break;
    }
  }
  if (!best) {
    throw InvalidArgument("no grid of " + std::to_string(speeds.size()) + " ranks fits a " + std::to_string(m) +
                          "x" + std::to_string(n) + " matrix");
  }
  return *best;
}

Candidate gemm_candidate(const GemmGridPlan& plan) {
  Candidate c;
  c.kind = CandidateKind::Cartesian;
  c.rows = plan.choice.candidate.rows;
  c.cols = plan.choice.candidate.cols;
  c.label = "hetero " + std::to_string(c.rows) + "x" + std::to_string(c.cols);
  c.tile = static_cast<std::size_t>(plan.tile);
  c.owner.assign(plan.choice.arrangement.processor.begin(), plan.choice.arrangement.processor.end());
  c.row_share.assign(plan.panel.counts.r.begin(), plan.panel.counts.r.end());
  c.col_share.assign(plan.panel.counts.c.begin(), plan.panel.counts.c.end());
  return c;
}

}  // namespace hetscal::core
