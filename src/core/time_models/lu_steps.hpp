#pragma once
/// @file lu_steps.hpp
/// hetscal's LU kernel (kernels/lu.hpp) priced step by step on a tile ownership of an M×N
/// matrix with square nb×nb tiles, message by message as the kernel sends them; ScaLAPACK's
/// PDGETRF on the caller's layout is priced by time_model_steps.hpp instead. Step k (tile
/// column k, T_r tile rows, T_c tile columns, ⌈min(M, N)/nb⌉ steps, tiles counted whole):
///   panel          every other owner of the panel tiles (i,k), i >= k, sends them to the panel
///                  rank in one message — the owner of the diagonal tile, or the fastest owner
///                  of a panel tile, lowest rank on ties (PanelRank) —; LAPACK's getrf there
///                  (h·nb³ − nb³/3 flops for h tiles); then one message to every other rank
///                  holding the tile rows it needs (its own panel tiles, L(k,k) for the row
///                  block, L(i,k) for its trailing tiles of row i), and the nb pivots to every
///                  rank (a broadcast);
///   row swaps      the interchanges on the tile columns right of the panel, composed into one
///                  permutation: one message each way between the owner of tile (k,j) and the
///                  owner of a pivot's tile row, per pair of ranks; a pivot lies in each of the
///                  T_r − k panel tile rows alike, so a pair exchanges (tile columns j > k
///                  whose tile (i,j), i >= k, it owns and the owner of (k,j) does not) /
///                  (T_r − k) tiles' worth (the swaps left of the panel run after the update,
///                  off the critical path, and are not priced);
///   row block      the owners of tiles (k,j), j > k, solve them (TRSM, nb³ each) and send each
///                  rank with trailing tiles in column j its U(k,j), one message per pair;
///   update         the trailing tiles (i,j), i, j > k: GEMM, 2nb³ each.
/// Lookahead of one: tile column k+1 is swapped, solved and updated first and panel k+1
/// started, then the rest of the swaps, row block and update run while it travels. So step
/// k lasts max(window, gather + getrf + the panel rank's own part, gather + getrf +
/// delivery), the window being the swaps' and U messages' time + the slowest TRSM + the
/// slowest update (the panel rank waits for its gathered tiles and factorises them before
/// doing its part). The messages count as communication, the slowest TRSM and what exceeds
/// the window as panel time (exposed), the slowest update as compute; panel 0 is exposed
/// whole.
#include <cstddef>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Tiles one processor sends another in one message.
struct PairMessage {
  std::size_t from = 0;
  std::size_t to = 0;
  double tiles = 0.0;
};

/// Merges `messages` into one entry per (from, to) pair, tiles summed in their order: sorted by
/// sender, a sender's receivers in the order they first appear.
void merge_pair_messages(std::vector<PairMessage>& messages);

/// What step k of hetscal's LU kernel asks of each processor.
struct LuStepLoad {
  std::size_t panel_rank = 0;      ///< where the panel is gathered and factorised
  double panel_tiles = 0.0;        ///< tiles (i,k), i >= k
  std::vector<double> gathered;    ///< per processor: its panel tiles sent to the panel rank
  std::vector<double> factored;    ///< per processor: the factored tiles the panel rank sends it
  /// Row swaps: tiles' worth `from` sends `to` (and `to` sends `from`), one entry per pair.
  std::vector<PairMessage> swaps;
  std::vector<double> trsm_tiles;  ///< per processor: row block tiles (k,j), j > k
  std::vector<PairMessage> u_messages;  ///< U(k,j) tiles, one entry per pair
  std::vector<double> gemm_tiles;  ///< per processor: trailing tiles (i,j), i, j > k
};

/// Walks the steps of hetscal's LU on a layout, in O(classes·(classes + P)) per step.
class LuSteps {
 public:
  /// @param layout kept by reference: it must outlive this object.
  /// @param processors platform size; every owner must be smaller.
  /// @param speeds per processor (PanelRank::Fastest picks the fastest, lowest index on ties).
  /// @throws InvalidArgument if the tiles are not square and aligned (row_block() != tile or
  ///   an offset), an owner is >= processors, or speeds has not one entry per processor.
  LuSteps(const TileOwnership& layout, std::size_t processors, PanelRank panel_rank,
          std::vector<double> speeds);

  std::size_t steps() const { return steps_; }

  /// The panel rank of step k (< steps()).
  std::size_t panel_rank(std::size_t k) const;

  /// The load of step k. @throws InvalidArgument if k >= steps().
  LuStepLoad step(std::size_t k) const;

  /// Step k's panel alone: panel_rank, panel_tiles, gathered and factored as step(k) has
  /// them, the rest empty (lookahead_steps.hpp prices a sampled step's next panel, not its
  /// swaps and update). @throws InvalidArgument if k >= steps().
  LuStepLoad panel_step(std::size_t k) const;

 private:
  /// Step k's tiles per class: panel rows (i >= k), trailing rows and columns (> k).
  struct Counts {
    std::vector<std::size_t> panel_rows, trailing_rows, trailing_cols;
  };
  Counts counts(std::size_t k) const;
  Counts checked_counts(std::size_t k) const;  ///< counts(k); throws if k >= steps()
  LuStepLoad panel_load(std::size_t k, const Counts& c) const;  ///< panel_step's fields
  std::size_t panel_rank(std::size_t k, const std::vector<std::size_t>& panel_rows) const;
  void add_panel(LuStepLoad& load, std::size_t k, const Counts& c) const;             ///< gathered, factored
  void add_swaps_and_update(LuStepLoad& load, std::size_t k, const Counts& c) const;  ///< swaps, gemm_tiles
  void add_row_block(LuStepLoad& load, std::size_t k, const Counts& c) const;         ///< trsm_tiles, u_messages

  const TileOwnership& layout_;
  std::size_t processors_, steps_, tile_rows_, tile_cols_;
  PanelRank panel_rank_;
  std::vector<double> speeds_;
  SuffixClassCounts rows_from_, cols_from_;
};

/// Compute, panel and communication seconds of hetscal's LU on layout's M×N matrix.
/// @throws InvalidArgument as LuSteps.
TimeBreakdown simulate_lu(const Platform& platform, const TileOwnership& layout, PanelRank panel_rank);

}  // namespace hetscal::core
