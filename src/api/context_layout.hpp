#pragma once
/// @file context_layout.hpp
/// The layout every matrix of a native API context follows, planned once for the routine the
/// context was created for: a heterogeneous Cartesian grid (one column-major local array per
/// process, as ScaLAPACK keeps its matrices) or an R×C pattern laid over the tiles
/// cyclically (2DBC, G-2DBC, GCR&M, heterogeneous patterns; tiles stored one after the other).
/// Cholesky contexts take the layout the shim's PDPOTRF would (runtime::choose_cholesky_layout:
/// ordered heterogeneous grids, the heterogeneous symmetric pattern, rank subsets included),
/// LU contexts the layout the shim's PDGETRF would (runtime::choose_lu_layout: grids in LU
/// order, G-2DBC, the heterogeneous pattern, rank subsets, the panel rank), QR contexts the
/// one the shim's PDGEQRF would (runtime::choose_qr_layout: the same families priced as a
/// QR); GEMM contexts the grid planner's grid or the fastest generated pattern.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/planners/cholesky_plan.hpp"
#include "core/planners/lu_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "kernels/lu.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::api {

/// Which kind of layout a context may take.
enum class LayoutKind {
  Any,        ///< the faster of the two by the time model's prediction
  Cartesian,  ///< a heterogeneous Cartesian grid
  Pattern,    ///< an owner pattern
};

/// What a context is planned for: the routine and its dimensions (GEMM: C is M×N, inner
/// dimension K; LU, QR: an M×N matrix; Cholesky: N×N).
struct LayoutRequest {
  core::Routine routine = core::Routine::Gemm;
  LayoutKind kind = LayoutKind::Cartesian;
  std::int64_t m = 1, n = 1, k = 1;
  /// Where the data come from and go back to (a block-cyclic layout of the context's ranks):
  /// the Cholesky, LU and QR planners price the moves in and out of it.
  core::CallerLayout caller;

  /// The problem as the core time model sees it (the square order N for Cholesky).
  core::Problem problem() const;
};

struct ContextLayout {
  core::Candidate candidate;  ///< as the time model prices it: kind Cartesian or Pattern
  /// Cartesian layouts: the planned distribution (GEMM's C of the M×N×K product, an M×N
  /// matrix, or Cholesky's N×N one with its tile orders), whose row and column maps repeat
  /// over matrices of other sizes; null for patterns.
  std::shared_ptr<const layout::CartesianDistribution> grid;
  std::string description;  ///< one line for HETSCAL_VERBOSE and reports
  /// LU and QR contexts: where kernels::lu or kernels::qr (QrOptions is LuOptions)
  /// factorises the panels, as the planner priced it.
  kernels::LuOptions lu_options;

  bool cartesian() const { return grid != nullptr; }
  std::int64_t tile() const { return static_cast<std::int64_t>(candidate.tile); }
  int num_ranks = 0;  ///< processes of the context's grid, owners 0..num_ranks-1

  /// A rows×cols matrix in this layout: tile (I, J) of any matrix lives where tile (I, J) of
  /// the planned one does (the grid's maps or the pattern repeat over larger matrices).
  /// @pre rows, cols >= 0.
  std::unique_ptr<layout::Distribution> distribution(std::int64_t rows, std::int64_t cols) const;
  /// This process's storage of a matrix of distribution(): a column-major array with leading
  /// dimension `lld` (0: LOCr) for Cartesian layouts, tiles one after the other otherwise.
  /// @throws InvalidArgument when lld is below LOCr.
  std::unique_ptr<layout::LocalLayout> storage(const layout::Distribution& d, int rank,
                                               std::int64_t lld) const;
};

/// The Cholesky planner's kinds a context of layout `kind` chooses from: Cartesian the grids
/// (2DBC, heterogeneous grid), Pattern the patterns (G-2DBC, GCR&M, heterogeneous symmetric),
/// Any all of them; never the caller's layout, since a context computes on its own.
std::vector<core::CholeskyLayoutKind> cholesky_kinds(LayoutKind kind);

/// The LU planner's kinds an LU or QR context of layout `kind` chooses from: Cartesian the grids (2DBC,
/// heterogeneous grid), Pattern the patterns (G-2DBC, heterogeneous pattern), Any all of
/// them; never the caller's layout.
std::vector<core::LuLayoutKind> lu_kinds(LayoutKind kind);

/// Plans a context's layout: for Cholesky runtime::choose_cholesky_layout's choice among
/// cholesky_kinds(request.kind), for LU (QR) runtime::choose_lu_layout's
/// (runtime::choose_qr_layout's) among lu_kinds(request.kind), moves from request.caller
/// priced; for GEMM the grid planner's grid or the fastest pattern by compute time.
/// @param speeds relative speed per rank of the context's grid.
/// @param platform the measured machine of those ranks (core time model's input).
/// @throws InvalidArgument when no layout of the requested kind fits the dimensions (fewer
///         tiles than grid rows or columns) or the dimensions are invalid (Cholesky with M ≠ N).
/// @throws hetscal::Error when no Cholesky, LU or QR layout fits in the ranks' memory.
ContextLayout plan_context_layout(const LayoutRequest& request, const std::vector<double>& speeds,
                                  const core::Platform& platform);

/// What ScaLAPACK would use instead of `planned`, for speed-up predictions: the same grid
/// with equal shares (its even block-cyclic split), or for a pattern the near-square 2D
/// block-cyclic grid of all `ranks` processes, with the same tile size.
core::Candidate scalapack_candidate(const core::Candidate& planned, std::size_t ranks);

/// (Σ work / Σ speeds) / max(work_i / speed_i) over the processes, where work_i is the
/// number of elements process i owns of the planned matrix (its lower triangle for
/// Cholesky): 1 when every process finishes its share at the same time.
double layout_balance(const ContextLayout& layout, const LayoutRequest& request,
                      const std::vector<double>& speeds);

}  // namespace hetscal::api
