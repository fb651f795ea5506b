#pragma once
/// @file time_model_steps.hpp
/// The step-by-step part of the time model (time_model.hpp): compute, panel and
/// communication time of one routine on one tile ownership, and the network's pricing of
/// broadcasts and redistribution. Split out so that each piece can be tested on its own.
#include <cstddef>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

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
};

/// @param tile nb.
RoutineCosts routine_costs(Routine routine, double tile);

/// Broadcast of `bytes` from one process to a group of `group` processes (sender included):
/// 0 if group <= 1; shared bus: (group − 1) messages; switched: ⌈log2 group⌉ message times.
double broadcast_time(const Network& network, std::size_t group, double bytes);

/// The messages of one communication phase: a shared bus adds everything; a switched network
/// takes the busiest sender (groups run in parallel, one sender's broadcasts one after another)
/// or, when receives are recorded, the busiest receiver, or the busiest node link of either
/// (Network::busiest: a node's senders share its link).
class BroadcastPhase {
 public:
  /// @param processors the platform's processors, when known: each side's table is made at
  ///   that size once, where growing it message by message reallocated it a dozen times.
  explicit BroadcastPhase(const Network& network, std::size_t processors = 0);
  /// `times` broadcasts of `bytes` each from `sender` to a group of `group` processes,
  /// sender included.
  void broadcast(std::size_t sender, std::size_t group, double bytes, double times = 1.0);
  /// Broadcasts from `sender` whose trees take `seconds` in all (broadcast() with the time
  /// known: a step model that sends thousands of tiles to few group sizes keeps their times).
  void broadcasts_of(std::size_t sender, double seconds);
  /// `times` point-to-point messages of `bytes` each from `from` to `to` (both sides counted).
  void message(std::size_t from, std::size_t to, double bytes, double times = 1.0);
  /// `receiver` takes in `messages` messages of `bytes` each (a switched network's receive
  /// side; the shared bus already counts every message once in broadcast()).
  void receive(std::size_t receiver, double bytes, double messages = 1.0);
  /// Shared bus: every message; switched: the busiest sender or receiver, or node link.
  double time() const;

 private:
  /// One side's seconds, by processor and by node link (Network::node_of), with their largest
  /// kept as they grow: a step model asks time() once a phase, and a scan of thousands of
  /// processors each time was most of a large platform's pricing.
  struct Side {
    std::vector<double> per_processor;  ///< grown on demand
    std::vector<double> per_link;
    double busiest = 0.0;
  };
  void add(Side& side, std::size_t processor, double seconds) const;

  const Network& network_;
  double bus_total_ = 0.0;
  Side senders_;
  Side receivers_;
};

/// Slowest processor's seconds for work_tiles[x] tiles of `flops_per_tile` each on processor
/// x, at its speed times the kernel `efficiency`.
double slowest_time(const Platform& platform, const std::vector<double>& work_tiles,
                    double flops_per_tile, double efficiency);

/// The shape a layout given to simulate_steps must cover: max(M, K) × max(N, K) for GEMM (its
/// steps reach over A, B and C), M × N otherwise.
MatrixShape step_layout_shape(const Problem& problem);

/// Compute, panel and communication seconds of `problem`'s routine on its M×N (GEMM: M×N×K)
/// shape laid out by `layout` (redistribution and memory are priced by the caller,
/// time_model.cpp), as ScaLAPACK runs it (LU: PDGETRF, whose PDGETF2 searches and
/// broadcasts each pivot over the process column and whose PDLASWP swaps row by row; hetscal's
/// own LU is lu_steps.hpp's). Tiles are counted whole. Step j is tile column j; its diagonal (GEMM: B's
/// row panel) is the tile row holding that column's first element, so mb×nb tiles and
/// submatrix offsets are priced too.
/// @param layout covers step_layout_shape(problem) at least.
/// @pre every owner of layout is < platform.size().
/// @throws InvalidArgument if the problem is invalid (require_valid) or layout covers less
///   than step_layout_shape(problem).
TimeBreakdown simulate_steps(const Platform& platform, const Problem& problem,
                             const TileOwnership& layout);

/// The problem of layout's whole M×N shape (GEMM: K = N): simulate_steps(platform,
/// {routine, N, {}, M}, layout).
/// @pre every owner of layout is < platform.size().
TimeBreakdown simulate_steps(const Platform& platform, Routine routine, const TileOwnership& layout);

/// Time to move one matrix from `held_from` to `held_to` (elements per processor) of which
/// `kept` stay in place. Shared bus: all bytes and messages serialised; switched: the busiest
/// processor's or node link's (Network::node_of) sent or received bytes, and one message per peer.
double redistribution_time(const Network& network, const std::vector<double>& held_from,
                           const std::vector<double>& held_to, const std::vector<double>& kept);

}  // namespace hetscal::core
