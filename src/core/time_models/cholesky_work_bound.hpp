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
#include <cstddef>
#include <limits>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"

namespace hetscal::core {

/// Seconds of the slowest owner's trailing updates over every step (its model time
/// `CriticalPath::busy` when the steps are walked exactly), or of every owner's at perfect
/// balance over those with tiles, the larger: a lower bound of simulate_cholesky (of its exact
/// sum of steps; a sampled sum may differ by its sampling error). Owners of cells no tile
/// falls in (a grid of more rows than tile rows) do not count. In O(tiles · the row classes of
/// that owner's cells + cells).
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

/// A lower bound of simulate_cholesky from the chain of panels: step k's panel is at the ranks
/// only once its colrow phase is over (the busiest sender's broadcasts, or the busiest
/// receiver's tiles), and the trailing update that solves panel k+1 waits for it, so the total
/// is at least the sum of the colrow phases over the steps, each weighted as the model weighs
/// its sampled steps (kSampledSteps per sequence: the full pricing's). A phase is bounded
/// below by every row class's sender, whose colrows' groups are the classes they reach (on a
/// shared bus, where all broadcasts add up, by all of them together), and by
/// two receivers: the owner of the last tile row's cell in the busiest other column class,
/// which every colrow of that class reaches, and the busiest owner in the first other column
/// class after the panel, which every colrow of its row class reaches from there on. Where one
/// rank sends or receives most colrows (1×q and p×1 grids, a slow network) it is close to the
/// model; counted for layouts whose cells have distinct owners (grids), 0 for the others. In
/// O(kSampledSteps · tiles).
/// @param enough a bound the caller needs no more than (its pruning limit): the phases are
///   summed from the first step on, and once the sum exceeds it the rest are not computed (a
///   search prunes the candidate on either value; at a thousand processors most of the
///   candidates that reach this bound are pruned by it).
/// @pre has_diagonal_tiles(layout); every owner < platform.size().
double cholesky_panel_chain_lower_bound(const Platform& platform, const TileOwnership& layout,
                                        double enough = std::numeric_limits<double>::infinity());

/// The chain's terms: per step of `steps` (each < tiles − 1), a lower bound of that step's
/// colrow phase on `network`. Empty unless the cells have distinct owners.
/// @pre has_diagonal_tiles(layout).
std::vector<double> cholesky_colrow_phase_lower_bounds(const Network& network, const TileOwnership& layout,
                                                       const std::vector<std::size_t>& steps);

}  // namespace hetscal::core
