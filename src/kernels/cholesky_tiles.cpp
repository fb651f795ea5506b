#include "kernels/cholesky_tiles.hpp"

#include <algorithm>

#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

CholeskyTiles::CholeskyTiles(Uplo uplo, const layout::Distribution& d, int my_rank)
    : uplo_(uplo), d_(&d), me_(my_rank), count_(d.rows().count()), reach_(d, uplo == Uplo::Upper) {
  my_rows_in_column_.resize(static_cast<std::size_t>(count_));
  my_row_reach_.assign(static_cast<std::size_t>(count_), -1);
  // Row by row, j increasing: the last write of a reach is the largest j.
  for (std::int64_t i = 0; i < count_; ++i) {
    for (std::int64_t j = 0; j <= i; ++j) {
      if (owner(i, j) != me_) continue;
      my_rows_in_column_[static_cast<std::size_t>(j)].push_back(i);
      my_row_reach_[static_cast<std::size_t>(i)] = j;
    }
  }
}

void CholeskyTiles::diagonal_recipients(std::int64_t k, std::vector<int>& ranks) const {
  const int diagonal_owner = owner(k, k);
  ranks.clear();
  for (std::int64_t i = k + 1; i < count_; ++i) {
    const int rank = owner(i, k);
    if (rank != diagonal_owner) ranks.push_back(rank);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
}

void PanelExchange::plan(const CholeskyTiles& tiles, std::int64_t k) {
  step_ = k;
  start_.assign(static_cast<std::size_t>(tiles.count()), -1);
  own_lines_.clear();
  sends_.resize(static_cast<std::size_t>(tiles.num_ranks()));
  met_.resize(tiles.num_ranks());
  for (Send& send : sends_) {
    send.offsets.clear();
    send.counts.clear();
  }
  receives_.clear();
  elements_ = 0;
  const int me = tiles.my_rank();
  const std::int64_t kb = tiles.size(k);
  for (std::int64_t i = k + 1; i < tiles.count(); ++i) {
    if (tiles.owner(i, k) != me) continue;
    const std::int64_t count = tiles.size(i) * kb;
    own_lines_.push_back(i);
    start_[static_cast<std::size_t>(i)] = elements_;
    // The tile's recipients among the owners of its row and column, not among all P ranks;
    // a rank named twice is asked once (met_).
    met_.next_round();
    tiles.for_each_panel_tile_candidate(i, [&](int rank) {
      if (!met_.first_meeting(rank) || rank == me || !tiles.needs_panel_tile(rank, i, k)) return;
      Send& send = sends_[static_cast<std::size_t>(rank)];
      send.offsets.push_back(mpi::mpi_count(elements_, "cholesky: panel offset"));
      send.counts.push_back(mpi::mpi_count(count, "cholesky: panel tile"));
    });
    elements_ += count;
  }
  // Receives grouped by sender, senders in increasing rank order (the order of the groups):
  // one pass over the panel, not one per sender.
  senders_.reserve(static_cast<std::size_t>(tiles.count()));  // the first plan, in allocate()
  senders_.clear();
  for (std::int64_t i = k + 1; i < tiles.count(); ++i) {
    const int sender = tiles.owner(i, k);
    if (sender != me && tiles.needs_panel_tile(me, i, k)) senders_.add(sender, i);
  }
  senders_.for_each([&](int sender, RankGroups::Iterator from, RankGroups::Iterator to) {
    Receive receive{sender, elements_, 0};
    for (auto p = from; p != to; ++p) {
      start_[static_cast<std::size_t>(p->index)] = elements_;
      elements_ += tiles.size(p->index) * kb;
    }
    receive.count = elements_ - receive.offset;
    if (receive.count == 0) return;
    mpi::mpi_count(receive.count, "cholesky: panel message");
    receives_.push_back(receive);
  });
}

std::size_t PanelExchange::send_count() const {
  return static_cast<std::size_t>(
      std::count_if(sends_.begin(), sends_.end(), [](const Send& s) { return !s.counts.empty(); }));
}

}  // namespace hetscal::kernels::detail
