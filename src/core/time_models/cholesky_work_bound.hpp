#pragma once
/// @file cholesky_work_bound.hpp
/// A lower bound of what the Cholesky step model (cholesky_steps.hpp) charges a layout, found
/// without walking its steps, so that a search can drop a candidate before pricing it step
/// by step (candidate_search.hpp). Every processor's clock runs at least through its own
/// trailing updates, and tile (i, j), j <= i, of the lower triangle is updated once per step
/// k < j: j times, SYRK (nb³) on the diagonal and GEMM (2nb³) below. So the total is at least
/// one processor's updates summed over the whole factorisation, at its speed. The slowest
/// processor's is taken: on a layout that gives ranks of different speeds equal shares (2D
/// block-cyclic over generations of nodes) it is what the compute bound at perfect balance
/// (compute_lower_bound) misses.
#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"

namespace hetscal::core {

/// Seconds of the slowest owner's trailing updates over every step (its model time
/// `CriticalPath::busy` when the steps are walked exactly), a lower bound of simulate_cholesky
/// (of its exact sum of steps; a sampled sum may differ by its sampling error). In
/// O(tiles · the row classes of that owner's cells).
/// @pre has_diagonal_tiles(layout); every owner < platform.size().
double cholesky_update_lower_bound(const Platform& platform, const TileOwnership& layout);

/// A lower bound of simulate_cholesky from the tiles the processors receive: every
/// processor's clock runs through its own receives (one message time per tile) and its
/// updates, so the total is at least their average over the owners. The receives counted are
/// those of the full colrows (step k's tile L(i,k) whose row reaches every column class and
/// whose column every row class: the owners of its row class and column class of the owner
/// table, less the sender), and the updates at the fastest owner's rate. Where messages
/// dominate (a thousand ranks on a slow network) it is well above the update bound, which
/// counts one processor's updates alone. In O(tiles · log(column classes) + cells ·
/// (rows + cols)) (O(tiles · log) for a grid of distinct processors).
/// @pre has_diagonal_tiles(layout); every owner < platform.size().
double cholesky_message_lower_bound(const Platform& platform, const TileOwnership& layout);

}  // namespace hetscal::core
