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

/// Per entry k of `panels`, a lower bound of panel k's seconds on `layout` as the LU (QR) step
/// models price it (its gather and factorisation and its delivery): panel_chain_lower_bound's
/// term for that step. With a lookahead of one, the step before panel k lasts at least that
/// long (lookahead_steps.hpp). 0 for a k past the last panel and for other routines.
std::vector<double> panel_floors(const Platform& platform, Routine routine, const TileOwnership& layout,
                                 const std::vector<std::size_t>& panels);

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

/// A lower bound of the seconds LU's and QR's steps spend on their column messages, on every
/// Cartesian grid of distinct processors with `grid_cols` columns and a row per share of
/// `row_shares`, tile rows dealt in suffix_balanced_order of them (cholesky_ordering.hpp:
/// apportioned by largest remainder), or cyclically for equal shares (2DBC), tile `tile` on
/// an M×N matrix (`shape`): found from the sketch, like cartesian_panel_chain_lower_bound.
/// Every step's window (lookahead_steps.hpp) holds these messages: LU's before its update,
/// so the bound adds to the update's compute bound; QR's alongside its flops (the W exchange
/// overlaps them, qr_steps.cpp), so it bounds the window on its own. In step k, some column class has ⌈J/q⌉ of the J
/// trailing tile columns, and the rank at its tile row k (LU's row block solver, QR's W root)
/// exchanges them with every other rank of its column holding a tile row below k: LU sends U
/// there, QR receives the partial W and sends W back (two messages). A shared bus carries every
/// column class's exchange one after another: all J columns count there. The R tile rows below k
/// hold every row class once R reaches the window of the order (the last
/// Σ share / share_min + p tile rows hold every class's last), and below it at least R over
/// the most tile rows one class may hold. The sum is discounted by kSampledMessageAllowance: a
/// long sequence is priced on sampled steps, whose sum may fall a little below the exact one.
/// 0 for other routines, a single grid row or a share that is not positive and finite. In O(p).
double cartesian_column_message_lower_bound(const Platform& platform, Routine routine, MatrixShape shape,
                                            std::size_t tile, const std::vector<double>& row_shares,
                                            std::size_t grid_cols);

/// The fraction of the exact message sum that cartesian_column_message_lower_bound claims:
/// the sampled steps' sum (step_sampling.hpp) lies within a few per cent of the exact one on
/// these smooth sequences, and a pruning bound must not exceed what the pricing would find.
inline constexpr double kSampledMessageAllowance = 0.9;

}  // namespace hetscal::core
