#include "mpi/grid_communicators.hpp"

#include <string>
#include <utility>

#include "core/common/error.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

// The ranks with the same `color` (MPI_UNDEFINED: none), ordered by `key`. Collective.
MPI_Comm split(MPI_Comm parent, int color, int key) {
  MPI_Comm comm = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(parent, color, key, &comm), "MPI_Comm_split");
  return comm;
}

int rank_in(MPI_Comm parent, int expected_size) {
  int size = 0, rank = 0;
  check_mpi(MPI_Comm_size(parent, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(parent, &rank), "MPI_Comm_rank");
  if (expected_size != size) {
    throw InvalidArgument("hetscal: process grid over " + std::to_string(expected_size) +
                          " ranks used on a communicator of " + std::to_string(size));
  }
  return rank;
}

}  // namespace

// The grid is taken by value and moved in: a caller that must not allocate between an
// agreement and the splits (a kernel) copies it beforehand.
GridCommunicators::GridCommunicators(MPI_Comm parent, layout::ProcessGrid grid)
    : parent_(parent), grid_(std::move(grid)), me_(grid_.coordinates(rank_in(parent, grid_.num_ranks()))) {
  try {
    row_ = split(parent, me_ ? me_->row : MPI_UNDEFINED, me_ ? me_->col : 0);
    col_ = split(parent, me_ ? me_->col : MPI_UNDEFINED, me_ ? me_->row : 0);
  } catch (...) {
    release();
    throw;
  }
}

GridCommunicators::~GridCommunicators() { release(); }

GridCommunicators::GridCommunicators(GridCommunicators&& other) noexcept
    : parent_(std::exchange(other.parent_, MPI_COMM_NULL)),
      grid_(other.grid_),
      me_(std::exchange(other.me_, std::nullopt)),
      row_(std::exchange(other.row_, MPI_COMM_NULL)),
      col_(std::exchange(other.col_, MPI_COMM_NULL)) {}

GridCommunicators& GridCommunicators::operator=(GridCommunicators&& other) noexcept {
  if (this != &other) {
    release();
    parent_ = std::exchange(other.parent_, MPI_COMM_NULL);
    grid_ = other.grid_;
    me_ = std::exchange(other.me_, std::nullopt);
    row_ = std::exchange(other.row_, MPI_COMM_NULL);
    col_ = std::exchange(other.col_, MPI_COMM_NULL);
  }
  return *this;
}

bool GridCommunicators::serves(MPI_Comm parent, const layout::ProcessGrid& grid) const {
  if (parent_ == MPI_COMM_NULL || parent != parent_) return false;
  return grid.nprow() == grid_.nprow() && grid.npcol() == grid_.npcol() &&
         grid.num_ranks() == grid_.num_ranks() && grid.ranks() == grid_.ranks();
}

void GridCommunicators::release() noexcept {
  if (!mpi_usable()) return;
  // Nothing to report from a release: a failed free only leaks the communicator.
  if (row_ != MPI_COMM_NULL) (void)MPI_Comm_free(&row_);
  if (col_ != MPI_COMM_NULL) (void)MPI_Comm_free(&col_);
}

}  // namespace hetscal::mpi
