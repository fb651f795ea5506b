#pragma once
/// @file allocate_agreed.hpp
/// All or nothing inside the kernels (issue 15), shared by every distributed kernel: a
/// kernel allocates its whole workspace first, without communicating, and the ranks then
/// agree that every rank succeeded before the first message.
#include <mpi.h>

#include <memory>
#include <new>
#include <utility>

#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"

namespace hetscal::kernels::detail {

/// Runs `allocate`, which makes this rank's whole workspace for the kernel (moved operands,
/// message buffers, panels, partial sums) without communicating, then lets every rank learn
/// whether every rank's allocation succeeded. Nothing is allocated afterwards, so a rank
/// short of memory can never leave the others waiting in a collective, and the kernel's
/// output is untouched when this throws.
/// @throws mpi::StageFailed on every rank when any rank's allocation failed.
template <typename Allocate>
void allocate_agreed(MPI_Comm comm, Allocate&& allocate) {
  mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Compute), [&] {
    mpi::fault_point(mpi::Stage::Compute);  // where the tests make one rank fail
    allocate();
  });
}

/// Makes an Object whose constructor's first act is collective (an argument check's
/// agreement, allocate_agreed): the Object's own memory is allocated in an agreed stage
/// first. Made unagreed, a rank that could not make it threw alone and left the others
/// waiting in that first agreement (the fault sweep's hang at PSPOTRF's first kernel
/// allocation). Used for the prepared kernels (PreparedCholesky, PreparedLu).
/// @throws mpi::StageFailed on every rank when any rank's allocation failed; whatever the
///         constructor throws (on every rank alike: it agrees before it throws).
template <typename Object, typename... Args>
std::unique_ptr<Object> make_agreed(MPI_Comm comm, Args&&... args) {
  void* memory = nullptr;
  allocate_agreed(comm, [&] { memory = ::operator new(sizeof(Object)); });
  try {
    return std::unique_ptr<Object>(new (memory) Object(std::forward<Args>(args)...));
  } catch (...) {
    ::operator delete(memory);
    throw;
  }
}

}  // namespace hetscal::kernels::detail
