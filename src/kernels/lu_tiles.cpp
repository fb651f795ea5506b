#include "kernels/lu_tiles.hpp"

#include <algorithm>

#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

LuTiles::LuTiles(const layout::Distribution& d, int my_rank, const LuOptions& options)
    : d_(&d), me_(my_rank), steps_(std::min(d.rows().count(), d.cols().count())) {
  const std::size_t ranks = static_cast<std::size_t>(d.num_ranks());
  const std::int64_t tile_rows = rows().count(), tile_cols = cols().count();
  my_rows_in_column_.resize(static_cast<std::size_t>(tile_cols));
  my_cols_in_row_.resize(static_cast<std::size_t>(tile_rows));
  row_reach_.assign(static_cast<std::size_t>(tile_rows) * ranks, -1);
  column_reach_.assign(static_cast<std::size_t>(tile_cols) * ranks, -1);
  // Column by column, top to bottom: the last write of a reach is the largest index.
  for (std::int64_t j = 0; j < tile_cols; ++j) {
    for (std::int64_t i = 0; i < tile_rows; ++i) {
      const int rank = owner(i, j);
      row_reach_[static_cast<std::size_t>(i) * ranks + static_cast<std::size_t>(rank)] = j;
      column_reach_[static_cast<std::size_t>(j) * ranks + static_cast<std::size_t>(rank)] = i;
      if (rank != me_) continue;
      my_rows_in_column_[static_cast<std::size_t>(j)].push_back(i);
      my_cols_in_row_[static_cast<std::size_t>(i)].push_back(j);
    }
  }
  for (std::int64_t k = 0; k < steps_; ++k) panel_rank_.push_back(choose_panel_rank(k, options));
}

std::int64_t LuTiles::pivot_count(std::int64_t k) const {
  return std::min(panel_rows(k), width(k));
}

int LuTiles::choose_panel_rank(std::int64_t k, const LuOptions& options) const {
  if (options.panel_rank == LuPanelRank::DiagonalOwner) return owner(k, k);
  // The fastest owner of a panel tile; the lowest rank among equally fast ones.
  int best = owner(k, k);
  const auto speed = [&](int rank) {
    return options.rank_speeds.empty() ? 1.0 : options.rank_speeds[static_cast<std::size_t>(rank)];
  };
  for (std::int64_t i = k; i < rows().count(); ++i) {
    const int rank = owner(i, k);
    if (speed(rank) > speed(best) || (speed(rank) == speed(best) && rank < best)) best = rank;
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

RowRunsType::RowRunsType(const std::vector<RowRun>& runs, std::int64_t ld, std::int64_t columns,
                         MPI_Datatype element, std::vector<int>& lengths,
                         std::vector<int>& offsets) {
  lengths.clear();
  offsets.clear();
  for (std::int64_t c = 0; c < columns; ++c) {
    for (const RowRun& run : runs) {
      lengths.push_back(mpi::mpi_count(run.count, "lu: row run"));
      offsets.push_back(mpi::mpi_count(run.first + c * ld, "lu: row run offset"));
    }
  }
  mpi::check_mpi(MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(),
                                  offsets.data(), element, &type_),
                 "MPI_Type_indexed");
  mpi::check_mpi(MPI_Type_commit(&type_), "MPI_Type_commit");
}

}  // namespace hetscal::kernels::detail
