#pragma once
/// @file runtime_gemm_plan.hpp
/// The run time's GEMM plan (runtime::plan_gemm_layout, the function the shim calls) for the
/// simulated programs at scale: made once on rank 0 of MPI_COMM_WORLD and sent to the others
/// (each simulated rank is a thread of one process, and planning on all P of them would cost P
/// times its real time).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/time_models/time_model.hpp"
#include "layout/cartesian_distribution.hpp"
#include "runtime/gemm_plan.hpp"
#include "simulated_cluster.hpp"

namespace hetscal::bench {

/// The run time's GEMM plan, made on rank 0 and sent to the others: its candidate and C's
/// row and column maps and grid, from which op(A) and op(B) are aligned as the plan aligns them.
struct PlannedGemm {
  core::Candidate candidate;
  std::unique_ptr<layout::CartesianDistribution> a, b, c;
};

inline std::string e_text(const std::vector<char>& text) { return std::string(text.begin(), text.end()); }

/// @throws std::runtime_error on every rank when the planner refused (InvalidArgument) on rank 0.
inline PlannedGemm planned_gemm(const std::vector<double>& speeds, std::int64_t n, double& planning_s) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  PlannedGemm planned;
  std::vector<int> row_map, col_map, grid;  // grid: nprow, npcol, then the ranks row-major
  std::vector<std::int64_t> tile(1);
  core::Prediction prediction;
  std::vector<char> refusal;  // rank 0's planner's message when it refused
  if (rank == 0) {
    const auto start = std::chrono::steady_clock::now();
    std::optional<runtime::GemmLayout> made;
    try {
      made.emplace(runtime::plan_gemm_layout(speeds, n, n, n));
    } catch (const std::exception& e) {
      refusal.assign(e.what(), e.what() + std::strlen(e.what()));
    }
    broadcast_vector(refusal, MPI_COMM_WORLD);
    if (!made) throw std::runtime_error("the run time's GEMM planner refused: " + e_text(refusal));
    const runtime::GemmLayout& plan = *made;
    planning_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    prediction.candidate = plan.candidate;
    row_map = plan.c->row_map(), col_map = plan.c->col_map();
    grid = {plan.c->grid().nprow(), plan.c->grid().npcol()};
    grid.insert(grid.end(), plan.c->grid().ranks().begin(), plan.c->grid().ranks().end());
    tile[0] = plan.tile;
  } else {
    broadcast_vector(refusal, MPI_COMM_WORLD);
    if (!refusal.empty())
      throw std::runtime_error("the run time's GEMM planner refused: " + e_text(refusal));
  }
  broadcast_prediction(prediction, MPI_COMM_WORLD);
  broadcast_vector(row_map, MPI_COMM_WORLD), broadcast_vector(col_map, MPI_COMM_WORLD);
  broadcast_vector(grid, MPI_COMM_WORLD), broadcast_vector(tile, MPI_COMM_WORLD);
  planned.candidate = prediction.candidate;
  planned.c = std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(n, tile[0]), layout::TileSplit(n, tile[0]), row_map, col_map,
      layout::ProcessGrid(grid[0], grid[1], std::vector<int>(grid.begin() + 2, grid.end()), ranks));
  planned.a = runtime::aligned_distribution(*planned.c, n, n);
  planned.b = runtime::aligned_distribution(*planned.c, n, n);
  return planned;
}

}  // namespace hetscal::bench
