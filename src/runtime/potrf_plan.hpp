#pragma once
/// @file potrf_plan.hpp
/// hetscal's layout for one Cholesky factorization of order N on a context's ranks. The
/// choice is made in one place, choose_cholesky_layout, so that planners of other layouts
/// (symmetric patterns, process subsets) plug in there; the shim's route and the native API
/// only see a CholeskyLayout.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/platform.hpp"
#include "core/time_model.hpp"
#include "layout/distribution.hpp"

namespace hetscal::runtime {

struct CholeskyLayout {
  std::int64_t tile = 1;                    ///< square tiles: rows and columns split alike
  std::unique_ptr<layout::Distribution> a;  ///< the N×N matrix
  core::Candidate candidate;                ///< the layout as the time model sees it
  std::string description;                  ///< one line for HETSCAL_VERBOSE
};

/// Plans the layout of an N×N Cholesky on ranks of the given speeds. For now the
/// heterogeneous Cartesian grid GEMM's planner builds for an N×N×N product (grid shape by
/// the work each cell can do, integer block panels in proportion to speed, square tiles),
/// at the tile size the core time model predicts fastest for the factorization alone:
/// large tiles run BLAS faster, small ones keep the shrinking trailing triangle balanced.
/// The moves in and out are left out of the choice, so that it does not depend on the
/// caller's layout (plans are cached by order and UPLO).
/// @param platform the context's machine (processor i = rank i of the plan).
/// @param problem the call: Routine::Cholesky of order problem.n >= 1 and the caller's layout.
/// @param speeds relative speed per rank of the context's communicator (ranks of the plan).
/// @throws InvalidArgument when no grid shape of the ranks fits N (fewer tiles than grid
///         rows or columns), or the model cannot price the problem.
CholeskyLayout choose_cholesky_layout(const core::Platform& platform, const core::Problem& problem,
                                      const std::vector<double>& speeds);

}  // namespace hetscal::runtime
