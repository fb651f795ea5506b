#include "runtime/gemm_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/grids/panel_plan.hpp"

namespace hetscal::runtime {
namespace {

std::int64_t tiles(std::int64_t extent, std::int64_t tile) { return (extent + tile - 1) / tile; }

std::vector<int> as_ints(const std::vector<std::size_t>& values) {
  return std::vector<int>(values.begin(), values.end());
}

std::string describe(const core::GridChoice& choice, const core::PanelPlan& panel,
                     std::int64_t tile) {
  std::ostringstream out;
  out << "grid " << choice.candidate.rows << "x" << choice.candidate.cols << " ranks (";
  for (std::size_t i = 0; i < choice.arrangement.processor.size(); ++i) {
    out << (i ? (i % choice.arrangement.cols ? " " : " | ") : "")
        << choice.arrangement.processor[i];
  }
  out << "), tile " << tile << ", panel " << panel.panel_rows << "x" << panel.panel_cols << " r=(";
  for (std::size_t i = 0; i < panel.counts.r.size(); ++i)
    out << (i ? " " : "") << panel.counts.r[i];
  out << ") c=(";
  for (std::size_t j = 0; j < panel.counts.c.size(); ++j)
    out << (j ? " " : "") << panel.counts.c[j];
  out << ")";
  return out.str();
}

// The plan as the core time model prices it: a Cartesian grid with the panel's integer
// row and column counts as shares.
core::Candidate candidate_of(const core::GridChoice& choice, const core::PanelPlan& panel,
                             std::int64_t tile) {
  core::Candidate c;
  c.kind = core::CandidateKind::Cartesian;
  c.rows = choice.candidate.rows;
  c.cols = choice.candidate.cols;
  c.label = "hetero " + std::to_string(c.rows) + "x" + std::to_string(c.cols);
  c.tile = static_cast<std::size_t>(tile);
  c.owner.assign(choice.arrangement.processor.begin(), choice.arrangement.processor.end());
  c.row_share.assign(panel.counts.r.begin(), panel.counts.r.end());
  c.col_share.assign(panel.counts.c.begin(), panel.counts.c.end());
  return c;
}

}  // namespace

std::int64_t planned_tile(std::int64_t m, std::int64_t n, int ranks) {
  // Up to 256: each SUMMA step is one local GEMM with inner dimension `tile`, and OpenBLAS
  // needs an inner dimension of a few hundred to run near its peak (ScaLAPACK's and hetscal's
  // best block size on this class of machine is 256; tests/bench/gemm). Smaller matrices
  // get smaller tiles so that every rank still holds several.
  return std::clamp<std::int64_t>(std::min(m, n) / (2 * std::max(ranks, 1)), 1, 256);
}

GridLoad grid_load(const layout::CartesianDistribution& d, const std::vector<double>& speeds) {
  const layout::ProcessGrid& grid = d.grid();
  GridLoad load;
  load.rows.assign(static_cast<std::size_t>(grid.nprow()), 0);
  load.cols.assign(static_cast<std::size_t>(grid.npcol()), 0);
  for (std::int64_t i = 0; i < d.rows().count(); ++i) load.rows[d.grid_row(i)] += d.rows().size(i);
  for (std::int64_t j = 0; j < d.cols().count(); ++j) load.cols[d.grid_col(j)] += d.cols().size(j);
  for (int r = 0; r < grid.nprow(); ++r) {
    for (int c = 0; c < grid.npcol(); ++c) load.speed.push_back(speeds.at(grid.rank(r, c)));
  }
  return load;
}

namespace {

// One tile size's plan of C's maps (op(A) and op(B) reuse them).
struct MapsForTile {
  std::int64_t tile = 1;
  core::GridChoice choice;
  core::PanelPlan panel;
  std::unique_ptr<layout::CartesianDistribution> c;
  GridLoad load;
  double slowest = 0.0;  ///< max over cells of rows_i·cols_j / speed_ij
};

std::optional<MapsForTile> maps_for_tile(const std::vector<double>& speeds,
                                         const std::vector<core::GridCandidate>& shapes,
                                         std::int64_t m, std::int64_t n, std::int64_t tile) {
  const std::int64_t tile_rows = tiles(m, tile), tile_cols = tiles(n, tile);
  // The best shape by W among those with at least one tile row per grid row and one tile
  // column per grid column (the panel plan gives every grid line a block), and no side longer
  // than the panel plan's largest panel (it refuses them: on 256 ranks W chose 1x256, and every
  // PDGEMM was refused a plan).
  const std::int64_t longest_side = core::PanelSizeOptions{}.max_panel;
  const auto fits = [&](const core::GridCandidate& g) {
    return static_cast<std::int64_t>(g.rows) <= std::min(tile_rows, longest_side) &&
           static_cast<std::int64_t>(g.cols) <= std::min(tile_cols, longest_side);
  };
  const core::GridCandidate& best = core::best_candidate(shapes, [&](const core::GridCandidate& g) {
    return fits(g) ? core::score_by_work_per_time(g) : -std::numeric_limits<double>::infinity();
  });
  if (!fits(best)) return std::nullopt;
  std::vector<double> cycle_times;
  for (double s : speeds) cycle_times.push_back(1.0 / s);
  MapsForTile maps;
  maps.tile = tile;
  maps.choice = core::plan_grid_shape(cycle_times, best.rows, best.cols);
  core::PanelSizeOptions panel_options;
  panel_options.tile_rows = tile_rows;
  panel_options.tile_cols = tile_cols;
  maps.panel = core::default_panel_plan(maps.choice.arrangement, maps.choice.shares, panel_options);
  const layout::ProcessGrid grid(static_cast<int>(best.rows), static_cast<int>(best.cols),
                                 as_ints(maps.choice.arrangement.processor),
                                 static_cast<int>(speeds.size()));
  maps.c = std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(m, tile), layout::TileSplit(n, tile), as_ints(maps.panel.row_of_panel_row),
      as_ints(maps.panel.col_of_panel_col), grid);
  maps.load = grid_load(*maps.c, speeds);
  const std::size_t cols = maps.load.cols.size();
  for (std::size_t i = 0; i < maps.load.rows.size(); ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      maps.slowest =
          std::max(maps.slowest, static_cast<double>(maps.load.rows[i] * maps.load.cols[j]) /
                                     maps.load.speed[i * cols + j]);
    }
  }
  return maps;
}

}  // namespace

GemmLayout plan_gemm_layout(const std::vector<double>& speeds, std::int64_t m, std::int64_t n,
                            std::int64_t k, std::int64_t largest_tile, const core::KernelRate& kernel) {
  std::vector<double> cycle_times;
  for (double s : speeds) cycle_times.push_back(1.0 / s);
  // Only shapes whose sides a panel plan accepts (maps_for_tile): at most max_panel of them.
  const auto longest_side = static_cast<std::size_t>(core::PanelSizeOptions{}.max_panel);
  const std::vector<core::GridCandidate> shapes = core::list_bounded_grid_shapes(cycle_times, longest_side);
  // No tile narrower than the kernel runs efficiently, where the matrix is that wide: a
  // SUMMA step on 1-wide tiles is a rank-1 update, memory-bound (issue 29's skinny PDGEMMs).
  const std::int64_t efficient = std::min<std::int64_t>(
      std::min(m, n), static_cast<std::int64_t>(std::ceil(kernel.smallest_efficient_tile(kEfficientTileRate))));
  // The panel repeats over the matrix, and a matrix that is not a whole number of panels
  // leaves its last, partial panel unbalanced: a few smaller tiles are tried too, and a
  // smaller one kept only when it balances clearly better at its kernel rate.
  const std::int64_t largest =
      largest_tile > 0 ? largest_tile
                       : std::max(planned_tile(m, n, static_cast<int>(speeds.size())), efficient);
  const std::int64_t smallest = std::max<std::int64_t>({1, largest / 4, std::min(efficient, largest)});
  std::optional<MapsForTile> best;
  const auto priced = [&](const MapsForTile& maps) {
    return maps.slowest / kernel.efficiency(static_cast<double>(maps.tile));
  };
  for (std::int64_t tile = largest; tile >= smallest; tile = tile * 3 / 4) {
    std::optional<MapsForTile> maps = maps_for_tile(speeds, shapes, m, n, tile);
    if (maps && (!best || priced(*maps) < 0.97 * priced(*best))) best = std::move(maps);
    if (tile == 1) break;
  }
  if (!best) {
    throw InvalidArgument("no grid of " + std::to_string(speeds.size()) + " ranks fits a " +
                          std::to_string(m) + "x" + std::to_string(n) + " matrix");
  }
  GemmLayout plan;
  plan.tile = best->tile;
  plan.a = aligned_distribution(*best->c, m, k);
  plan.b = aligned_distribution(*best->c, k, n);
  plan.c = std::move(best->c);
  plan.load = std::move(best->load);
  plan.description = describe(best->choice, best->panel, plan.tile);
  plan.candidate = candidate_of(best->choice, best->panel, plan.tile);
  return plan;
}

std::unique_ptr<layout::CartesianDistribution> aligned_distribution(
    const layout::CartesianDistribution& like, std::int64_t rows, std::int64_t cols) {
  const std::int64_t tile = like.rows().block();
  return std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(rows, tile), layout::TileSplit(cols, tile), like.row_map(), like.col_map(),
      like.grid());
}

double predicted_balance(const GridLoad& load) {
  const std::size_t cols = load.cols.size();
  double elements = 0.0, speed = 0.0, slowest = 0.0;
  for (std::size_t i = 0; i < load.rows.size(); ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const double cell = static_cast<double>(load.rows[i]) * static_cast<double>(load.cols[j]);
      elements += cell;
      speed += load.speed[i * cols + j];
      slowest = std::max(slowest, cell / load.speed[i * cols + j]);
    }
  }
  return slowest > 0.0 ? elements / speed / slowest : 1.0;
}

GridLoad even_load(const GridLoad& load) {
  const auto deal = [](const std::vector<std::int64_t>& lines) {
    std::int64_t total = 0;
    for (std::int64_t x : lines) total += x;
    const auto count = static_cast<std::int64_t>(lines.size());
    std::vector<std::int64_t> even;
    for (std::int64_t i = 0; i < count; ++i)
      even.push_back(total / count + (i < total % count ? 1 : 0));
    return even;
  };
  return {deal(load.rows), deal(load.cols), load.speed};
}

}  // namespace hetscal::runtime

namespace hetscal::runtime {

const mpi::GridCommunicators& GemmLayout::grid_communicators(MPI_Comm comm) const {
  if (!communicators_ || !communicators_->serves(comm, c->grid())) {
    // Built inside the compute stage: the grid's copy is agreed before the splits, so that a
    // rank short of memory fails the stage with the others (StageFailed on every rank).
    std::optional<layout::ProcessGrid> grid;
    mpi::run_agreed(comm, "compute", [&] { grid.emplace(c->grid()); });
    communicators_.emplace(comm, std::move(*grid));
  }
  return *communicators_;
}

}  // namespace hetscal::runtime
