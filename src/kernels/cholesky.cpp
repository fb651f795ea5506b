/// @file cholesky.cpp
/// Driver of the distributed Cholesky factorisation: argument checks, the workspace allocated
/// and agreed (allocate_agreed.hpp), then the right-looking loop with a lookahead of one.
/// Step k: wait for panel k; update diagonal tile k+1 with it and factorise it (its owner
/// sends the factor at once), update the rest of tile column k+1, then the rest of the
/// trailing matrix, solving panel k+1 between its tile columns as soon as the factor has
/// arrived (no rank waits for a diagonal it does not need yet); panel k+1's messages travel
/// during the rest of the update. The panel (cholesky_panel.hpp) and the update
/// (cholesky_update.hpp) are apart. Scalar types are instantiated here only.
#include "kernels/cholesky.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <string>

#include "core/common/error.hpp"
#include "kernels/cholesky_column_runs.hpp"
#include "kernels/cholesky_panel.hpp"
#include "kernels/cholesky_tiles.hpp"
#include "kernels/cholesky_tile_ops.hpp"
#include "kernels/cholesky_update.hpp"
#include "kernels/prepared_factorization.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels {
namespace {

std::string describe(const layout::TileSplit& s) {
  return std::to_string(s.extent()) + " elements in tiles of " + std::to_string(s.block()) +
         " (first " + std::to_string(s.first()) + ")";
}

/// Checks every argument on this rank; returns its rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(const DistributedMatrix<T>& a, MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, "cholesky: A", size, rank);
  const layout::Distribution& d = *a.distribution;
  if (d.rows() != d.cols())
    throw InvalidArgument("cholesky: A's tiles are not square: rows are " + describe(d.rows()) +
                          ", columns " + describe(d.cols()));
  // A step's messages hold at most one tile column of A.
  mpi::mpi_count(d.rows().extent() * detail::largest_tile(d.rows()), "cholesky: panel");
  return rank;
}

/// The factorisation on one rank: its tiles, the two step panels used in turn, and the
/// grouped update when A is a Cartesian grid's local array, or runs of tiles when it lies in
/// a caller's array and an overflow (cholesky_column_runs.hpp). Constructing it allocates the
/// whole workspace and communicates nothing.
template <typename T>
class RightLooking {
 public:
  RightLooking(Uplo uplo, const DistributedMatrix<T>& a, int my_rank)
      : a_(a), ops_(uplo), tiles_(uplo, *a.distribution, my_rank) {
    for (std::int64_t slot = 0; slot < 2; ++slot)
      panels_[static_cast<std::size_t>(slot)].allocate(tiles_, slot);
    if (const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage)) {
      local_array_.emplace(*array, tiles_, uplo);
    } else if (a.storage->kind() == layout::StorageKind::KeptAndOverflow) {
      column_runs_.emplace(tiles_, a, uplo);
    }
  }

  /// Runs every step over `comm` (collective); returns INFO.
  std::int64_t run(MPI_Comm comm) {
    const std::int64_t steps = tiles_.count();
    if (steps == 0) return 0;
    start_first_panel(comm);
    for (std::int64_t k = 0; k < steps; ++k) {
      detail::StepPanel<T>& current = panel(k);
      if (const int info = current.info(); info != 0) {
        current.cancel_receives();
        current.wait_sends();
        return tiles_.offset(k) + info;
      }
      current.wait_receives();
      if (k + 1 < steps) {  // the last step leaves no trailing matrix
        if (local_array_) local_array_->stack(tiles_, ops_, current);
        if (column_runs_) column_runs_->begin_step(current);
        // The lookahead: diagonal tile k+1 first, factorised (and sent) by its owner at once,
        // then the rest of column k+1.
        update_next_column(current, detail::ColumnPart::DiagonalTile);
        detail::StepPanel<T>& next = panel(k + 1);
        start_panel(next, k + 1, comm);
        update_next_column(current, detail::ColumnPart::BelowDiagonal);
        // Panel k+1 is solved as soon as its factor arrives, between the trailing columns:
        // this rank never idles while the diagonal's owner (perhaps a slow rank) factorises.
        update_trailing(current, [&] { next.solve_panel_if_ready(tiles_, ops_, a_, comm); });
        next.solve_panel(tiles_, ops_, a_, comm);  // when the factor came after the update
      }
      current.wait_sends();
    }
    return 0;
  }

 private:
  detail::StepPanel<T>& panel(std::int64_t k) { return panels_[static_cast<std::size_t>(k % 2)]; }

  /// Step 0's panel: receives posted, diagonal factorised, panel solved and sent.
  void start_first_panel(MPI_Comm comm) {
    detail::StepPanel<T>& first = panel(0);
    start_panel(first, 0, comm);
    first.solve_panel(tiles_, ops_, a_, comm);
  }
  /// Step k's receives posted and its diagonal factorised (and sent) by its owner.
  void start_panel(detail::StepPanel<T>& next, std::int64_t k, MPI_Comm comm) {
    next.begin(tiles_, k, comm);
    next.factor_diagonal(tiles_, ops_, a_, comm);
  }

  /// The tiles of `part` of logical column k+1 with step k's panel.
  void update_next_column(const detail::StepPanel<T>& current, detail::ColumnPart part) {
    if (local_array_) {
      local_array_->update_next_column(tiles_, ops_, a_, current, part);
    } else if (column_runs_) {
      column_runs_->update_next_column(tiles_, ops_, a_, current, part);
    } else {
      detail::update_column(tiles_, ops_, a_, current, current.step() + 1, part);
    }
  }

  /// Logical columns k+2, k+3, ... with step k's panel, calling poll() before each column.
  template <typename Poll>
  void update_trailing(const detail::StepPanel<T>& current, Poll&& poll) {
    if (local_array_) {
      local_array_->update_trailing(tiles_, ops_, a_, current, poll);
      return;
    }
    if (column_runs_) {
      column_runs_->update_trailing(tiles_, ops_, a_, current, poll);
      return;
    }
    for (std::int64_t j = current.step() + 2; j < tiles_.count(); ++j) {
      if (!tiles_.my_rows_in_column(j).empty()) poll();
      detail::update_column(tiles_, ops_, a_, current, j);
    }
  }

  DistributedMatrix<T> a_;
  detail::TriangleOps<T> ops_;
  detail::CholeskyTiles tiles_;
  std::array<detail::StepPanel<T>, 2> panels_;
  std::optional<detail::LocalArrayUpdate<T>> local_array_;
  std::optional<detail::ColumnRunUpdate<T>> column_runs_;  ///< for a storage in two buffers
};

}  // namespace

// The workspace and the kernel's own communicator, made by PreparedCholesky's constructor.
template <typename T>
class PreparedCholesky<T>::Steps : public detail::PreparedFactorization<RightLooking<T>> {
 public:
  Steps(Uplo uplo, const DistributedMatrix<T>& a, MPI_Comm comm)
      : detail::PreparedFactorization<RightLooking<T>>(
            comm, "cholesky's argument check", [&] { return check_arguments(a, comm); },
            [&](int my_rank) { return std::make_unique<RightLooking<T>>(uplo, a, my_rank); }) {}
};

template <typename T>
PreparedCholesky<T>::PreparedCholesky(Uplo uplo, DistributedMatrix<T> a, MPI_Comm comm)
    : steps_(detail::make_agreed<Steps>(comm, uplo, a, comm)) {}

template <typename T>
PreparedCholesky<T>::~PreparedCholesky() = default;

template <typename T>
std::int64_t PreparedCholesky<T>::run() {
  return steps_->factorization().run(steps_->messages());
}

std::int64_t cholesky_workspace_bound(std::int64_t n, std::int64_t nb) {
  const std::int64_t band = std::max(nb, (n + detail::kStackBands - 1) / detail::kStackBands);
  return 2 * n * nb + band * nb + 2 * nb * nb;
}

template <typename T>
std::int64_t cholesky(Uplo uplo, DistributedMatrix<T> a, MPI_Comm comm) {
  return PreparedCholesky<T>(uplo, a, comm).run();
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_CHOLESKY_INSTANCES)

}  // namespace hetscal::kernels
