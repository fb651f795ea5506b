#pragma once
/// @file allocate_agreed.hpp
/// All or nothing inside the kernels (issue 15), shared by every distributed kernel: a
/// kernel allocates its whole workspace first, without communicating, and the ranks then
/// agree that every rank succeeded before the first message.
#include <mpi.h>

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

}  // namespace hetscal::kernels::detail
