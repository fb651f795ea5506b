#include "runtime/in_place_potrf.hpp"

#include <complex>
#include <optional>

#include "kernels/cholesky.hpp"
#include "kernels/scalar.hpp"
#include "kernels/summa_support.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/in_place_moves.hpp"

namespace hetscal::runtime {

template <typename T>
InPlacePotrf<T>::InPlacePotrf(const mpi::ContextInfo& context, const PotrfCall<T>& call,
                              const std::vector<double>& speeds)
    : context_(context), call_(call), a_(mpi::caller_matrix(context, call.a.desc, call.a.ia - 1, call.a.ja - 1, call.n, call.n)) {
  const layout::CartesianDistribution& caller = *a_.distribution;
  // PxPOTRF's own checks make the tiles square (MB = NB, IA and JA alike in their blocks);
  // the kernel needs it, so it is checked rather than assumed.
  if (caller.rows() != caller.cols()) {
    problem_ = "the in-place route needs sub(A)'s tiles square";
    return;
  }
  layout_ = minimal_move_layout(caller, speeds, core::KeptLines::Spread);
  const layout::StoredTiles triangle = call.uplo == kernels::Uplo::Lower ? layout::StoredTiles::LowerTriangle
                                                                         : layout::StoredTiles::UpperTriangle;
  storage_ = std::make_unique<layout::InPlaceLocalLayout>(*layout_, caller, *a_.storage, triangle);
}

template <typename T>
double InPlacePotrf<T>::new_bytes(const Workspace& workspace) const {
  const std::int64_t nb = kernels::detail::largest_tile(layout_->rows());
  const double kernel = static_cast<double>(kernels::cholesky_workspace_bound(call_.n, nb)) * sizeof(T);
  return static_cast<double>(workspace.growth<T>(0, static_cast<std::size_t>(storage_->overflow_elements()))) +
         kernel;
}

template <typename T>
void InPlacePotrf<T>::move_surplus(bool in, T* overflow, std::vector<MPI_Request>& requests) const {
  const layout::TileSplit& split = layout_->rows();
  requests.clear();  // keeps the capacity reserved
  // Between two ranks, the sender's given() and the receiver's received() list their common
  // tiles in the same order (column by column of tiles, top to bottom): the messages match.
  for (const layout::GlobalTile t : storage_->given()) {
    const layout::TileLocation where = a_.storage->tile_location(t);
    post_tile<T>(in, call_.a.data + where.offset, split.size(t.row), split.size(t.col), where.ld, layout_->owner(t),
                 context_.comm, requests);
  }
  for (const layout::GlobalTile t : storage_->received()) {
    const layout::TileLocation where = storage_->tile_location(t);
    post_tile<T>(!in, overflow + where.offset, split.size(t.row), split.size(t.col), where.ld,
                 a_.distribution->owner(t), context_.comm, requests);
  }
  mpi::check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

template <typename T>
TakeOverOutcome InPlacePotrf<T>::run(Workspace& workspace) const {
  detail::Stopwatch clock;
  TakeOverOutcome outcome;
  const MPI_Comm comm = context_.comm;
  T* overflow = nullptr;
  std::optional<kernels::PreparedCholesky<T>> factorization;
  // One request per surplus tile this rank sends or receives, reserved in the allocate stage:
  // the moves then allocate nothing of hetscal's, so only MPI can fail one rank while the
  // others wait for its messages.
  std::vector<MPI_Request> requests;
  try {
    mpi::run_agreed(comm, "allocate", [&] {
      mpi::fault_point(mpi::Stage::Allocate);
      overflow = workspace.buffer<T>(0, static_cast<std::size_t>(storage_->overflow_elements()));
      requests.reserve(storage_->given().size() + storage_->received().size());
    });
    // The kernel's panels and communicator, agreed (its stage "compute"): nothing is written.
    factorization.emplace(call_.uplo,
                          kernels::DistributedMatrix<T>{layout_.get(), storage_.get(), call_.a.data, overflow}, comm);
    outcome.allocate_s = clock.lap();
    mpi::run_agreed(comm, "move-in", [&] { mpi::fault_point(mpi::Stage::MoveIn); });
    move_surplus(true, overflow, requests);  // reads the caller's array, writes the overflow
    // The move back allocates nothing; its failure point is agreed here, the last before
    // the first write.
    mpi::run_agreed(comm, "move-out", [&] { mpi::fault_point(mpi::Stage::MoveOut); });
    outcome.move_in_s = clock.lap();
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::Forward;
    outcome.reason = e.what();
    outcome.seconds = outcome.allocate_s + outcome.move_in_s + clock.lap();
    return outcome;
  }
  // From here on the caller's sub(A) is written: only MPI can fail.
  try {
    mpi::slow_compute_point();
    // INFO is at most N, which the caller passed as an int; the same on every rank.
    outcome.info = static_cast<int>(factorization->run());
    outcome.compute_s = clock.lap();
    // Also after a failed minor: the partial factor goes back whole, as ScaLAPACK leaves it.
    move_surplus(false, overflow, requests);
    outcome.move_out_s = clock.lap();
    outcome.status = TakeOverOutcome::Status::Computed;
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::FailedAfterWrite;
    outcome.reason = std::string("factorizing in place failed after writing into A: ") + e.what();
  }
  outcome.seconds = outcome.allocate_s + outcome.move_in_s + outcome.compute_s + outcome.move_out_s;
  return outcome;
}

#define HETSCAL_INSTANTIATE_IN_PLACE_POTRF(T) template class InPlacePotrf<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_POTRF)
#undef HETSCAL_INSTANTIATE_IN_PLACE_POTRF

}  // namespace hetscal::runtime
