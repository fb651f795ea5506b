// Row interchanges on a distributed matrix: the moved rows' pieces, one per tile column,
// packed by the owner of the source row's tile, exchanged in one Alltoallv and unpacked by
// the owner of the destination row's tile. Both sides list the pieces in the same order, so
// no index travels with the data.
#include "kernels/row_permutation.hpp"

#include <complex>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "core/common/error.hpp"
#include "kernels/allocate_agreed.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels {
namespace {

/// The part of one moved row that lies in one tile column.
struct RowPiece {
  std::int64_t to_row, from_row, tile_col;
  int from, to;  ///< owners of the source and the destination tile
};

void check_permutation(std::int64_t rows, const std::vector<std::int64_t>& source) {
  if (static_cast<std::int64_t>(source.size()) != rows)
    throw InvalidArgument("permute_rows: " + std::to_string(source.size()) +
                          " source rows for a matrix of " + std::to_string(rows));
  std::vector<bool> seen(source.size(), false);
  for (const std::int64_t row : source) {
    if (row < 0 || row >= rows || seen[static_cast<std::size_t>(row)])
      throw InvalidArgument("permute_rows: source row " + std::to_string(row) +
                            " is outside the matrix or listed twice");
    seen[static_cast<std::size_t>(row)] = true;
  }
}

/// Every piece of every row that moves, by destination row, then tile column.
std::vector<RowPiece> moved_pieces(const layout::Distribution& d,
                                   const std::vector<std::int64_t>& source) {
  std::vector<RowPiece> pieces;
  for (std::int64_t row = 0; row < static_cast<std::int64_t>(source.size()); ++row) {
    const std::int64_t from_row = source[static_cast<std::size_t>(row)];
    if (from_row == row) continue;
    for (std::int64_t col = 0; col < d.cols().count(); ++col)
      pieces.push_back({row, from_row, col, d.owner({d.rows().tile_of(from_row), col}),
                        d.owner({d.rows().tile_of(row), col})});
  }
  return pieces;
}

/// Calls f(offset) for the local offsets of the piece of `row` in tile column `col`.
template <typename F>
void for_each_offset(const layout::LocalLayout& storage, std::int64_t row, std::int64_t col,
                     F&& f) {
  const layout::GlobalTile tile{storage.rows().tile_of(row), col};
  const layout::TileLocation at = storage.tile_location(tile);
  const std::int64_t r = row - storage.rows().offset(tile.row);
  for (std::int64_t c = 0; c < storage.cols().size(col); ++c) f(at.offset + r + c * at.ld);
}

/// Element counts per rank and their displacements, as MPI takes them.
struct Counts {
  std::vector<int> count, displacement;
  explicit Counts(const std::vector<std::int64_t>& elements) {
    std::int64_t total = 0;
    for (const std::int64_t n : elements) {
      displacement.push_back(static_cast<int>(total));
      count.push_back(static_cast<int>(n));
      total += n;
    }
    if (total > std::numeric_limits<int>::max())
      throw InvalidArgument("permute_rows: " + std::to_string(total) +
                            " elements exceed MPI's int count");
  }
  std::size_t total() const {
    return count.empty() ? 0 : static_cast<std::size_t>(displacement.back() + count.back());
  }
};

}  // namespace

std::vector<std::int64_t> interchange_permutation(std::int64_t rows,
                                                  const std::vector<std::int64_t>& pivots,
                                                  SwapOrder order) {
  const auto count = static_cast<std::int64_t>(pivots.size());
  if (count > rows)
    throw InvalidArgument("interchange_permutation: " + std::to_string(count) + " pivots for " +
                          std::to_string(rows) + " rows");
  std::vector<std::int64_t> at(static_cast<std::size_t>(rows));
  std::iota(at.begin(), at.end(), std::int64_t{0});
  for (std::int64_t step = 0; step < count; ++step) {
    const std::int64_t i = order == SwapOrder::Forward ? step : count - 1 - step;
    const std::int64_t p = pivots[static_cast<std::size_t>(i)];
    if (p < 0 || p >= rows)
      throw InvalidArgument("interchange_permutation: pivot " + std::to_string(p) + " of row " +
                            std::to_string(i) + " is outside 0.." + std::to_string(rows - 1));
    std::swap(at[static_cast<std::size_t>(i)], at[static_cast<std::size_t>(p)]);
  }
  return at;
}

template <typename T>
void permute_rows(DistributedMatrix<T> x, const std::vector<std::int64_t>& source, MPI_Comm comm) {
  int size = 1, me = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  check_view(x, "permute_rows: X", size, me);
  check_permutation(x.rows(), source);
  const std::vector<RowPiece> pieces = moved_pieces(*x.distribution, source);
  std::vector<std::int64_t> sent(static_cast<std::size_t>(size), 0), received(sent);
  for (const RowPiece& piece : pieces) {
    const std::int64_t width = x.distribution->cols().size(piece.tile_col);
    if (piece.from == me) sent[static_cast<std::size_t>(piece.to)] += width;
    if (piece.to == me) received[static_cast<std::size_t>(piece.from)] += width;
  }
  const Counts out(sent), in(received);
  ScalarBuffer<T> send_buffer, receive_buffer;
  detail::allocate_agreed(comm, [&] {
    send_buffer.resize(out.total());
    receive_buffer.resize(in.total());
  });
  std::vector<int> position = out.displacement;
  for (const RowPiece& piece : pieces)
    if (piece.from == me)
      for_each_offset(*x.storage, piece.from_row, piece.tile_col, [&](std::int64_t k) {
        send_buffer[static_cast<std::size_t>(position[piece.to]++)] = x.data[k];
      });
  mpi::check_mpi(MPI_Alltoallv(send_buffer.data(), out.count.data(), out.displacement.data(),
                               mpi::mpi_type<T>(), receive_buffer.data(), in.count.data(),
                               in.displacement.data(), mpi::mpi_type<T>(), comm),
                 "permute_rows: MPI_Alltoallv");
  position = in.displacement;
  for (const RowPiece& piece : pieces)
    if (piece.to == me)
      for_each_offset(*x.storage, piece.to_row, piece.tile_col, [&](std::int64_t k) {
        x.data[k] = receive_buffer[static_cast<std::size_t>(position[piece.from]++)];
      });
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_PERMUTE_ROWS_INSTANCES)

}  // namespace hetscal::kernels
