#pragma once
/// @file cholesky_tiles.hpp
/// Internal to kernels::cholesky: who owns and who needs which tile, read from the
/// Distribution alone (identical on every rank), in the driver's lower-triangle view
/// (cholesky_tile_ops.hpp: logical tile (i, j), i >= j).
///
/// After step k, panel tile L_ik (i > k) is needed by the owners of the trailing tiles of
/// logical row i, (i, j) with k < j <= i, and of logical column i, (l, i) with l >= i: the
/// colrow of i restricted to the trailing triangle (Beaumont2023). Each panel tile goes to
/// exactly those ranks; the tiles one rank sends another in a step travel as one message.
#include <cstdint>
#include <vector>

#include "kernels/blas_enums.hpp"
#include "kernels/rank_groups.hpp"
#include "layout/distribution.hpp"
#include "layout/owner_reach.hpp"

namespace hetscal::kernels::detail {

/// The tile structure of the factorisation on one rank.
class CholeskyTiles {
 public:
  /// @pre d's row and column splits are equal (square tiles).
  CholeskyTiles(Uplo uplo, const layout::Distribution& d, int my_rank);

  std::int64_t count() const { return count_; }
  std::int64_t size(std::int64_t line) const { return d_->rows().size(line); }
  std::int64_t offset(std::int64_t line) const { return d_->rows().offset(line); }
  int my_rank() const { return me_; }
  int num_ranks() const { return d_->num_ranks(); }

  /// Physical tile of logical tile (i, j), i >= j.
  layout::GlobalTile physical(std::int64_t i, std::int64_t j) const {
    return uplo_ == Uplo::Lower ? layout::GlobalTile{i, j} : layout::GlobalTile{j, i};
  }
  int owner(std::int64_t i, std::int64_t j) const { return d_->owner(physical(i, j)); }

  /// Logical rows i >= j of logical column j whose tiles this rank owns, increasing.
  const std::vector<std::int64_t>& my_rows_in_column(std::int64_t j) const {
    return my_rows_in_column_[static_cast<std::size_t>(j)];
  }
  /// True when `rank` needs panel tile L_ik (i > k) for the trailing update of step k.
  /// It owns a trailing tile (i, j), k < j <= i, or a tile (l, i), l >= i.
  bool needs_panel_tile(int rank, std::int64_t i, std::int64_t k) const {
    if (rank == me_)
      return my_row_reach_[static_cast<std::size_t>(i)] > k || !my_rows_in_column(i).empty();
    return reach_.row_reach(rank, i, i) > k || reach_.column_reach(rank, i) >= i;
  }
  /// Calls f(rank) for every rank that may need panel tile L_ik (needs_panel_tile tells),
  /// some of them more than once: the owners of logical row i and those of logical column i
  /// from the diagonal down. Costs those ranks, not P.
  template <typename F>
  void for_each_panel_tile_candidate(std::int64_t i, F&& f) const {
    reach_.for_each_row_owner(i, f);
    const auto holders = reach_.column_holders(i);
    for (auto at = holders.first; at != holders.second && at->reach >= i; ++at) f(at->rank);
  }
  /// Sets `ranks` to the owners of the panel tiles L_ik, i > k, other than the diagonal
  /// tile's owner (sorted, unique): the ranks the factorised diagonal tile goes to. Fills
  /// the caller's vector, so that a step reusing it allocates nothing.
  void diagonal_recipients(std::int64_t k, std::vector<int>& ranks) const;

 private:
  Uplo uplo_;
  const layout::Distribution* d_;
  int me_;
  std::int64_t count_;
  std::vector<std::vector<std::int64_t>> my_rows_in_column_;
  std::vector<std::int64_t> my_row_reach_;  ///< per line i: largest j <= i this rank owns, or -1
  layout::OwnerReach reach_;  ///< in the logical view
};

/// Where the panel tiles of one step sit in this rank's panel buffer, and the messages that
/// fill it. Each tile is contiguous (TriangleOps::panel_ld); the buffer holds first the
/// tiles this rank solves itself, then, per sending rank in increasing order, the tiles it
/// sends, each group in increasing line order, so that one message fills one group.
/// Planned again in place at every step: once every step has been planned on an object
/// (CholeskyWorkspace does so before the first message), its vectors have their largest
/// size and later plans allocate nothing.
class PanelExchange {
 public:
  /// Tiles sent to one rank: element offsets and counts in the buffer (one per tile).
  struct Send {
    std::vector<int> offsets, counts;
  };
  /// One contiguous group received from one rank.
  struct Receive {
    int rank = 0;
    std::int64_t offset = 0, count = 0;
  };

  /// Plans step k's exchange on this rank.
  /// @throws InvalidArgument when an offset exceeds MPI's int.
  void plan(const CholeskyTiles& tiles, std::int64_t k);

  std::int64_t step() const { return step_; }
  /// Offset of panel tile `line` in the buffer, -1 when this rank does not hold it.
  std::int64_t start(std::int64_t line) const { return start_[static_cast<std::size_t>(line)]; }
  /// Lines whose panel tile this rank owns and solves, increasing.
  const std::vector<std::int64_t>& own_lines() const { return own_lines_; }
  /// Indexed by rank: what this rank sends it (empty counts: nothing).
  const std::vector<Send>& sends() const { return sends_; }
  /// Number of ranks sends() has a message for.
  std::size_t send_count() const;
  const std::vector<Receive>& receives() const { return receives_; }
  /// Size of the buffer.
  std::int64_t elements() const { return elements_; }

 private:
  std::int64_t step_ = 0;
  std::vector<std::int64_t> start_;
  std::vector<std::int64_t> own_lines_;
  std::vector<Send> sends_;
  std::vector<Receive> receives_;
  std::int64_t elements_ = 0;
  RankGroups senders_;  ///< the panel tiles this rank receives, by sender
  RanksMet met_;  ///< a round per panel tile planned
};

}  // namespace hetscal::kernels::detail
