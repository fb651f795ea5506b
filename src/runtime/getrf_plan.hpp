#pragma once
/// @file getrf_plan.hpp
/// hetscal's layout for one LU factorization of an M×N matrix on a context's ranks, chosen by
/// the core LU planner: the caller's own block-cyclic layout, 2DBC and heterogeneous grids
/// (tile columns in Boudet1999's LU order) on every shape, G-2DBC and the heterogeneous
/// pattern, each at several tile sizes and on the fastest k ranks, priced by the LU time
/// model with the moves in and out. The shim's route and the native API only see a LuLayout.
/// A QR's layout (geqrf_plan.hpp) is planned the same way, in the same source file.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/planners/lu_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "kernels/lu.hpp"
#include "layout/distribution.hpp"

namespace hetscal::runtime {

struct LuLayout {
  core::LuLayoutKind kind = core::LuLayoutKind::CallerLayout;
  std::int64_t tile = 1;                    ///< square tiles: rows and columns split alike
  /// The M×N matrix on the planned ranks (a rank outside `ranks` owns no tile); null when the
  /// caller's layout is predicted fastest (ScaLAPACK computes on its own distribution).
  std::unique_ptr<layout::Distribution> a;
  kernels::LuOptions options;               ///< where panels are factorised
  core::Candidate candidate;                ///< the layout as the time model sees it
  std::vector<std::size_t> ranks;           ///< the ranks that own tiles, increasing
  double predicted_s = 0.0;                 ///< the model's total, moves in and out included
  std::string description;                  ///< one line for HETSCAL_VERBOSE

  bool keeps_caller_layout() const { return kind == core::LuLayoutKind::CallerLayout; }
};

/// Plans the layout of an M×N LU held in problem.caller's layout: the fastest that fits in
/// memory among the candidates of the core LU planner, as a Distribution over the platform's
/// processors (Cartesian with the planner's tile orders, or a pattern).
/// @param platform the context's machine (processor i = rank i of the plan).
/// @param problem the call: Routine::LU, M = problem.rows() >= 1, N = problem.n >= 1, and
///        the caller's layout.
/// @param kinds the kinds of layout to choose from (HETSCAL_LU_LAYOUTS; without
///        CallerLayout under HETSCAL_FORCE).
/// @param slice this rank's share of the pricing and the agreement on the winner
///        (mpi::pricing_slice_over: every rank of the context then calls this); default: all.
/// @throws InvalidArgument for another routine, M or N < 1, no kind, a caller grid naming a
///         processor the platform lacks, or a platform the model cannot price;
///         hetscal::Error when no candidate fits in memory.
LuLayout choose_lu_layout(const core::Platform& platform, const core::Problem& problem,
                          const std::vector<core::LuLayoutKind>& kinds, const core::PricingSlice& slice = {});

}  // namespace hetscal::runtime
