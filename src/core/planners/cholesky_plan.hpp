#pragma once
/// @file cholesky_plan.hpp
/// The Cholesky planner: one function, choose_cholesky_plan, builds the distributions a
/// Cholesky factorisation can run on, prices each with the time model (time_model.hpp, whose
/// Cholesky steps are cholesky_steps.hpp: work in one triangle, colrow broadcasts) and keeps
/// the fastest that fits in memory. Candidates, for every tile size and on the fastest k
/// processors:
///   - CallerLayout      the caller's block-cyclic layout as it is (no redistribution);
///   - BlockCyclic       2DBC, every grid p×q = k (Beaumont2023's baseline, any k: fewer
///                       nodes too);
///   - HeterogeneousGrid the grid planner's p×q grid (Boudet1999) with its tile rows and columns
///                       in suffix-balanced order (cholesky_ordering.hpp), every p×q = k;
///   - G2dbc             G-2DBC when k is not r·r or r·(r+1);
///   - Gcrm              the best GCR&M pattern found for k (pattern_gcrm.hpp), for k up to
///                       kMaxGcrmProcessors and where some size balances (its search costs
///                       about k^2.5, every size up to 6√k, each pattern k cells or more: with
///                       the default options it is read from pattern_gcrm_table.hpp);
///   - HeteroSymmetric   the heterogeneous symmetric pattern (pattern_hetero_symmetric.hpp),
///                       when the k processors' speeds differ.
/// Process counts: every k for the grids; for the patterns (whose search costs more) the
/// pattern_process_counts of factorization_plan.hpp, so a very slow rank can be left out (at
/// most log2 of the speed ratio counts besides P). Grids and patterns are listed unmade
/// (DeferredCandidate, candidate_search.hpp): a pattern is made once for its tile sizes, by
/// the pricers whose slice holds one of them (or for the winner), and its T is known then.
/// The heterogeneous symmetric pattern, new work, wins only where its predicted time is the
/// lowest: nothing favours it.
///
/// Turning the choice into a layout::Distribution of the N×N matrix (ranks = platform
/// processor indices, rows = cols = TileSplit(N, tile)): layout::distribution_of(
/// choice.candidate, N, P) (layout/candidate_distribution.hpp) does it, which amounts to:
///   - Cartesian kinds (BlockCyclic, HeterogeneousGrid): layout::CartesianDistribution(rows,
///     cols, row_map = candidate.row_order, col_map = candidate.col_order, ProcessGrid(
///     candidate.rows, candidate.cols, candidate.owner, P)); the orders are always filled;
///   - pattern kinds (G2dbc, Gcrm, HeteroSymmetric): layout::PatternDistribution(rows, cols,
///     candidate.rows, candidate.cols, candidate.owner, P): every cell holds a rank (GCR&M's
///     diagonal cells already given to their colrow's node with the fewest cells, as priced);
///   - CallerLayout: the caller's own block-cyclic distribution.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/patterns/pattern_gcrm.hpp"
#include "core/patterns/pattern_hetero_symmetric.hpp"
#include "core/planners/factorization_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// The families of distribution choose_cholesky_plan prices (file comment).
enum class CholeskyLayoutKind { CallerLayout, BlockCyclic, HeterogeneousGrid, G2dbc, Gcrm, HeteroSymmetric };

/// "caller layout", "2DBC", "hetero grid", "G-2DBC", "GCR&M", "hetero symmetric".
const char* cholesky_layout_name(CholeskyLayoutKind kind);

/// The most processors a GCR&M candidate is searched for (beyond, its search alone would
/// take seconds, and pattern_gcrm_table.hpp holds none; G-2DBC and the heterogeneous
/// symmetric pattern remain).
inline constexpr std::size_t kMaxGcrmProcessors = 512;

struct CholeskyPlanOptions {
  std::vector<std::size_t> tile_sizes{64, 128, 256};  ///< those > N are skipped (the smallest kept)
  std::vector<CholeskyLayoutKind> kinds{
      CholeskyLayoutKind::CallerLayout, CholeskyLayoutKind::BlockCyclic,
      CholeskyLayoutKind::HeterogeneousGrid, CholeskyLayoutKind::G2dbc,
      CholeskyLayoutKind::Gcrm, CholeskyLayoutKind::HeteroSymmetric};
  std::size_t max_processors = 0;  ///< 0: all of the platform's
  /// GCR&M search per process count; the paper's is {6, 100, 0}, slower by 10×. These are
  /// kTabledGcrmSearch's (pattern_gcrm_table.hpp): other options search every count afresh.
  GcrmSearchOptions gcrm{6.0, 10, 0};
  HeteroSymmetricOptions hetero_symmetric{};
  /// Process counts, pruning and this pricer's slice (candidate_search.hpp).
  SearchOptions search;
};

/// One priced candidate; pattern_cost is T = average distinct nodes per colrow
/// (cholesky_cost) for 2DBC and the priced patterns (an unpriced pattern is not made), 0 for
/// the rest.
using CholeskyCandidate = PricedCandidate<CholeskyLayoutKind>;

/// What choose_cholesky_plan decided (candidate: see the file comment), and everything it
/// priced.
using CholeskyChoice = PlanChoice<CholeskyLayoutKind>;

/// The problem and the candidates choose_cholesky_plan prices, not yet priced, in its order.
/// @throws as choose_cholesky_plan, except that nothing is priced.
PlanCandidates<CholeskyLayoutKind> cholesky_plan_candidates(const Platform& platform, std::int64_t n,
                                                            const CallerLayout& caller,
                                                            const CholeskyPlanOptions& options = {});

/// Chooses the distribution, tile size and processors for the Cholesky factorisation of an
/// N×N matrix held in `caller`'s layout on `platform`.
/// @param n the order N (>= 1).
/// @param caller the caller's block-cyclic layout (where the data are, and the in-place candidate).
/// @throws InvalidArgument on an invalid platform (require_valid), N < 1, an empty or zero tile
///   size list, no kind to price, a caller grid that names a processor the platform lacks.
/// @throws Error if no candidate fits in memory (choose()).
CholeskyChoice choose_cholesky_plan(const Platform& platform, std::int64_t n,
                                    const CallerLayout& caller,
                                    const CholeskyPlanOptions& options = {});

}  // namespace hetscal::core
