#include "runtime/gemm_plan.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"

namespace hetscal::runtime {
namespace {

std::vector<int> as_ints(const std::vector<std::size_t>& values) {
  return std::vector<int>(values.begin(), values.end());
}

std::string describe(const core::GemmGridPlan& plan) {
  const core::GridChoice& choice = plan.choice;
  const core::PanelPlan& panel = plan.panel;
  std::ostringstream out;
  out << "grid " << choice.candidate.rows << "x" << choice.candidate.cols << " ranks (";
  for (std::size_t i = 0; i < choice.arrangement.processor.size(); ++i) {
    out << (i ? (i % choice.arrangement.cols ? " " : " | ") : "")
        << choice.arrangement.processor[i];
  }
  out << "), tile " << plan.tile << ", panel " << panel.panel_rows << "x" << panel.panel_cols << " r=(";
  for (std::size_t i = 0; i < panel.counts.r.size(); ++i)
    out << (i ? " " : "") << panel.counts.r[i];
  out << ") c=(";
  for (std::size_t j = 0; j < panel.counts.c.size(); ++j)
    out << (j ? " " : "") << panel.counts.c[j];
  out << ")";
  return out.str();
}

}  // namespace

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

GemmLayout plan_gemm_layout(const std::vector<double>& speeds, std::int64_t m, std::int64_t n,
                            std::int64_t k, std::int64_t largest_tile, const core::KernelRate& kernel) {
  const core::GemmGridPlan grid_plan = core::plan_gemm_grid(speeds, m, n, largest_tile, kernel);
  const core::Arrangement& arrangement = grid_plan.choice.arrangement;
  const layout::ProcessGrid grid(static_cast<int>(arrangement.rows), static_cast<int>(arrangement.cols),
                                 as_ints(arrangement.processor), static_cast<int>(speeds.size()));
  GemmLayout plan;
  plan.tile = grid_plan.tile;
  plan.c = std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(m, plan.tile), layout::TileSplit(n, plan.tile), as_ints(grid_plan.panel.row_of_panel_row),
      as_ints(grid_plan.panel.col_of_panel_col), grid);
  plan.a = aligned_distribution(*plan.c, m, k);
  plan.b = aligned_distribution(*plan.c, k, n);
  plan.load = grid_load(*plan.c, speeds);
  plan.description = describe(grid_plan);
  plan.candidate = core::gemm_candidate(grid_plan);
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
