#pragma once
/// @file agreed_call.hpp
/// What every factorisation kernel does before its first message: argument checks agreed by
/// every rank, and a duplicate of the caller's communicator for its own messages (made once
/// per communicator).
#include <mpi.h>

#include <memory>
#include <string>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels::detail {

/// Runs `check` (this rank's argument checks, which return its rank in `comm`) and lets every
/// rank learn whether some rank refused: a refusal that depends on one rank's own storage
/// would otherwise leave the other ranks waiting in the first collective.
/// @param stage names the check in the message ("cholesky's argument check").
/// @throws InvalidArgument on every rank, with the message of the lowest refusing rank.
template <typename Check>
int agreed_arguments(MPI_Comm comm, const char* stage, Check&& check) {
  int rank = 0;
  std::string refusal;
  try {
    rank = check();
  } catch (const InvalidArgument& e) {
    refusal = e.what();
  }
  try {
    mpi::agree_on_stage(comm, stage, refusal);
  } catch (const mpi::StageFailed& e) {
    throw InvalidArgument(e.what());
  }
  return rank;
}

/// The attribute under which a caller's communicator keeps the kernels' duplicate of it: the
/// duplicate is freed (free_kernel_comm) when the caller frees its communicator.
inline int free_kernel_comm(MPI_Comm, int, void* attribute, void*) {
  MPI_Comm* duplicate = static_cast<MPI_Comm*>(attribute);
  (void)MPI_Comm_free(duplicate);  // a failed free only leaks it
  delete duplicate;
  return MPI_SUCCESS;
}

inline int kernel_comm_keyval() {
  static const int keyval = [] {
    int created = MPI_KEYVAL_INVALID;
    mpi::check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_kernel_comm, &created, nullptr),
                   "MPI_Comm_create_keyval");
    return created;
  }();
  return keyval;
}

/// The kernels' own communicator over the caller's `comm`, so that no caller message can match
/// a kernel's: a duplicate made by the first kernel call on `comm` and kept with it (an
/// attribute, freed when `comm` is), so that later calls create no communicator (a duplicate
/// agrees on a new context id over all ranks: a cost per call that grows with P). Every
/// kernel call completes its messages before it returns, so calls can share it. Collective
/// over `comm` on its first use only, which is the same call on every rank.
class DuplicatedComm {
 public:
  explicit DuplicatedComm(MPI_Comm comm) {
#ifdef HETSCAL_SIMGRID
    // SMPI shares a communicator's attributes among the simulated ranks (one process), so a
    // cached duplicate would be the last rank's for all: simulated kernels duplicate per call.
    owned_ = true;
    mpi::check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    return;
#endif
    void* attribute = nullptr;
    int found = 0;
    mpi::check_mpi(MPI_Comm_get_attr(comm, kernel_comm_keyval(), &attribute, &found), "MPI_Comm_get_attr");
    if (found) {
      comm_ = *static_cast<MPI_Comm*>(attribute);
      return;
    }
    // Not found on any rank (every rank ran the same kernels on comm). The duplicate's holder
    // is allocated, and agreed, before MPI_Comm_dup's collective: a rank short of memory here
    // left the others waiting in it (fault sweep, native PxPOTRF on a 2x2 grid).
    std::unique_ptr<MPI_Comm> duplicate;
    mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Compute),
                    [&] { duplicate = std::make_unique<MPI_Comm>(MPI_COMM_NULL); });
    mpi::check_mpi(MPI_Comm_dup(comm, duplicate.get()), "MPI_Comm_dup");
    const int code = MPI_Comm_set_attr(comm, kernel_comm_keyval(), duplicate.get());
    if (code != MPI_SUCCESS) (void)MPI_Comm_free(duplicate.get());
    mpi::check_mpi(code, "MPI_Comm_set_attr");
    comm_ = *duplicate.release();  // owned by the attribute from now on
  }
  ~DuplicatedComm() {
    if (owned_) (void)MPI_Comm_free(&comm_);  // a failed free only leaks it
  }
  DuplicatedComm(const DuplicatedComm&) = delete;
  DuplicatedComm& operator=(const DuplicatedComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;  ///< a per-call duplicate (SimGrid builds), freed with this object
};

}  // namespace hetscal::kernels::detail
