#pragma once
/// @file grid_communicators.hpp
/// The row and column communicators of one rank on a Cartesian process grid, owned for as
/// long as the plan that uses them. A right-looking factorization calls its trailing update
/// N/NB times on one grid: building the communicators once per plan instead of once per call
/// saves two collective MPI_Comm_split per update and cannot leak them.
#include <mpi.h>

#include <optional>

#include "layout/cartesian_distribution.hpp"

namespace hetscal::mpi {

/// This rank's grid row and grid column as communicators over a parent communicator.
/// Non-copyable (it owns MPI handles), movable.
class GridCommunicators {
 public:
  /// Splits `parent` into grid rows and grid columns. Collective over `parent`: every rank
  /// passes the same grid (ranks outside the grid join the split and get no communicator).
  /// @param parent communicator whose ranks the grid's ranks are; must outlive this object.
  /// @param grid the process grid. @pre grid.num_ranks() == size of parent.
  /// @throws InvalidArgument if the sizes differ; hetscal::Error if MPI fails.
  GridCommunicators(MPI_Comm parent, layout::ProcessGrid grid);
  ~GridCommunicators();
  GridCommunicators(const GridCommunicators&) = delete;
  GridCommunicators& operator=(const GridCommunicators&) = delete;
  GridCommunicators(GridCommunicators&& other) noexcept;
  GridCommunicators& operator=(GridCommunicators&& other) noexcept;

  /// This rank's grid row, ordered by grid column (rank k in it sits in grid column k);
  /// MPI_COMM_NULL outside the grid.
  MPI_Comm row() const { return row_; }
  /// This rank's grid column, ordered by grid row; MPI_COMM_NULL outside the grid.
  MPI_Comm col() const { return col_; }
  /// Where this rank sits on the grid; nullopt outside it.
  const std::optional<layout::GridCoord>& coordinates() const { return me_; }
  const layout::ProcessGrid& grid() const { return grid_; }

  /// Whether these communicators are the grid rows and columns of `grid` over `parent`
  /// (same communicator, same shape, same rank table). Local.
  bool serves(MPI_Comm parent, const layout::ProcessGrid& grid) const;

 private:
  void release() noexcept;

  MPI_Comm parent_;
  layout::ProcessGrid grid_;
  std::optional<layout::GridCoord> me_;
  MPI_Comm row_ = MPI_COMM_NULL;
  MPI_Comm col_ = MPI_COMM_NULL;
};

}  // namespace hetscal::mpi
