#include "tools/plan/plan_grid.hpp"

#include <algorithm>

#include "core/common/error.hpp"
#include "core/grids/arrangements.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/grids/grid_quality.hpp"
#include "core/grids/panel_plan.hpp"
#include "core/planners/grid_choice_by_model.hpp"
#include "tools/plan/limits.hpp"
#include "tools/plan/plan_model.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

// The exact search visits every non-decreasing arrangement of the grid (hook-length count)
// and, for each, its acceptable spanning trees: 4×4 (24,024 arrangements) is the practical
// limit (grid_planner.hpp).
constexpr std::uint64_t kExactArrangementBudget = 24024;
constexpr std::size_t kLargestTwoPanelPicture = 64;

bool exact_search_feasible(std::size_t p, std::size_t q) {
  try {
    return core::hook_length_count(p, q) <= kExactArrangementBudget;
  } catch (const Error&) {  // the count does not even fit 64 bits
    return false;
  }
}

void require_exact_feasible(std::size_t p, std::size_t q) {
  if (!exact_search_feasible(p, q))
    throw InvalidArgument("--exact: a " + shape_text(p, q) +
                          " grid has too many arrangements to search exactly (at most " +
                          std::to_string(kExactArrangementBudget) +
                          ", as a 4x4 grid has); give a smaller --grid or drop --exact");
}

// The shapes list_grid_shapes plans: p × ⌊n/p⌋ for p = 1 … n.
void require_exact_feasible_for_every_shape(std::size_t processors) {
  for (std::size_t p = 1; p <= processors; ++p) require_exact_feasible(p, processors / p);
}

core::PlannerOptions planner_options(const Options& options, std::size_t largest_grid) {
  core::PlannerOptions planner;
  if (options.method == GridMethod::Exact) planner.exact_max_processors = largest_grid;
  return planner;
}

FoundBy found_by(core::PlanMethod method) {
  return method == core::PlanMethod::Exact ? FoundBy::Exact : FoundBy::Heuristic;
}

std::vector<double> scaled_to_largest_one(std::vector<double> values) {
  const double largest = *std::max_element(values.begin(), values.end());
  for (double& v : values) v /= largest;
  return values;
}

core::PanelPlan panel_for(const Options& options, const core::Arrangement& a, const core::Shares& shares) {
  if (options.panel) {
    const Shape& panel = *options.panel;
    if (panel.rows < a.rows || panel.cols < a.cols)
      throw InvalidArgument("--panel " + shape_text(panel.rows, panel.cols) + " is smaller than the " +
                            shape_text(a.rows, a.cols) +
                            " grid: every grid row and column needs at least one block");
    return core::make_panel_plan(a, shares, static_cast<std::int64_t>(panel.rows),
                                 static_cast<std::int64_t>(panel.cols));
  }
  core::PanelSizeOptions sizes;
  // core tries square panels from the grid's longer side up to max_panel: leave room for
  // grids longer than its default.
  const auto longer_side = static_cast<std::int64_t>(std::max(a.rows, a.cols));
  sizes.max_panel = std::max(sizes.max_panel, 2 * longer_side);
  if (options.matrix_tiles) {
    sizes.tile_rows = static_cast<std::int64_t>(*options.matrix_tiles);
    sizes.tile_cols = sizes.tile_rows;
  }
  return core::default_panel_plan(a, shares, sizes);
}

core::Shares as_shares(const core::PanelCounts& counts) {
  return core::Shares{std::vector<double>(counts.r.begin(), counts.r.end()),
                      std::vector<double>(counts.c.begin(), counts.c.end())};
}

std::vector<std::size_t> unused_processors(const core::Arrangement& a, std::size_t processors) {
  std::vector<bool> used(processors, false);
  for (std::size_t k : a.processor) used[k] = true;
  std::vector<std::size_t> unused;
  for (std::size_t k = 0; k < processors; ++k)
    if (!used[k]) unused.push_back(k);
  return unused;
}

GridReport grid_report(const Options& options, const core::PlannerOptions& planner,
                       const core::GridChoice& choice) {
  GridReport report;
  report.found_by = found_by(choice.candidate.method);
  report.exact_searched = choice.candidate.rows * choice.candidate.cols <= planner.exact_max_processors;
  report.arrangement = choice.arrangement;
  report.figures = choice.candidate.figures;
  report.shares = core::Shares{scaled_to_largest_one(choice.shares.r), scaled_to_largest_one(choice.shares.c)};
  report.panel = panel_for(options, choice.arrangement, choice.shares);
  report.panel_speedup = report.panel.work_per_time / report.figures.cyclic_work_per_time;
  report.loads = core::processor_loads(choice.arrangement, choice.shares);
  report.panel_loads = core::processor_loads(choice.arrangement, as_shares(report.panel.counts));
  report.unused = unused_processors(choice.arrangement, options.cycle_times.size());
  return report;
}

}  // namespace

std::string to_string(FoundBy method) { return method == FoundBy::Exact ? "exact" : "heuristic"; }

void plan_grid(const Options& options, Report& report) {
  const std::vector<double>& cycle_times = options.cycle_times;
  if (options.grid) {
    const Shape& grid = *options.grid;
    if (options.method == GridMethod::Exact) require_exact_feasible(grid.rows, grid.cols);
    const core::PlannerOptions planner = planner_options(options, grid.rows * grid.cols);
    report.grid = grid_report(options, planner, core::plan_grid_shape(cycle_times, grid.rows, grid.cols, planner));
    return;
  }
  if (options.method == GridMethod::Exact) require_exact_feasible_for_every_shape(cycle_times.size());
  const core::PlannerOptions planner = planner_options(options, cycle_times.size());
  const std::vector<core::GridCandidate> candidates = core::list_grid_shapes(cycle_times, planner);
  // W alone favours 1×n grids (perfect balance, whole panels broadcast to everyone); the
  // shape is chosen by the time model's prediction, with --model's settings or defaults.
  const ModelSettings settings = options.model.value_or(ModelSettings{});
  const core::Speeds speeds = core::Speeds::from_cycle_times(cycle_times);
  const core::GridScore score = core::score_by_predicted_time(
      platform_of(speeds, settings), problem_of(speeds, settings), settings.caller_block, planner);
  std::vector<double> scores;
  for (const core::GridCandidate& c : candidates) scores.push_back(score(c));
  const core::GridCandidate& best = core::best_candidate(
      candidates, [&](const core::GridCandidate& c) { return scores[&c - candidates.data()]; });
  for (const core::GridCandidate& c : candidates)
    report.shapes.push_back(ShapeRow{c.rows, c.cols, found_by(c.method), c.figures,
                                     -scores[&c - candidates.data()], &c == &best});
  report.grid = grid_report(options, planner, core::plan_grid_shape(cycle_times, best.rows, best.cols, planner));
}

TileMatrix grid_matrix(const GridReport& grid, std::size_t tiles) {
  TileMatrix matrix;
  matrix.tiles = tiles;
  matrix.period_rows = grid.panel.row_of_panel_row.size();
  matrix.period_cols = grid.panel.col_of_panel_col.size();
  matrix.owner.resize(tiles * tiles);
  for (std::size_t i = 0; i < tiles; ++i)
    for (std::size_t j = 0; j < tiles; ++j) {
      const auto [row, col] = grid.panel.owner_of_tile(i, j);
      matrix.owner[i * tiles + j] = grid.arrangement.at(row, col);
    }
  return matrix;
}

std::size_t default_grid_picture_tiles(const GridReport& grid) {
  // Two panels, so that their boundary shows; large panels only one and a part of the next,
  // so that tiles stay large enough to see.
  const auto side = static_cast<std::size_t>(std::max(grid.panel.panel_rows, grid.panel.panel_cols));
  return std::min({2 * side, std::max<std::size_t>(side + 1, kLargestTwoPanelPicture), kMaxPictureTiles});
}

}  // namespace hetscal::tools::plan
