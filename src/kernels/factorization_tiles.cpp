#include "kernels/factorization_tiles.hpp"

#include <algorithm>

#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

FactorizationTiles::FactorizationTiles(const layout::Distribution& d, int my_rank,
                                       LuPanelRank panel_rank,
                                       const std::vector<double>& rank_speeds)
    : d_(&d), me_(my_rank), steps_(std::min(d.rows().count(), d.cols().count())), reach_(d) {
  const std::int64_t tile_rows = rows().count(), tile_cols = cols().count();
  my_rows_in_column_.resize(static_cast<std::size_t>(tile_cols));
  my_cols_in_row_.resize(static_cast<std::size_t>(tile_rows));
  for (std::int64_t j = 0; j < tile_cols; ++j) {
    for (std::int64_t i = 0; i < tile_rows; ++i) {
      if (owner(i, j) != me_) continue;
      my_rows_in_column_[static_cast<std::size_t>(j)].push_back(i);
      my_cols_in_row_[static_cast<std::size_t>(i)].push_back(j);
    }
  }
  for (std::int64_t k = 0; k < steps_; ++k)
    panel_rank_.push_back(choose_panel_rank(k, panel_rank, rank_speeds));
}

std::int64_t FactorizationTiles::pivot_count(std::int64_t k) const {
  return std::min(panel_rows(k), width(k));
}

std::int64_t FactorizationTiles::table_bytes() const {
  std::size_t bytes =
      sizeof(int) * panel_rank_.capacity() + static_cast<std::size_t>(reach_.bytes());
  for (const auto* lines : {&my_rows_in_column_, &my_cols_in_row_})
    for (const std::vector<std::int64_t>& line : *lines) bytes += sizeof(line) + sizeof(std::int64_t) * line.capacity();
  return static_cast<std::int64_t>(bytes);
}

std::int64_t FactorizationTiles::index_bytes_bound() const {
  std::int64_t widest = 0;
  for (std::int64_t k = 0; k < steps(); ++k) widest = std::max(widest, width(k));
  const std::int64_t lines = rows().count() + cols().count();
  return 32 * rows().count() * widest + 64 * lines + 128 * num_ranks() + 256 * widest;
}

int FactorizationTiles::choose_panel_rank(std::int64_t k, LuPanelRank rank,
                                          const std::vector<double>& rank_speeds) const {
  if (rank == LuPanelRank::DiagonalOwner) return owner(k, k);
  // The fastest owner of a panel tile; the lowest rank among equally fast ones.
  int best = owner(k, k);
  const auto speed = [&](int r) {
    return rank_speeds.empty() ? 1.0 : rank_speeds[static_cast<std::size_t>(r)];
  };
  for (std::int64_t i = k; i < rows().count(); ++i) {
    const int candidate = owner(i, k);
    if (speed(candidate) > speed(best) || (speed(candidate) == speed(best) && candidate < best))
      best = candidate;
  }
  return best;
}

void append_rows(std::vector<RowRun>& runs, std::int64_t first, std::int64_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().first + runs.back().count == first) {
    runs.back().count += count;
  } else {
    runs.push_back({first, count});
  }
}

void select_row_runs(const std::vector<RowRun>& runs, std::int64_t ld, std::int64_t columns,
                     std::vector<int>& lengths, std::vector<int>& offsets) {
  lengths.clear();
  offsets.clear();
  for (std::int64_t c = 0; c < columns; ++c) {
    for (const RowRun& run : runs) {
      lengths.push_back(mpi::mpi_count(run.count, "lu: row run"));
      offsets.push_back(mpi::mpi_count(run.first + c * ld, "lu: row run offset"));
    }
  }
}

LocalArrayIndex::LocalArrayIndex(const layout::CartesianLocalLayout& array,
                                 const FactorizationTiles& tiles)
    : array_(&array), tiles_(&tiles) {
  for (std::int64_t t = 0; t < tiles.rows().count(); ++t)
    if (array.local_row_of_tile(t)) tile_rows_.push_back(t);
  for (std::int64_t t = 0; t < tiles.cols().count(); ++t)
    if (array.local_col_of_tile(t)) tile_cols_.push_back(t);
}

layout::LocalRow LocalArrayIndex::local_row_from(std::int64_t t) const {
  const auto it = std::lower_bound(tile_rows_.begin(), tile_rows_.end(), t);
  return it == tile_rows_.end() ? array_->row_end() : *array_->local_row_of_tile(*it);
}

layout::LocalCol LocalArrayIndex::local_col_from(std::int64_t t) const {
  const auto it = std::lower_bound(tile_cols_.begin(), tile_cols_.end(), t);
  return it == tile_cols_.end() ? array_->col_end() : *array_->local_col_of_tile(*it);
}

std::optional<layout::LocalRow> LocalArrayIndex::local_row(std::int64_t row) const {
  const std::int64_t tile = tiles_->rows().tile_of(row);
  const std::optional<layout::LocalRow> first = array_->local_row_of_tile(tile);
  if (!first) return std::nullopt;
  return *first + (row - tiles_->rows().offset(tile));
}

}  // namespace hetscal::kernels::detail
