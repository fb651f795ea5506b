/// @file qr.cpp
/// Driver of the distributed Householder QR factorisation: argument checks, the workspace
/// allocated and agreed (allocate_agreed.hpp), then the right-looking loop with a lookahead
/// of one. Step k: wait for panel k (τ, T and the V tile rows this rank needs); apply its
/// reflectors to tile column k+1, then start panel k+1, whose messages travel while the
/// columns right of it are updated, window by window (update_window). The panel is gathered
/// and scattered as the LU's (factorization_panel.hpp, qr_panel.hpp), the update is
/// qr_update.hpp's. Scalar types are instantiated here only.
#include "kernels/qr.hpp"

#include <algorithm>
#include <complex>
#include <memory>
#include <vector>

#include "kernels/factorization_checks.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/prepared_factorization.hpp"
#include "kernels/qr_panel.hpp"
#include "kernels/qr_update.hpp"

namespace hetscal::kernels {
namespace {

/// A step's trailing update is applied in windows of tile columns holding about this many of
/// each rank's own columns (at least one tile): W and the partials a root receives are sized
/// for one window, not for all of this rank's columns (an in-place take-over's peak memory,
/// issue 28), while each window's GEMMs stay wide and its messages few.
constexpr std::int64_t kUpdateWindowColumns = 768;

/// The most tile columns in which one rank holds a tile, from the distribution's owner classes
/// (O(cells + tile columns + P)); every tile column where a class has tiles per owner of
/// their own (kOwnerPerTile): nothing cheaper is known of them.
std::int64_t most_tile_columns_of_a_rank(const layout::Distribution& d) {
  const layout::OwnerClasses classes = d.owner_classes();
  const std::int64_t columns = d.cols().count();
  std::vector<std::int64_t> per_class(static_cast<std::size_t>(classes.class_cols), 0);
  for (std::int64_t j = 0; j < columns; ++j) ++per_class[static_cast<std::size_t>(classes.class_of_col(j))];
  std::vector<std::int64_t> held(static_cast<std::size_t>(d.num_ranks()), 0);
  std::vector<int> stamp(static_cast<std::size_t>(d.num_ranks()), -1);  // the class that last counted a rank
  for (int c = 0; c < classes.class_cols; ++c)
    for (int r = 0; r < classes.class_rows; ++r) {
      const int rank = classes.cell(r, c);
      if (rank == layout::kOwnerPerTile) return std::max<std::int64_t>(1, columns);
      if (stamp[static_cast<std::size_t>(rank)] == c) continue;
      stamp[static_cast<std::size_t>(rank)] = c;
      held[static_cast<std::size_t>(rank)] += per_class[static_cast<std::size_t>(c)];
    }
  return std::max<std::int64_t>(1, *std::max_element(held.begin(), held.end()));
}

/// Tile columns per window of the update: kUpdateWindowColumns of the busiest rank's own,
/// over its share of the tile columns. A window of a fixed number of tile columns gave each
/// of 256 ranks on a 16x16 grid one of its own per window: a step's W went in 46 rounds of
/// messages instead of 3 (N = 47,104, tiles of 64).
std::int64_t update_window(const layout::Distribution& d) {
  const std::int64_t own = std::max<std::int64_t>(1, kUpdateWindowColumns / std::max<std::int64_t>(detail::largest_tile(d.cols()), 1));
  return std::max<std::int64_t>(1, own * d.cols().count() / most_tile_columns_of_a_rank(d));
}

/// The factorisation on one rank. Constructing it allocates the whole workspace and
/// communicates nothing.
template <typename T>
class RightLooking {
 public:
  RightLooking(const DistributedMatrix<T>& a, int my_rank, const QrOptions& options)
      : a_(a),
        tiles_(*a.distribution, my_rank, options.panel_rank, options.rank_speeds),
        window_(update_window(*a.distribution)),
        by_tile_(detail::reads_rows_by_tile(a)) {
    panel_.allocate(tiles_, a_, by_tile_);
    update_.allocate(
        tiles_, a_, tiles_.steps(), [&](std::int64_t k) { return tiles_.pivot_count(k); },
        [](std::int64_t k) { return k + 1; }, window_);
    step_.v_tiles.assign(static_cast<std::size_t>(tiles_.rows().count()), {});
    if (by_tile_) {
      const std::int64_t nb = detail::largest_tile(tiles_.rows());
      diagonal_.resize(static_cast<std::size_t>(nb * nb));
    }
  }

  /// Runs every step over `comm` (collective); writes τ.
  void run(T* tau, MPI_Comm comm) {
    const std::int64_t steps = tiles_.steps(), columns = tiles_.cols().count();
    if (steps > 0) panel_.start(tiles_, a_, 0, comm);
    for (std::int64_t k = 0; k < steps; ++k) {
      panel_.finish(tiles_, a_, k);
      const T* step_tau = detail::qr_panel_tau(panel_, k);
      std::copy(step_tau, step_tau + detail::QrPanelFactor<T>::reflectors(tiles_, k),
                tau + tiles_.rows().offset(k));
      describe_step(k);
      // Tile column k+1 first, for the lookahead; the rest, window by window, while panel k+1
      // travels.
      update_.apply(tiles_, step_, a_, k + 1, k + 2, comm);
      if (k + 1 < steps) panel_.start(tiles_, a_, k + 1, comm);
      for (std::int64_t first = k + 2; first < columns; first += window_)
        update_.apply(tiles_, step_, a_, first, std::min(first + window_, columns), comm);
    }
    panel_.wait_sends();
  }

 private:
  /// step_ := panel k's reflectors, (I − V·T·Vᴴ)ᴴ. @pre finish(k) of the panel.
  void describe_step(std::int64_t k) {
    step_.step = k;
    step_.count = tiles_.pivot_count(k);
    step_.t = detail::qr_panel_t(panel_, tiles_, k);
    step_.t_op = Op::ConjTrans;
    for (std::int64_t i = k; i < tiles_.rows().count(); ++i)
      step_.v_tiles[static_cast<std::size_t>(i)] = panel_.l_rows(k, i);
    // The diagonal V tile explicitly unit lower: in the slot, or in a copy where the slot is
    // the panel rank's and still being sent from.
    if (by_tile_) {
      step_.diagonal = detail::explicit_diagonal_v(panel_, tiles_, k, diagonal_.data());
      step_.diagonal_ld = tiles_.rows().size(k);
    } else {
      detail::make_diagonal_v_explicit(panel_, tiles_, k);
    }
  }

  DistributedMatrix<T> a_;
  detail::FactorizationTiles tiles_;
  detail::QrPanel<T> panel_;
  detail::QrUpdate<T> update_;
  detail::StepReflectors<T> step_;
  std::int64_t window_;       ///< tile columns per call of the update (update_window)
  bool by_tile_;              ///< the panels' rows read tile by tile, gathered in their slots
  ScalarBuffer<T> diagonal_;  ///< by_tile_: the diagonal V tile's explicit copy
};

}  // namespace

// The workspace and the kernel's own communicator, made by PreparedQr's constructor.
template <typename T>
class PreparedQr<T>::Steps : public detail::PreparedFactorization<RightLooking<T>> {
 public:
  Steps(const DistributedMatrix<T>& a, MPI_Comm comm, const QrOptions& options)
      : detail::PreparedFactorization<RightLooking<T>>(
            comm, "qr's argument check",
            [&] { return detail::check_factorization_arguments(a, comm, options.rank_speeds, "qr"); },
            [&](int my_rank) { return std::make_unique<RightLooking<T>>(a, my_rank, options); }) {}
};

template <typename T>
PreparedQr<T>::PreparedQr(DistributedMatrix<T> a, MPI_Comm comm, const QrOptions& options)
    : steps_(detail::make_agreed<Steps>(comm, a, comm, options)) {}

template <typename T>
PreparedQr<T>::~PreparedQr() = default;

template <typename T>
void PreparedQr<T>::run(T* tau) {
  steps_->factorization().run(tau, steps_->messages());
}

template <typename T>
std::int64_t qr_workspace_bytes(const DistributedMatrix<T>& a, int my_rank, const QrOptions& options) {
  const detail::FactorizationTiles tiles(*a.distribution, my_rank, options.panel_rank, options.rank_speeds);
  const bool by_tile = detail::reads_rows_by_tile(a);
  const std::int64_t nb = detail::largest_tile(tiles.rows());
  const std::int64_t window = update_window(*a.distribution);
  const auto reflectors = [&](std::int64_t k) { return tiles.pivot_count(k); };
  const auto first_column = [](std::int64_t k) { return k + 1; };
  const std::int64_t factor = detail::QrPanelFactor<T>::work_size(tiles) + (by_tile ? nb * nb : 0);
  const std::int64_t scalars = detail::QrPanel<T>::sizes(tiles, a, by_tile).bytes() +
                               detail::QrUpdate<T>::sizes(tiles, tiles.steps(), reflectors, first_column, window).bytes() +
                               static_cast<std::int64_t>(sizeof(T)) * factor;
  // W's starts per tile column besides the shared index vectors.
  const std::int64_t indices = tiles.index_bytes_bound() + 32 * tiles.cols().count();
  return scalars + tiles.table_bytes() + indices;
}

template <typename T>
void qr(DistributedMatrix<T> a, T* tau, MPI_Comm comm, const QrOptions& options) {
  PreparedQr<T>(a, comm, options).run(tau);
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_QR_INSTANCES)

}  // namespace hetscal::kernels
