#pragma once
/// @file lapack_outcome.hpp
/// How the native API's LAPACK-style routines (hetero_pdgetrf/pdgetrs, hetero_pdpotrf/pdpotrs)
/// report: a hetscal_status as the return value and ScaLAPACK's INFO, with hetscal's own
/// failures apart from every argument code (HETSCAL_INFO_FAILED).
#include <exception>

#include "hetscal/hetscal.h"
#include "mpi/agreement.hpp"

namespace hetscal::api {

struct LapackOutcome {
  int status = HETSCAL_SUCCESS;
  int info = 0;

  /// ScaLAPACK's INFO: < 0 an argument error, >= 0 computed.
  static LapackOutcome of_info(int info) {
    return {info < 0 ? HETSCAL_ERR_ARGUMENT : HETSCAL_SUCCESS, info};
  }
  /// hetscal could not compute (a #hetscal_status other than success or argument).
  static LapackOutcome failed(int status) { return {status, HETSCAL_INFO_FAILED(status)}; }
};

/// Runs `call` (returning a LapackOutcome), stores INFO and returns the status; a failed
/// stage or any other exception is HETSCAL_ERR_INTERNAL.
template <typename Call>
int report(int* info, Call&& call) {
  LapackOutcome outcome;
  try {
    outcome = call();
  } catch (const std::exception&) {
    outcome = LapackOutcome::failed(HETSCAL_ERR_INTERNAL);
  }
  if (info) *info = outcome.info;
  return outcome.status;
}

}  // namespace hetscal::api
