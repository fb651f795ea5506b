/// @file lu.cpp
/// Driver of the distributed LU factorisation: argument checks, the workspace allocated and
/// agreed (allocate_agreed.hpp), then the right-looking loop with a lookahead of one.
/// Step k: wait for panel k (its pivots and factored tiles); apply its interchanges to tile
/// column k+1, solve and share U_k,k+1 and update the column, then start panel k+1, whose
/// messages travel while the same is done for the columns right of it;
/// last, apply step k's interchanges to the columns left of it, off the critical path. The
/// panel (lu_panel.hpp), the interchanges (lu_interchanges.hpp) and the update
/// (lu_update.hpp) are apart. Scalar types are instantiated here only.
#include "kernels/lu.hpp"

#include <algorithm>
#include <complex>
#include <memory>

#include "kernels/agreed_call.hpp"
#include "kernels/allocate_agreed.hpp"
#include "kernels/factorization_checks.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/lu_interchanges.hpp"
#include "kernels/lu_panel.hpp"
#include "kernels/lu_update.hpp"
#include "kernels/prepared_factorization.hpp"
#include "kernels/summa_support.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels {
namespace {

/// Checks every argument on this rank; returns its rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(const DistributedMatrix<T>& a, MPI_Comm comm, const LuOptions& options) {
  const int rank = detail::check_factorization_arguments(a, comm, options.rank_speeds, "lu");
  // A step's interchanges move at most 2·nb rows.
  const layout::Distribution& d = *a.distribution;
  mpi::mpi_count(2 * detail::largest_tile(d.cols()) * d.cols().extent(), "lu: interchanges");
  return rank;
}

/// The factorisation on one rank. Constructing it allocates the whole workspace and
/// communicates nothing.
template <typename T>
class RightLooking {
 public:
  RightLooking(const DistributedMatrix<T>& a, int my_rank, const LuOptions& options)
      : a_(a), tiles_(*a.distribution, my_rank, options.panel_rank, options.rank_speeds) {
    panel_.allocate(tiles_, a_, detail::reads_rows_by_tile(a_));
    interchanges_.allocate(tiles_, a_);
    update_.allocate(tiles_, a_);
  }

  /// Runs every step over `comm` (collective); writes the pivots; returns INFO.
  std::int64_t run(std::int64_t* pivots, MPI_Comm comm) {
    const std::int64_t steps = tiles_.steps(), columns = tiles_.cols().count();
    std::int64_t info = 0;
    if (steps > 0) panel_.start(tiles_, a_, 0, comm);
    for (std::int64_t k = 0; k < steps; ++k) {
      panel_.finish(tiles_, a_, k);
      const int step_info = detail::panel_info(panel_, k);
      if (info == 0 && step_info > 0) info = tiles_.rows().offset(k) + step_info;
      const std::int64_t* step_pivots = detail::panel_pivots(panel_, k);
      std::copy(step_pivots, step_pivots + tiles_.pivot_count(k), pivots + tiles_.rows().offset(k));
      // Tile column k+1 first, for the lookahead; the rest while panel k+1 travels.
      interchanges_.apply(tiles_, a_, k, step_pivots, k + 1, k + 2, mpi::tag::kLuRightSwap, comm);
      update_.plan_row_block(tiles_, k);
      update_.solve_row_block(tiles_, panel_, a_, k, k + 1, k + 2, comm);
      update_.update(tiles_, panel_, a_, k, k + 1, k + 2);
      if (k + 1 < steps) panel_.start(tiles_, a_, k + 1, comm);
      interchanges_.apply(tiles_, a_, k, step_pivots, k + 2, columns, mpi::tag::kLuRightSwap, comm);
      update_.solve_row_block(tiles_, panel_, a_, k, k + 2, columns, comm);
      update_.update(tiles_, panel_, a_, k, k + 2, columns);
      // Column k-1's factored rows may have left from A itself (a panel factorised there):
      // they must have left before its rows are swapped.
      panel_.wait_step_sends(k - 1);
      interchanges_.apply(tiles_, a_, k, step_pivots, 0, k, mpi::tag::kLuLeftSwap, comm);
    }
    panel_.wait_sends();
    update_.wait_sends();
    return info;
  }

 private:
  DistributedMatrix<T> a_;
  detail::FactorizationTiles tiles_;
  detail::LuPanel<T> panel_;
  detail::RowInterchanges<T> interchanges_;
  detail::LuUpdate<T> update_;
};

}  // namespace

// The workspace and the kernel's own communicator, made by PreparedLu's constructor.
template <typename T>
class PreparedLu<T>::Steps : public detail::PreparedFactorization<RightLooking<T>> {
 public:
  Steps(const DistributedMatrix<T>& a, MPI_Comm comm, const LuOptions& options)
      : detail::PreparedFactorization<RightLooking<T>>(
            comm, "lu's argument check", [&] { return check_arguments(a, comm, options); },
            [&](int my_rank) { return std::make_unique<RightLooking<T>>(a, my_rank, options); }) {}
};

template <typename T>
PreparedLu<T>::PreparedLu(DistributedMatrix<T> a, MPI_Comm comm, const LuOptions& options)
    : steps_(detail::make_agreed<Steps>(comm, a, comm, options)) {}

template <typename T>
PreparedLu<T>::~PreparedLu() = default;

template <typename T>
std::int64_t PreparedLu<T>::run(std::int64_t* pivots) {
  return steps_->factorization().run(pivots, steps_->messages());
}

template <typename T>
std::int64_t lu_workspace_bytes(const DistributedMatrix<T>& a, int my_rank, const LuOptions& options) {
  const detail::FactorizationTiles tiles(*a.distribution, my_rank, options.panel_rank, options.rank_speeds);
  const std::int64_t scalars = detail::LuPanel<T>::sizes(tiles, a, detail::reads_rows_by_tile(a)).bytes() +
                               2 * sizeof(T) * detail::RowInterchanges<T>::buffer_size(tiles, a) +
                               detail::LuUpdate<T>::sizes(tiles, a).bytes();
  return scalars + tiles.table_bytes() + tiles.index_bytes_bound();
}

template <typename T>
std::int64_t lu(DistributedMatrix<T> a, std::int64_t* pivots, MPI_Comm comm,
                const LuOptions& options) {
  return PreparedLu<T>(a, comm, options).run(pivots);
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_LU_INSTANCES)

}  // namespace hetscal::kernels
