#pragma once
/// @file fault_injection.hpp
/// A failure on purpose, for the tests only: HETSCAL_TEST_FAULT=<stage>@<rank> makes the
/// process of MPI_COMM_WORLD rank <rank> fail the local part of <stage> (plan, allocate,
/// move-in, compute, move-out) of every taken-over call, as an allocation failure there
/// would. Several entries may be given, separated by commas. The tests use it to prove that
/// every rank then takes the same route (ScaLAPACK's, with the caller's data untouched) and
/// that nothing hangs. Unset in production: fault_point() is one branch on a cached flag.
#include <string>

#include "core/common/error.hpp"

namespace hetscal::mpi {

/// The stages of a taken-over call, in order.
enum class Stage { Plan, Allocate, MoveIn, Compute, MoveOut };

/// "plan", "allocate", "move-in", "compute", "move-out".
const char* stage_name(Stage stage);

/// What fault_point throws.
class InjectedFault : public Error {
 public:
  using Error::Error;
};

/// @throws InjectedFault when HETSCAL_TEST_FAULT names `stage` and this process's rank.
/// A malformed HETSCAL_TEST_FAULT is reported once on stderr and ignored.
void fault_point(Stage stage);

/// A slow kernel on purpose, for the tests of decisions from observation:
/// HETSCAL_TEST_SLOW_COMPUTE=<seconds> makes every process sleep that long in the compute
/// stage of every taken-over call, so that hetscal measures itself slower than ScaLAPACK.
/// A malformed or negative value is reported once on stderr and ignored.
void slow_compute_point();

}  // namespace hetscal::mpi
