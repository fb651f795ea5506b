#pragma once
/// @file cholesky_panel.hpp
/// Internal to kernels::cholesky: one step's panel. The owner of the diagonal tile factorises
/// it (POTRF) and sends the factor to the owners of the panel tiles below it; its INFO is
/// broadcast to every rank, so that all ranks stop at the same step; each panel owner solves
/// its tiles (TRSM: one call for all of them in a Cartesian local array) and sends them to
/// the ranks whose trailing tiles need them (cholesky_tiles.hpp), one message per destination.
///
/// Every transfer is non-blocking and posted as early as the driver can: receives when the
/// step begins, the factor and the panel as soon as they are computed. Messages of one kind
/// between two ranks are matched in posting order, which is step order on every rank; the
/// factorisation uses its own duplicated communicator, so no caller message can interfere.
/// All buffers are sized once, by allocate(), before the first message.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cholesky_tiles.hpp"
#include "kernels/cholesky_tile_ops.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/wait_requests.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// Step k's diagonal factor and panel tiles as this rank sees them. The driver uses two,
/// for even and odd steps in turn.
template <typename T>
class StepPanel {
 public:
  /// Plans every step this panel serves (first_step, first_step + 2, ...) once and sizes the
  /// buffers for the largest: the whole workspace, allocated without communicating.
  void allocate(const CholeskyTiles& tiles, std::int64_t first_step);

  /// Starts step k: posts the receive of the diagonal factor (on panel owners) and of the
  /// panel tiles this rank needs. @pre every transfer of the previous use is complete.
  void begin(const CholeskyTiles& tiles, std::int64_t k, MPI_Comm comm);

  /// The diagonal owner factorises its tile (already updated by every earlier step) and sends
  /// the factor; every rank joins the broadcast of the step's INFO.
  void factor_diagonal(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                       const DistributedMatrix<T>& a, MPI_Comm comm);

  /// Panel owners: once the factor is here and the step succeeded, solve their panel tiles in
  /// place, copy them into the panel buffer and send them on. Waits for the factor; does
  /// nothing when solve_panel_if_ready() already did it.
  void solve_panel(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                   const DistributedMatrix<T>& a, MPI_Comm comm);

  /// Called between the tile columns of the previous step's trailing update, so that a rank
  /// never idles waiting for a diagonal factor it could compute around: solves the panel
  /// (solve_panel) as soon as the factor and the step's INFO have arrived, without waiting
  /// for them. Tests nothing once the panel is solved (each test costs a little).
  void solve_panel_if_ready(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                            const DistributedMatrix<T>& a, MPI_Comm comm);

  /// The step's local POTRF INFO (0: success), the same on every rank.
  int info();
  /// Waits for the panel tiles this rank needs (after info() returned 0).
  void wait_receives() { wait_all(receives_); }
  /// Withdraws the panel receives of a failed step (nobody sends its panel).
  void cancel_receives();
  /// Waits until every factor and panel tile sent by this rank has left its buffers.
  void wait_sends() { wait_all(sends_); }

  /// True when this rank holds panel tile `line` of the step.
  bool has_line(std::int64_t line) const { return plan_.start(line) >= 0; }
  /// Panel tile `line` (contiguous). @pre has_line(line).
  PanelBlock<T> line(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                     std::int64_t line) const {
    const std::int64_t lines = tiles.size(line);
    return {buffer_.data() + plan_.start(line), ops.panel_ld(lines, kb_), lines};
  }
  std::int64_t width() const { return kb_; }
  std::int64_t step() const { return plan_.step(); }

 private:
  /// True once the factor and the step's INFO are here (tests them without waiting).
  bool factor_arrived();
  void solve_own_tiles(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                       const DistributedMatrix<T>& a);
  void post_panel_sends(MPI_Comm comm);
  /// When no element is read (elements_are_copied() false: simulated runs), a destination's
  /// message is as many contiguous elements from the buffer's start as its tiles hold: the
  /// same size, tag and posting, but SMPI neither packs an indexed type into a private copy
  /// nor copies that copy out again: those copies were 15 % of a 128-rank simulation's real
  /// time (perf), and the simulated times do not change (64 to 256 ranks, to 6 digits).
  void post_unread_send(const PanelExchange::Send& to, int rank, MPI_Comm comm);

  PanelExchange plan_;
  std::int64_t kb_ = 0;
  ScalarBuffer<T> buffer_;    ///< the step's panel tiles (plan_.start)
  ScalarBuffer<T> diagonal_;  ///< the factorised diagonal tile, kb×kb
  std::vector<int> diagonal_recipients_;
  std::vector<MPI_Request> receives_, sends_;
  MPI_Request diagonal_receive_ = MPI_REQUEST_NULL, info_request_ = MPI_REQUEST_NULL;
  int info_ = 0;
  bool factored_here_ = false;  ///< this rank owns the step's diagonal tile
  bool solved_ = false;  ///< this rank's part of the panel is done (solved and sent, or none)
};

template <typename T>
void StepPanel<T>::allocate(const CholeskyTiles& tiles, std::int64_t first_step) {
  std::int64_t elements = 0, kb = 0;
  std::size_t sends = 0, receives = 0;
  for (std::int64_t k = first_step; k < tiles.count(); k += 2) {
    plan_.plan(tiles, k);  // leaves plan_'s vectors at their largest capacity
    tiles.diagonal_recipients(k, diagonal_recipients_);
    elements = std::max(elements, plan_.elements());
    kb = std::max(kb, tiles.size(k));
    sends = std::max(sends, plan_.send_count() + diagonal_recipients_.size());
    receives = std::max(receives, plan_.receives().size());
  }
  buffer_.resize(static_cast<std::size_t>(elements));
  diagonal_.resize(static_cast<std::size_t>(kb * kb));
  sends_.reserve(sends);
  receives_.reserve(receives);
}

template <typename T>
void StepPanel<T>::begin(const CholeskyTiles& tiles, std::int64_t k, MPI_Comm comm) {
  plan_.plan(tiles, k);
  kb_ = tiles.size(k);
  info_ = 0;
  solved_ = plan_.own_lines().empty();
  const int diagonal_owner = tiles.owner(k, k);
  factored_here_ = diagonal_owner == tiles.my_rank();
  if (!plan_.own_lines().empty() && !factored_here_) {
    mpi::check_mpi(MPI_Irecv(diagonal_.data(), static_cast<int>(kb_ * kb_), mpi::mpi_type<T>(), diagonal_owner,
                             mpi::tag::kCholeskyDiagonal, comm, &diagonal_receive_), "MPI_Irecv");
  }
  receives_.assign(plan_.receives().size(), MPI_REQUEST_NULL);
  for (std::size_t r = 0; r < plan_.receives().size(); ++r) {
    const PanelExchange::Receive& from = plan_.receives()[r];
    mpi::check_mpi(MPI_Irecv(buffer_.data() + from.offset, static_cast<int>(from.count), mpi::mpi_type<T>(),
                             from.rank, mpi::tag::kCholeskyPanel, comm, &receives_[r]), "MPI_Irecv");
  }
}

template <typename T>
void StepPanel<T>::factor_diagonal(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                                   const DistributedMatrix<T>& a, MPI_Comm comm) {
  const std::int64_t k = plan_.step();
  const int diagonal_owner = tiles.owner(k, k);
  if (diagonal_owner == tiles.my_rank()) {
    const layout::TileLocation where = a.storage->tile_location(tiles.physical(k, k));
    T* tile = a.at(where);
    // The tile as it was, kept until POTRF succeeds: where it fails, the tile is factored
    // again column by column, so that it holds ScaLAPACK's partial factor (PxPOTF2's), which
    // an in-place take-over returns as it is.
    copy_matrix(tile, where.ld, diagonal_.data(), kb_, kb_, kb_);
    info_ = ops.factor_diagonal(tile, where.ld, kb_);
    if (info_ != 0) {
      copy_matrix(diagonal_.data(), kb_, tile, where.ld, kb_, kb_);
      info_ = ops.factor_diagonal_unblocked(tile, where.ld, kb_);
    }
    copy_matrix(tile, where.ld, diagonal_.data(), kb_, kb_, kb_);
    // Sent even when POTRF failed: the receives are already posted, and the INFO broadcast
    // tells the receivers not to use it.
    tiles.diagonal_recipients(k, diagonal_recipients_);
    for (const int rank : diagonal_recipients_) {
      sends_.emplace_back(MPI_REQUEST_NULL);
      mpi::check_mpi(MPI_Isend(diagonal_.data(), static_cast<int>(kb_ * kb_), mpi::mpi_type<T>(), rank,
                               mpi::tag::kCholeskyDiagonal, comm, &sends_.back()), "MPI_Isend");
    }
  }
  mpi::check_mpi(MPI_Ibcast(&info_, 1, MPI_INT, diagonal_owner, comm, &info_request_), "MPI_Ibcast");
}

template <typename T>
int StepPanel<T>::info() {
  mpi::check_mpi(MPI_Wait(&info_request_, MPI_STATUS_IGNORE), "MPI_Wait");
  return info_;
}

template <typename T>
void StepPanel<T>::solve_panel(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                               const DistributedMatrix<T>& a, MPI_Comm comm) {
  if (solved_) return;
  solved_ = true;
  mpi::check_mpi(MPI_Wait(&diagonal_receive_, MPI_STATUS_IGNORE), "MPI_Wait");
  if (info() != 0) return;  // the step failed: the factorisation stops before this panel
  solve_own_tiles(tiles, ops, a);
  post_panel_sends(comm);
}

template <typename T>
bool StepPanel<T>::factor_arrived() {
  if (factored_here_) return true;  // INFO known here; the broadcast completes in info()
  int here = 0;
  mpi::check_mpi(MPI_Test(&diagonal_receive_, &here, MPI_STATUS_IGNORE), "MPI_Test");
  if (here == 0) return false;
  mpi::check_mpi(MPI_Test(&info_request_, &here, MPI_STATUS_IGNORE), "MPI_Test");
  return here != 0;
}

template <typename T>
void StepPanel<T>::solve_panel_if_ready(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                                        const DistributedMatrix<T>& a, MPI_Comm comm) {
  if (!solved_ && factor_arrived()) solve_panel(tiles, ops, a, comm);
}

template <typename T>
void StepPanel<T>::solve_own_tiles(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                                   const DistributedMatrix<T>& a) {
  const std::int64_t k = plan_.step();
  const auto location = [&](std::int64_t i) {
    return a.storage->tile_location(tiles.physical(i, k));
  };
  if (a.storage->kind() == layout::StorageKind::ColumnMajorArray) {
    // In a Cartesian local array this rank's panel tiles follow one another (the tile rows of
    // its grid row, or the tile columns of its grid column): one TRSM solves them all.
    std::int64_t lines = 0;
    for (const std::int64_t i : plan_.own_lines()) lines += tiles.size(i);
    const layout::TileLocation first = location(plan_.own_lines().front());
    ops.solve_panel_tile(diagonal_.data(), kb_, kb_, a.at(first), first.ld, lines);
  } else {
    // Own tiles that follow one another in one buffer (an in-place storage's kept or received
    // tile column) are solved by one TRSM; packed tiles (TiledLocalLayout: each with its own
    // height as leading dimension) stay one TRSM each.
    const FlopBatch batch;  // one simulated computation for the whole loop
    const std::vector<std::int64_t>& own = plan_.own_lines();
    for (std::size_t first = 0; first < own.size();) {
      const layout::TileLocation where = location(own[first]);
      std::int64_t lines = tiles.size(own[first]);
      std::size_t next = first + 1;
      for (; next < own.size(); ++next) {
        const layout::TileLocation there = location(own[next]);
        const bool lower = ops.uplo() == Uplo::Lower;
        const std::int64_t after = where.offset + (lower ? lines : lines * where.ld);
        // Lower: the merged rows must fit the leading dimension (packed tiles' ld is their height).
        if (there.base != where.base || there.ld != where.ld || there.offset != after ||
            (lower && lines + tiles.size(own[next]) > where.ld))
          break;
        lines += tiles.size(own[next]);
      }
      ops.solve_panel_tile(diagonal_.data(), kb_, kb_, a.at(where), where.ld, lines);
      first = next;
    }
  }
  for (const std::int64_t i : plan_.own_lines()) {
    const layout::TileLocation where = location(i);
    const std::int64_t lines = tiles.size(i);
    ops.copy_lines(a.at(where), where.ld, buffer_.data() + plan_.start(i),
                   ops.panel_ld(lines, kb_), lines, kb_);
  }
}

template <typename T>
void StepPanel<T>::post_panel_sends(MPI_Comm comm) {
  for (std::size_t rank = 0; rank < plan_.sends().size(); ++rank) {
    const PanelExchange::Send& to = plan_.sends()[rank];
    if (to.counts.empty()) continue;
    if (!elements_are_copied()) {
      post_unread_send(to, static_cast<int>(rank), comm);
      continue;
    }
    // The destination's tiles, picked out of the buffer without packing them first.
    MPI_Datatype tiles_type = MPI_DATATYPE_NULL;
    mpi::check_mpi(MPI_Type_indexed(static_cast<int>(to.counts.size()), to.counts.data(),
                                    to.offsets.data(), mpi::mpi_type<T>(), &tiles_type),
                   "MPI_Type_indexed");
    mpi::check_mpi(MPI_Type_commit(&tiles_type), "MPI_Type_commit");
    sends_.emplace_back(MPI_REQUEST_NULL);
    mpi::check_mpi(MPI_Isend(buffer_.data(), 1, tiles_type, static_cast<int>(rank), mpi::tag::kCholeskyPanel, comm,
                             &sends_.back()), "MPI_Isend");
    // Released by MPI once the send completes; a failed free only leaks the type.
    (void)MPI_Type_free(&tiles_type);
  }
}

template <typename T>
void StepPanel<T>::post_unread_send(const PanelExchange::Send& to, int rank, MPI_Comm comm) {
  std::int64_t elements = 0;
  for (const int count : to.counts) elements += count;
  sends_.emplace_back(MPI_REQUEST_NULL);
  mpi::check_mpi(MPI_Isend(buffer_.data(), mpi::mpi_count(elements, "cholesky: panel message"),
                           mpi::mpi_type<T>(), rank, mpi::tag::kCholeskyPanel, comm, &sends_.back()),
                 "MPI_Isend");
}

template <typename T>
void StepPanel<T>::cancel_receives() {
  // Cancelling is best effort on a path that already failed: the wait below is what counts.
  for (MPI_Request& request : receives_) (void)MPI_Cancel(&request);
  wait_all(receives_);
}

}  // namespace hetscal::kernels::detail
