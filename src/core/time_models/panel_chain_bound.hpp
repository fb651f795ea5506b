#pragma once
/// @file panel_chain_bound.hpp
/// A lower bound of what hetscal's LU and QR kernels (lu_steps.hpp, qr_steps.hpp) cost on a
/// layout, found without walking their steps, so that a search can drop a candidate before
/// pricing it step by step (candidate_search.hpp). With a lookahead of one every step lasts
/// at least as long as the next panel (lookahead_steps.hpp), so the total is at least the
/// sum of the panels, and each panel takes at least
///   - its factorisation (LU: getrf, QR: geqrf and larft) on the fastest processor, and
///   - the delivery of its tile rows below the diagonal from the panel rank: each goes to
///     every other rank holding one of that row's trailing tiles, in one message per rank,
///     and the panel rank sends them one after another (switched network) or the bus carries
///     them all (shared), each at least its bytes over the bandwidth.
/// A row class holding d distinct ranks still holds at least d − (C − c) of them in the c
/// column classes that have trailing tiles left (each class gone removes at most one), so
/// the delivery is counted from the fewest distinct ranks of any row class: a grid's rows
/// hold C each, a pattern's may repeat ranks.
#include <cstddef>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Seconds that simulate_lu (routine LU) or simulate_qr (QR) on `layout` cannot go below
/// (their exact sum of steps; the sampled sum of a long sequence may differ by its sampling
/// error). 0 for the other routines. In O(tiles + rows·cols + cols·log cols).
/// @pre every owner of layout is < platform.size(); square, aligned tiles (as LuSteps needs).
double panel_chain_lower_bound(const Platform& platform, Routine routine, const TileOwnership& layout);

/// A lower bound of panel_chain_lower_bound for every Cartesian grid of distinct processors
/// with `col_shares.size()` columns, tile `tile` on an M×N matrix (`shape`), whose tile columns
/// are dealt cyclically (2DBC) or in suffix_balanced_order of `col_shares`
/// (cholesky_ordering.hpp): found from the grid's sketch, before its owner table and orders
/// are built (a search drops most candidates on it at a thousand processors). Each column
/// class's last tile column lies within the last Σ share / share_j + q columns (the greedy's
/// first chunks, reversed), so every class is counted as present until then and gone after.
/// 0 (no bound) for other routines, or when the matrix has fewer than twice that many tile
/// columns (a class may have none).
double cartesian_panel_chain_lower_bound(const Platform& platform, Routine routine, MatrixShape shape,
                                         std::size_t tile, const std::vector<double>& col_shares);

}  // namespace hetscal::core
