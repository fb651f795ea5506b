#pragma once
/// @file potrf_plan.hpp
/// hetscal's layout for one Cholesky factorization of order N on a context's ranks, chosen by
/// the core Cholesky planner (core::choose_cholesky_plan): the caller's own block-cyclic
/// layout, 2DBC and ordered heterogeneous grids on every shape, G-2DBC, GCR&M and the
/// heterogeneous symmetric pattern, each at several tile sizes and on the fastest k ranks,
/// priced by the Cholesky time model with the moves in and out. The shim's route and the
/// native API only see a CholeskyLayout.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/planners/cholesky_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/distribution.hpp"

namespace hetscal::runtime {

struct CholeskyLayout {
  core::CholeskyLayoutKind kind = core::CholeskyLayoutKind::CallerLayout;
  std::int64_t tile = 1;                    ///< square tiles: rows and columns split alike
  /// The N×N matrix on the planned ranks (a rank outside `ranks` owns no tile); null when the
  /// caller's layout is predicted fastest (ScaLAPACK computes on its own distribution).
  std::unique_ptr<layout::Distribution> a;
  core::Candidate candidate;                ///< the layout as the time model sees it
  std::vector<std::size_t> ranks;           ///< the ranks that own tiles, increasing
  double predicted_s = 0.0;                 ///< the model's total, moves in and out included
  std::string description;                  ///< one line for HETSCAL_VERBOSE

  bool keeps_caller_layout() const { return kind == core::CholeskyLayoutKind::CallerLayout; }
};

/// Plans the layout of an N×N Cholesky held in problem.caller's layout: the fastest that fits
/// in memory among the candidates of core::choose_cholesky_plan, as a Distribution over the
/// platform's processors (Cartesian with the planner's tile orders, or a pattern).
/// @param platform the context's machine (processor i = rank i of the plan).
/// @param problem the call: Routine::Cholesky of order problem.n >= 1 and the caller's layout.
/// @param kinds the kinds of layout to choose from (HETSCAL_CHOLESKY_LAYOUTS; without
///        CallerLayout under HETSCAL_FORCE, which must run hetscal's own layout even where
///        ScaLAPACK's is predicted faster).
/// @throws InvalidArgument for another routine, N < 1, no kind, a caller grid naming a
///         processor the platform lacks, or a platform the model cannot price;
///         hetscal::Error when no candidate fits in memory.
/// @param slice this rank's share of the pricing (as choose_lu_layout's); default: all.
CholeskyLayout choose_cholesky_layout(const core::Platform& platform, const core::Problem& problem,
                                      const std::vector<core::CholeskyLayoutKind>& kinds,
                                      const core::PricingSlice& slice = {});

}  // namespace hetscal::runtime
