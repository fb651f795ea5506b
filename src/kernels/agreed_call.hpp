#pragma once
/// @file agreed_call.hpp
/// What every factorisation kernel does before its first message: argument checks agreed by
/// every rank, and a duplicate of the caller's communicator for its own messages.
#include <mpi.h>

#include <string>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
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

/// A duplicate of the caller's communicator, freed with the kernel's call, so that no
/// caller message can match the kernel's.
class DuplicatedComm {
 public:
  explicit DuplicatedComm(MPI_Comm comm) {
    mpi::check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  }
  ~DuplicatedComm() { (void)MPI_Comm_free(&comm_); }  // a failed free only leaks it
  DuplicatedComm(const DuplicatedComm&) = delete;
  DuplicatedComm& operator=(const DuplicatedComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace hetscal::kernels::detail
