/// @file qr_multiply.cpp
/// C := op(Q)·C with kernels::qr's factors. Per step: A's panel (its first r columns, tile
/// rows from k down) allgathered, T formed by xLARFT on every rank, the V rows this rank's
/// C tiles need stacked as kernels::qr's panel stacks them, then qr_update.hpp's update over
/// all of C's tile columns. Scalar types are instantiated here only.
#include "kernels/qr_multiply.hpp"

#include <algorithm>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "kernels/agreed_call.hpp"
#include "kernels/allocate_agreed.hpp"
#include "kernels/factorization_checks.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/qr_update.hpp"
#include "kernels/scalar.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/view_checks.hpp"

namespace hetscal::kernels {
namespace {

/// The op the update applies T with, Trans read as ConjTrans for real types.
/// @throws InvalidArgument for Trans on a complex type (Qᵀ is not a product of reflectors).
template <typename T>
Op t_op_of(Op op) {
  if (op == Op::Trans && is_complex_v<T>)
    throw InvalidArgument("qr_multiply: op must be NoTrans or ConjTrans for a complex Q");
  return op == Op::NoTrans ? Op::NoTrans : Op::ConjTrans;
}

/// Checks on this rank; returns its rank in `comm`.
template <typename T>
int check_arguments(Op op, const DistributedMatrix<const T>& a, std::int64_t reflectors,
                    const DistributedMatrix<T>& c, MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  t_op_of<T>(op);
  check_view(a, "qr_multiply: A", size, rank);
  check_view(c, "qr_multiply: C", size, rank);
  detail::check_square_tiles(a.distribution->rows(), a.distribution->cols(), "qr_multiply");
  if (a.distribution->rows() != c.distribution->rows())
    throw InvalidArgument("qr_multiply: C's tile rows are not A's");
  const std::int64_t m = a.distribution->rows().extent(), n = a.distribution->cols().extent();
  if (reflectors < 0 || reflectors > std::min(m, n))
    throw InvalidArgument("qr_multiply: K = " + std::to_string(reflectors) +
                          " reflectors, not in 0..min(M, N_A) = " + std::to_string(std::min(m, n)));
  return rank;
}

/// The multiplication on one rank. Constructing it allocates the whole workspace and
/// communicates nothing.
template <typename T>
class Multiply {
 public:
  Multiply(Op op, const DistributedMatrix<const T>& a, std::int64_t reflectors, const T* tau,
           const DistributedMatrix<T>& c, int my_rank)
      : a_(a),
        c_(c),
        tau_(tau),
        reflectors_(reflectors),
        op_(op),
        tiles_(*c.distribution, my_rank, LuPanelRank::DiagonalOwner, {}) {
    const layout::TileSplit& cols = a.distribution->cols();
    while (steps_ < cols.count() && cols.offset(steps_) < reflectors) ++steps_;
    allocate();
  }

  /// Every step, in op's order (collective over `comm`).
  void run(MPI_Comm comm) {
    for (std::int64_t s = 0; s < steps_; ++s) {
      const std::int64_t k = op_ == Op::NoTrans ? steps_ - 1 - s : s;
      gather_panel(k, comm);
      describe_step(k);
      update_.apply(tiles_, step_, c_, 0, tiles_.cols().count(), comm);
    }
  }

 private:
  const layout::TileSplit& rows() const { return a_.distribution->rows(); }
  /// Reflectors of step k: A's columns of tile column k before K, at most the rows left.
  std::int64_t count(std::int64_t k) const {
    const layout::TileSplit& cols = a_.distribution->cols();
    const std::int64_t last = std::min(reflectors_, cols.offset(k) + cols.size(k));
    return std::min(last - cols.offset(k), rows().extent() - rows().offset(k));
  }
  /// True when this rank holds C tiles in tile row i (and so needs V's rows there).
  bool needs_row(std::int64_t i) const { return !tiles_.my_cols_in_row(i).empty(); }

  void allocate() {
    std::int64_t panel = 0, stack = 0, t = 0;
    for (std::int64_t k = 0; k < steps_; ++k) {
      const std::int64_t r = count(k);
      std::int64_t needed = 0;
      for (std::int64_t i = k; i < rows().count(); ++i)
        if (needs_row(i)) needed += rows().size(i);
      panel = std::max(panel, (rows().extent() - rows().offset(k)) * r);
      stack = std::max(stack, needed * r);
      t = std::max(t, r * r);
    }
    panel_.resize(static_cast<std::size_t>(panel));
    received_.resize(static_cast<std::size_t>(panel));
    own_.resize(static_cast<std::size_t>(panel));
    stack_.resize(static_cast<std::size_t>(stack));
    t_.resize(static_cast<std::size_t>(t));
    counts_.resize(static_cast<std::size_t>(tiles_.num_ranks()));
    displacements_.resize(counts_.size());
    cursors_.resize(counts_.size());
    step_.v_tiles.assign(static_cast<std::size_t>(rows().count()), {});
    update_.allocate(
        tiles_, c_, steps_, [&](std::int64_t k) { return count(k); },
        [](std::int64_t) { return std::int64_t{0}; }, tiles_.cols().count());
  }

  /// The rank owning A's tile (i, k), as an index of the per-rank vectors.
  std::size_t owner_of_panel_tile(std::int64_t i, std::int64_t k) const {
    return static_cast<std::size_t>(a_.distribution->owner({i, k}));
  }
  /// Calls copy(tile row i, its rows) for A's tiles (i, k), i >= k, owned by `rank`.
  template <typename Copy>
  void for_each_panel_tile(std::int64_t k, int rank, Copy&& copy) const {
    for (std::int64_t i = k; i < rows().count(); ++i)
      if (a_.distribution->owner({i, k}) == rank) copy(i, rows().size(i));
  }

  /// panel_ := A's first count(k) columns of tile column k from tile row k down, on every
  /// rank (column-major, leading dimension M − offset(k)); each rank sends its tiles once.
  void gather_panel(std::int64_t k, MPI_Comm comm) {
    const std::int64_t r = count(k), ld = rows().extent() - rows().offset(k);
    std::int64_t packed = 0;
    for_each_panel_tile(k, tiles_.my_rank(), [&](std::int64_t i, std::int64_t height) {
      const layout::TileLocation where = a_.storage->tile_location({i, k});
      for (std::int64_t col = 0; col < r; ++col, packed += height)
        std::copy_n(a_.data + where.offset + col * where.ld, height, own_.data() + packed);
    });
    // One pass over the panel's tiles, each counted for its owner, and one over the ranks:
    // O(P + tile rows) per step, not a pass over the tile rows per rank (issue 32).
    std::fill(cursors_.begin(), cursors_.end(), 0);
    for (std::int64_t i = k; i < rows().count(); ++i)
      cursors_[owner_of_panel_tile(i, k)] += rows().size(i) * r;
    for (std::size_t rank = 0, at = 0; rank < counts_.size(); ++rank) {
      counts_[rank] = mpi::mpi_count(cursors_[rank], "qr_multiply: panel");
      displacements_[rank] = static_cast<int>(at);
      at += static_cast<std::size_t>(counts_[rank]);
      cursors_[rank] = 0;
    }
    mpi::check_mpi(MPI_Allgatherv(own_.data(), mpi::mpi_count(packed, "qr_multiply: panel"),
                                  mpi::mpi_type<T>(), received_.data(), counts_.data(),
                                  displacements_.data(), mpi::mpi_type<T>(), comm),
                   "qr_multiply: MPI_Allgatherv");
    // Each rank's tiles arrived in tile row order: a cursor per rank finds them in one pass.
    for (std::int64_t i = k; i < rows().count(); ++i) {
      const std::size_t owner = owner_of_panel_tile(i, k);
      const std::int64_t height = rows().size(i);
      const T* from = received_.data() + displacements_[owner] + cursors_[owner];
      T* to = panel_.data() + (rows().offset(i) - rows().offset(k));
      for (std::int64_t col = 0; col < r; ++col, from += height) std::copy_n(from, height, to + col * ld);
      cursors_[owner] += height * r;
    }
  }

  /// T from the gathered panel, then V made explicitly unit lower and this rank's tile rows
  /// stacked (increasing, as kernels::qr's panel stacks them) into step_.
  void describe_step(std::int64_t k) {
    const std::int64_t r = count(k), ld = rows().extent() - rows().offset(k);
    larft<T>(ld, r, panel_.data(), ld, tau_ + rows().offset(k), t_.data(), r);
    for (std::int64_t col = 0; col < r; ++col) {
      std::fill(panel_.data() + col * ld, panel_.data() + col * ld + col, T(0));
      panel_[static_cast<std::size_t>(col + col * ld)] = T(1);
    }
    std::int64_t stacked = 0;
    for (std::int64_t i = k; i < rows().count(); ++i)
      if (needs_row(i)) stacked += rows().size(i);
    step_.step = k;
    step_.count = r;
    step_.t = t_.data();
    step_.t_op = t_op_of<T>(op_);
    const std::int64_t v_ld = std::max<std::int64_t>(stacked, 1);
    std::int64_t at = 0;
    for (std::int64_t i = k; i < rows().count(); ++i) {
      step_.v_tiles[static_cast<std::size_t>(i)] = {needs_row(i) ? stack_.data() + at : nullptr, v_ld};
      if (!needs_row(i)) continue;
      const T* from = panel_.data() + (rows().offset(i) - rows().offset(k));
      for (std::int64_t col = 0; col < r; ++col)
        std::copy_n(from + col * ld, rows().size(i), stack_.data() + at + col * v_ld);
      at += rows().size(i);
    }
  }

  DistributedMatrix<const T> a_;
  DistributedMatrix<T> c_;
  const T* tau_;
  std::int64_t reflectors_, steps_ = 0;
  Op op_;
  detail::FactorizationTiles tiles_;  ///< C's tiles: who roots and updates which columns
  ScalarBuffer<T> panel_, received_, own_, stack_, t_;
  std::vector<int> counts_, displacements_;
  std::vector<std::int64_t> cursors_;  ///< per rank: its panel elements counted or unpacked
  detail::QrUpdate<T> update_;
  detail::StepReflectors<T> step_;
};

}  // namespace

template <typename T>
void qr_multiply(Op op, DistributedMatrix<const T> a, std::int64_t reflectors, const T* tau,
                 DistributedMatrix<T> c, MPI_Comm comm) {
  const int my_rank = detail::agreed_arguments(comm, "qr_multiply's argument check", [&] {
    return check_arguments(op, a, reflectors, c, comm);
  });
  std::unique_ptr<Multiply<T>> multiply;
  detail::allocate_agreed(
      comm, [&] { multiply = std::make_unique<Multiply<T>>(op, a, reflectors, tau, c, my_rank); });
  const detail::DuplicatedComm messages(comm);
  multiply->run(messages.get());
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_QR_MULTIPLY_INSTANCES)

}  // namespace hetscal::kernels
