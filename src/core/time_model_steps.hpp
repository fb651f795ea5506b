#pragma once
/// @file time_model_steps.hpp
/// The step-by-step part of the time model (time_model.hpp): compute, panel and
/// communication time of one routine on one tile ownership, and the network's pricing of
/// broadcasts and redistribution. Split out so that each piece can be tested on its own.
#include <cstddef>
#include <vector>

#include "core/platform.hpp"
#include "core/tile_ownership.hpp"
#include "core/time_model.hpp"

namespace hetscal::core {

/// Flop counts per nb×nb tile and the communication structure of a routine's step.
struct RoutineCosts {
  double update_flops_per_tile = 0.0;  ///< trailing (or C) update, per tile, per step
  double update_fraction = 1.0;        ///< 0.5 for Cholesky: only the lower triangle
  double panel_flops_per_tile = 0.0;   ///< panel factorisation, per panel tile
  double row_block_flops_per_tile = 0.0;  ///< LU's U row-block triangular solve
  double column_broadcast_rounds = 1.0;   ///< QR: reduce then broadcast W
  double panel_collectives_per_column = 0.0;  ///< LU pivot search/row, QR norms
  bool factorisation = false;          ///< trailing matrix shrinks (not GEMM)
  bool row_swaps = false;              ///< LU
  std::size_t matrices_in = 1;         ///< arrays moved to the plan (GEMM: A, B, C)
  std::size_t matrices_out = 1;        ///< arrays moved back (C or the factors)
};

/// @param tile nb.
RoutineCosts routine_costs(Routine routine, double tile);

/// Broadcast of `bytes` from one process to a group of `group` processes (sender included):
/// 0 if group <= 1; shared bus: (group − 1) messages; switched: ⌈log2 group⌉ message times.
double broadcast_time(const Network& network, std::size_t group, double bytes);

/// Compute, panel and communication seconds of `routine` on `layout` (redistribution and
/// memory are priced by the caller, time_model.cpp).
/// @pre every owner of layout is < platform.size().
TimeBreakdown simulate_steps(const Platform& platform, Routine routine, const TileOwnership& layout);

/// Time to move one matrix from `held_from` to `held_to` (elements per processor) of which
/// `kept` stay in place. Shared bus: all bytes and messages serialised; switched: the busiest
/// processor's sent or received bytes, and one message per peer.
double redistribution_time(const Network& network, const std::vector<double>& held_from,
                           const std::vector<double>& held_to, const std::vector<double>& kept);

}  // namespace hetscal::core
