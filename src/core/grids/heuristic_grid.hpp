#pragma once
/// @file heuristic_grid.hpp
/// The polynomial heuristic of Boudet, Petitet, Rastello & Robert 1999 (§4.4) end to end:
/// separation of the slow processors, arrangement, r/c rule, refinement.
#include <cstddef>
#include <vector>

#include "core/grids/grid_shares.hpp"
#include "core/grids/heuristic_arrangement.hpp"
#include "core/grids/separation.hpp"
#include "core/grids/share_rules.hpp"

namespace hetscal::core {

/// Which border-fill variants the heuristic tries.
enum class FillSearch {
  PaperOnly,     ///< the paper's fill (reproduces its examples)
  BothVariants,  ///< also FillVariant::Mirrored; the better W is kept (paper's among equals)
};

/// Options of the heuristic.
struct HeuristicOptions {
  double jump_angle = kDefaultJumpAngle;  ///< separation threshold (separation.hpp)
  RefinementOptions refinement;           ///< §4.4.4 loop limits
  FillSearch fills = FillSearch::PaperOnly;
};

/// A heuristic plan for one p×q grid.
struct HeuristicGridResult {
  Arrangement arrangement;        ///< processor indices refer to the caller's list
  GridSplit split;                ///< fast/slow regions (direction None: all close)
  FillVariant fill = FillVariant::Paper;  ///< border-fill variant of the arrangement
  std::size_t fast_count = 0;     ///< fast processors among the p·q used
  Shares rule_shares;             ///< §4.4.3, before refinement
  Shares shares;                  ///< after the §4.4.4 refinement; max r_i·t_ij·c_j = 1
  double rule_work_per_time = 0.0;  ///< W of rule_shares
  double work_per_time = 0.0;       ///< W of shares
  std::size_t refinement_half_steps = 0;
};

/// Plans a p×q grid with the fastest p·q processors: separation (§4.4), arrangement
/// (§4.4.1/§4.4.2; with slow processors, every fewest-misplaced split is tried and the best
/// W after refinement kept, columns first among equals; with FillSearch::BothVariants the
/// same for both fill variants), r/c rule (§4.4.3), refinement (§4.4.4).
/// @param cycle_times t_k > 0 per processor (any order, any scale).
/// @param p, q grid size, p·q <= cycle_times.size().
/// @param options separation threshold and refinement limits.
/// @return the plan.
/// @throws InvalidArgument on a bad cycle-time, p or q = 0, or p·q larger than the list.
HeuristicGridResult plan_grid_heuristic(const std::vector<double>& cycle_times, std::size_t p,
                                        std::size_t q, const HeuristicOptions& options = {});

/// plan_grid_heuristic on processors already sorted (sort once, plan many grid sizes).
/// @throws InvalidArgument if p or q = 0 or p·q > sorted.size().
HeuristicGridResult plan_grid_heuristic_sorted(const SortedProcessors& sorted, std::size_t p,
                                               std::size_t q,
                                               const HeuristicOptions& options = {});

}  // namespace hetscal::core
