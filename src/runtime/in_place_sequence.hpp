#pragma once
/// @file in_place_sequence.hpp
/// The take-over sequence the in-place factorizations share (issue 28, item 5: all or
/// nothing; in_place_potrf.hpp, in_place_getrf.hpp). Before the first write into the caller's
/// arrays: this rank's buffers allocated in the agreed stage "allocate", the kernel prepared
/// (its own allocation and communicator, agreed), the surplus moved in (the caller's array only
/// read), and the move back agreed (it allocates nothing), the last failure point before the
/// first write. A failure there, on any rank, forwards the call with nothing written. After it
/// only MPI can fail: the factorization, the move back and what the routine writes besides.
#include <exception>
#include <string>

#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// Runs the sequence over `comm` (collective) with the routine's `steps`, which provide:
/// - void allocate(): this rank's buffers (overflow, message requests, ...), local;
/// - void prepare(): the kernel's workspace and communicator, agreed by the kernel;
/// - void move_surplus(bool in): the surplus's messages, in or back;
/// - std::int64_t factorize(): the kernel's run, returning INFO;
/// - void finish(): what the routine writes after the move back (IPIV), local.
/// @return Computed (with INFO), Forward (nothing written: a stage before the first write
///         failed on some rank) or FailedAfterWrite.
template <typename Steps>
TakeOverOutcome run_in_place(MPI_Comm comm, Steps& steps) {
  detail::Stopwatch clock;
  TakeOverOutcome outcome;
  try {
    mpi::run_agreed(comm, "allocate", [&] {
      mpi::fault_point(mpi::Stage::Allocate);
      steps.allocate();
    });
    steps.prepare();  // the kernel's stage "compute": nothing is written
    outcome.allocate_s = clock.lap();
    mpi::run_agreed(comm, "move-in", [&] { mpi::fault_point(mpi::Stage::MoveIn); });
    steps.move_surplus(true);  // reads the caller's array, writes the overflow
    mpi::run_agreed(comm, "move-out", [&] { mpi::fault_point(mpi::Stage::MoveOut); });
    outcome.move_in_s = clock.lap();
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::Forward;
    outcome.reason = e.what();
    outcome.seconds = outcome.allocate_s + outcome.move_in_s + clock.lap();
    return outcome;
  }
  // From here on the caller's array is written: only MPI can fail.
  try {
    mpi::slow_compute_point();
    // INFO is at most the order the caller passed as an int; the same on every rank.
    outcome.info = static_cast<int>(steps.factorize());
    outcome.compute_s = clock.lap();
    // Also after a failure the factorization reports: the partial factor goes back whole.
    steps.move_surplus(false);
    steps.finish();
    outcome.move_out_s = clock.lap();
    outcome.status = TakeOverOutcome::Status::Computed;
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::FailedAfterWrite;
    outcome.reason = std::string("factorizing in place failed after writing into A: ") + e.what();
  }
  outcome.seconds = outcome.allocate_s + outcome.move_in_s + outcome.compute_s + outcome.move_out_s;
  return outcome;
}

}  // namespace hetscal::runtime
