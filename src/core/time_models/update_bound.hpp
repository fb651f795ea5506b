#pragma once
/// @file update_bound.hpp
/// A lower bound of what hetscal's LU and QR step models (lu_steps.hpp, qr_steps.hpp) charge
/// a layout, found without pricing their panels, swaps and networks phase by phase, so that a
/// search can drop a candidate before pricing it (candidate_search.hpp). Each step lasts at
/// least its window: LU's U messages, then the slowest rank's row block TRSM and update; QR's
/// slowest rank's flops, or its partial W there and back if they take longer. On a layout
/// that gives ranks of different speeds equal shares (2D block-cyclic over generations of
/// nodes), or rounds a heterogeneous grid's shares to whole tiles, the slowest rank's flops
/// lie far above the flops at perfect balance (compute_lower_bound); on a tall grid over a
/// slow network the column messages dominate. Most candidates of a large platform fall there.
///
/// The sum runs over the very steps a full pricing samples (step_sampling.hpp, kSampledSteps)
/// with the model's own per-rank loads: it bounds the full pricing's total itself, not only
/// its exact sum of steps. A step costs O(rows·cols + P) here, as in the pricing, but without
/// the panel's and the swaps' messages, their merging and the network model that were most of
/// a pricing's time.
#include <limits>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/step_sampling.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Σ over the sampled steps of their windows' lower bounds on `layout` (LU: the U messages of
/// the busiest rank at row k, or of the bus, + the slowest TRSM + the slowest update; QR: the
/// slowest rank's flops or twice its partial W messages), for routine LU or QR; 0 for the
/// other routines.
/// At most what simulate_lu / simulate_qr return for it on kSampledSteps strata.
/// @param enough a bound the caller needs no more than (its pruning limit): the sum stops
///   once it exceeds it.
/// @pre square aligned tiles and owners < platform.size() (as LuSteps).
double sampled_update_lower_bound(const Platform& platform, Routine routine, const TileOwnership& layout,
                                  double enough = std::numeric_limits<double>::infinity());

/// Per sample of an LU or QR step model's sum (lookahead_steps.hpp), a lower bound of what
/// that sample adds to the total before its weight: on a grid, its window's bound as
/// sampled_update_lower_bound has it, each group of four samples at its last step (the bound
/// never grows with k there); on a pattern, the step's update flops at perfect balance over
/// the layout's owners, which costs nothing per step. A search's pricing stops once its
/// partial sum and the floors still to come pass its limit.
/// @pre routine is LU or QR; the samples are steps of `layout`, increasing; as sampled_update_lower_bound.
std::vector<double> sampled_step_floors(const Platform& platform, Routine routine, const TileOwnership& layout,
                                        const std::vector<SampledStep>& samples);

}  // namespace hetscal::core
