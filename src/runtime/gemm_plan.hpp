#pragma once
/// @file gemm_plan.hpp
/// hetscal's layout for one GEMM shape on a context's ranks: the grid arrangement chosen by
/// the core planner among the shapes that fit the matrix, an integer block panel (periodic
/// row and column maps) for C, and op(A), op(B) aligned with it (op(A)'s tile rows follow C's,
/// op(B)'s tile columns follow C's, and the K dimension uses the same maps), so that the
/// SUMMA kernel's panels go along grid rows and columns only. Used by the shim (intercepted
/// PDGEMM) and by the native API (hetscal contexts and their descriptors).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/planners/gemm_grid_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/cartesian_distribution.hpp"
#include "mpi/grid_communicators.hpp"

namespace hetscal::runtime {

/// How much of C each cell of a Cartesian grid computes: rows_i·cols_j elements of C on the
/// rank of relative speed speed[i·cols + j].
struct GridLoad {
  std::vector<std::int64_t> rows;  ///< rows of C per grid row
  std::vector<std::int64_t> cols;  ///< columns of C per grid column
  std::vector<double> speed;       ///< relative speed per cell, row-major
};

/// (Σ rows_i·cols_j / Σ speed_ij) / max_ij(rows_i·cols_j / speed_ij): 1 when every cell
/// finishes its share of C at the same time (the flop balance the layout predicts).
double predicted_balance(const GridLoad& load);

/// The same grid with C's rows and columns dealt evenly over its grid rows and columns (what
/// ScaLAPACK's block-cyclic layout gives on that grid), for speed-up predictions.
GridLoad even_load(const GridLoad& load);

struct GemmLayout {
  std::int64_t tile = 1;
  std::unique_ptr<layout::CartesianDistribution> a;  ///< op(A): M×K
  std::unique_ptr<layout::CartesianDistribution> b;  ///< op(B): K×N
  std::unique_ptr<layout::CartesianDistribution> c;  ///< C: M×N
  GridLoad load;                                     ///< C's rows/columns per grid line
  core::Candidate candidate;                         ///< the layout as the time model sees it
  std::string description;                           ///< one line for HETSCAL_VERBOSE

  /// GEMM always plans a layout of its own (ScaLAPACK's is priced against it in the decision).
  bool keeps_caller_layout() const { return false; }

  /// The row and column communicators of C's grid over `comm`, built by the first call that
  /// computes on this plan and kept with it (a factorization's trailing updates and every
  /// later call of the shape reuse them; they are freed with the plan). Collective over
  /// `comm` the first time: every rank calls it at the same point of the same call.
  const mpi::GridCommunicators& grid_communicators(MPI_Comm comm) const;

 private:
  mutable std::optional<mpi::GridCommunicators> communicators_;
};

/// Plans the layout: core::plan_gemm_grid's grid, tile and panel (on the fastest ranks
/// that pay: a rank far slower than the others may be left idle), as distributions.
/// @param speeds relative speed per rank of the context's communicator (ranks of the plan).
/// @param m,n,k the GEMM's dimensions, >= 1.
/// @param largest_tile, kernel as core::plan_gemm_grid (MachineFigures' kernel; the default
///        prices every tile at the peak).
/// @throws InvalidArgument when no grid shape has as many tile rows and columns as it needs.
GemmLayout plan_gemm_layout(const std::vector<double>& speeds, std::int64_t m, std::int64_t n,
                            std::int64_t k, std::int64_t largest_tile = 0,
                            const core::KernelRate& kernel = {});

/// A rows×cols matrix laid out like `like`: same tile size, row and column maps and grid
/// (tile row I of any matrix lives where tile row I of `like` lives).
/// @pre rows, cols >= 0.
std::unique_ptr<layout::CartesianDistribution> aligned_distribution(
    const layout::CartesianDistribution& like, std::int64_t rows, std::int64_t cols);

/// How much of a Cartesian distribution each grid line holds, with each cell's speed.
/// @param speeds relative speed per rank of the distribution.
GridLoad grid_load(const layout::CartesianDistribution& d, const std::vector<double>& speeds);

}  // namespace hetscal::runtime
