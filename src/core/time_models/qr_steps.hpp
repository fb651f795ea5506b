#pragma once
/// @file qr_steps.hpp
/// hetscal's QR kernel (kernels/qr.hpp) priced step by step on a tile ownership of an M×N
/// matrix with square nb×nb tiles, message by message as the kernel sends them, as
/// lu_steps.hpp prices its LU; ScaLAPACK's PDGEQRF on the caller's layout is priced by
/// time_model_steps.hpp instead. Step k (tile column k, T_r tile rows, T_c tile columns,
/// ⌈min(M, N)/nb⌉ steps, tiles counted whole):
///   panel      every other owner of the panel tiles (i,k), i >= k, sends them to the panel
///              rank in one message (the same panel rank as the LU's, PanelRank); xGEQRF on
///              the h = T_r − k gathered tiles ((2h − 2/3)·nb³ flops) and xLARFT (h·nb³ −
///              nb³/3); then the V tiles of each tile row i >= k, one message to every other
///              rank that owns its panel tile or a trailing tile (i,j), j > k, and τ and T
///              (nb + nb² elements) to every rank (a broadcast);
///   W partials every owner of trailing tiles (i,j), i >= k, j > k, computes V_ikᴴ·A_ij
///              (2nb³ per tile) and sends its partial W_j to the column's root, the owner of
///              tile (k,j): one message per contributor and root with every column the two
///              share;
///   Tᴴ·W        on the root, nb³ per tile column, then W_j back to the contributors (the
///              same messages the other way);
///   update     A_ij −= V_ik·W_j, 2nb³ per trailing tile (i >= k, j > k).
/// Lookahead of one as the LU's (lookahead_steps.hpp), the window being the W messages'
/// time plus the slowest rank's flops (partials, Tᴴ·W, update).
#include <cstddef>
#include <vector>

#include "core/time_models/lu_steps.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// What step k of hetscal's QR kernel asks of each processor.
struct QrStepLoad {
  std::size_t panel_rank = 0;        ///< where the panel is gathered and factorised
  double panel_tiles = 0.0;          ///< tiles (i,k), i >= k
  std::vector<double> gathered;      ///< per processor: its panel tiles sent to the panel rank
  std::vector<double> reflectors;    ///< per processor: the V tiles the panel rank sends it
  std::vector<double> update_tiles;  ///< per processor: trailing tiles (i,j), i >= k, j > k
  std::vector<double> root_columns;  ///< per processor: tile columns j > k whose W_j it reduces
  /// Partial W tiles, contributor (from) to root (to), one entry per pair; W_j comes back
  /// the other way in as many tiles.
  std::vector<PairMessage> w_partials;
};

/// Walks the steps of hetscal's QR on a layout, in O(classes·(classes + P)) per step.
class QrSteps {
 public:
  /// @param layout kept by reference: it must outlive this object.
  /// @throws InvalidArgument as LuSteps (square aligned tiles, owners < processors, one
  ///   speed per processor).
  QrSteps(const TileOwnership& layout, std::size_t processors, PanelRank panel_rank,
          std::vector<double> speeds);

  std::size_t steps() const { return panels_.steps(); }

  /// The load of step k. @throws InvalidArgument if k >= steps().
  QrStepLoad step(std::size_t k) const;

  /// Step k's panel alone: panel_rank, panel_tiles, gathered and reflectors as step(k) has
  /// them, the rest empty (as LuSteps::panel_step). @throws InvalidArgument if k >= steps().
  QrStepLoad panel_step(std::size_t k) const;

 private:
  /// Tile rows i >= k and tile columns j > k per class.
  using Counts = std::vector<std::size_t>;
  /// panel_step's fields.
  QrStepLoad panel_load(std::size_t k, const Counts& panel_rows, const Counts& trailing_cols) const;
  void add_panel(QrStepLoad& load, std::size_t k, const Counts& panel_rows,
                 const Counts& trailing_cols) const;  ///< gathered, reflectors
  void add_reduction(QrStepLoad& load, std::size_t k, const Counts& panel_rows,
                     const Counts& trailing_cols) const;  ///< update, roots, W messages

  const TileOwnership& layout_;
  std::size_t processors_;
  LuSteps panels_;  ///< the panel rank, chosen as the LU's
  SuffixClassCounts rows_from_, cols_from_;
};

/// Compute, panel and communication seconds of hetscal's QR on layout's M×N matrix.
/// @throws InvalidArgument as QrSteps.
TimeBreakdown simulate_qr(const Platform& platform, const TileOwnership& layout,
                          PanelRank panel_rank);

}  // namespace hetscal::core
