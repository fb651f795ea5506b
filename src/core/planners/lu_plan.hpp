#pragma once
/// @file lu_plan.hpp
/// The LU planner, which plans QR too (choose_qr_plan: the same candidates, priced by the QR
/// time model): choose_lu_plan builds the distributions an LU factorisation with partial
/// pivoting of an M×N matrix can run on, prices each with the LU time model (time_model.hpp;
/// hetscal's kernel in lu_steps.hpp, ScaLAPACK's PDGETRF on the caller's layout) and keeps
/// the fastest that fits in memory. Candidates, for every tile size and on the fastest k
/// processors (factorization_plan.hpp: the same tile sizes, process counts and grid shapes as
/// the Cholesky planner's):
///   - CallerLayout      the caller's block-cyclic layout as it is (ScaLAPACK's PDGETRF, no
///                       redistribution);
///   - BlockCyclic       2DBC, every grid p×q = k;
///   - HeterogeneousGrid the grid planner's p×q grid (Boudet1999) with its tile rows and columns
///                       in Boudet1999's LU order (Alg. 2.3.1's selection order read backwards,
///                       with_suffix_balanced_order over the M×N tiles), every p×q = k;
///   - G2dbc             G-2DBC (Beaumont2023 §IV) when k is not r·r or r·(r+1);
///   - HeteroPattern     hetscal's heterogeneous pattern (pattern_hetero.hpp), when the k
///                       processors' speeds differ and its cells stay within max_pattern_cells.
/// Patterns are built for pattern_process_counts only. Every candidate but the caller's is
/// priced with the panel factorised by the diagonal tile's owner and, where a column of its
/// owner table holds processors of different speeds, once more by the fastest owner of a
/// panel tile (PanelRank::Fastest, Boudet1999's suggestion).
///
/// The choice becomes a layout::Distribution of the M×N matrix with
/// layout::distribution_of(choice.candidate, M, N, P) (Cartesian kinds: the candidate's tile
/// orders are its row and column maps; patterns: the owner table).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/patterns/pattern_hetero.hpp"
#include "core/planners/factorization_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// The families of distribution the LU planner prices.
enum class LuLayoutKind {
  CallerLayout,       ///< the caller's block-cyclic layout as it is (no redistribution)
  BlockCyclic,        ///< 2DBC on every grid p×q = k
  HeterogeneousGrid,  ///< the grid planner's p×q grid, tile columns in Boudet1999's LU order
  G2dbc,              ///< G-2DBC (Beaumont2023 §IV), any process count
  HeteroPattern,      ///< hetscal's heterogeneous pattern (cells in proportion to speed)
};

/// "caller layout", "2DBC", "hetero grid", "G-2DBC", "hetero pattern".
const char* lu_layout_name(LuLayoutKind kind);

struct LuPlanOptions {
  std::vector<std::size_t> tile_sizes{64, 128, 256};  ///< those > min(M, N) skipped (the smallest kept)
  std::vector<LuLayoutKind> kinds{LuLayoutKind::CallerLayout, LuLayoutKind::BlockCyclic,
                                  LuLayoutKind::HeterogeneousGrid, LuLayoutKind::G2dbc,
                                  LuLayoutKind::HeteroPattern};
  std::size_t max_processors = 0;  ///< 0: all of the platform's
  /// Heterogeneous patterns: at least this many cells for the slowest node (their size grows
  /// with the speed ratio), and no pattern of more cells than max_pattern_cells.
  HeteroPatternOptions hetero_pattern{4, 60, 0};
  double max_pattern_cells = 65536;
  /// Process counts, pruning and this pricer's slice (candidate_search.hpp).
  SearchOptions search;
};

/// One priced candidate; pattern_cost is T = x̄ + ȳ (lu_cost) for patterns and 2DBC.
using LuCandidate = PricedCandidate<LuLayoutKind>;

/// What choose_lu_plan decided (the candidate carries its panel rank), and everything it
/// priced.
using LuChoice = PlanChoice<LuLayoutKind>;

/// The problem and the candidates choose_lu_plan (routine LU) or choose_qr_plan (QR) prices,
/// not yet priced, in the planners' order.
/// @throws as choose_lu_plan, except that nothing is priced.
PlanCandidates<LuLayoutKind> lu_plan_candidates(Routine routine, const Platform& platform, std::int64_t m,
                                                std::int64_t n, const CallerLayout& caller,
                                                const LuPlanOptions& options = {});

/// Chooses the distribution, tile size, processors and panel rank for the LU factorisation
/// of an M×N matrix held in `caller`'s layout on `platform`.
/// @param m rows M (>= 1).
/// @param n columns N (>= 1).
/// @param caller the caller's block-cyclic layout (where the data are, and the in-place candidate).
/// @throws InvalidArgument on an invalid platform (require_valid), M or N < 1, an empty or
///   zero tile size list, no kind to price, a caller grid that names a processor the
///   platform lacks; the message names the problem.
/// @throws Error if no candidate fits in memory.
LuChoice choose_lu_plan(const Platform& platform, std::int64_t m, std::int64_t n,
                        const CallerLayout& caller, const LuPlanOptions& options = {});

/// Chooses among the same candidates for the QR factorisation of an M×N matrix: the caller's
/// layout priced as ScaLAPACK's PDGEQRF, the others as hetscal's QR kernel (qr_steps.hpp),
/// whose panel rank is chosen as the LU's.
/// @throws as choose_lu_plan, naming choose_qr_plan.
LuChoice choose_qr_plan(const Platform& platform, std::int64_t m, std::int64_t n,
                        const CallerLayout& caller, const LuPlanOptions& options = {});

}  // namespace hetscal::core
