#pragma once
/// @file getrf_check.hpp
/// Runs one PxGETRF case (any precision) on this process's part of A and checks it against
/// the factors, pivots and INFO the case was built from (getrf_case.hpp: exact in every
/// precision, no LU run), against ScaLAPACK's own PxGETRF of that precision run on a copy (found in the ScaLAPACK library itself, so that a
/// preloaded hetscal does not answer for it: IPIV as ScaLAPACK leaves it, spare entries
/// included), and bit for bit everywhere else: A outside sub(A), the padding below LLD,
/// IPIV's entries nobody writes and a guard past its end.
#include <string>

#include "getrf_case.hpp"
#include "local_operand.hpp"

namespace hetscal_test {

/// What one process found wrong in one case.
struct GetrfFindings {
  int info = 0;               ///< INFO as returned on this process
  long wrong_factor = 0;      ///< sub(A) elements unlike the known L and U
  long wrong_pivot = 0;       ///< IPIV entries of sub(A)'s rows unlike the known pivots
  long unlike_scalapack = 0;  ///< A or IPIV elements unlike ScaLAPACK's own run's
  long changed_outside = 0;   ///< A outside sub(A), not bit-identical
  long changed_padding = 0;   ///< the padding below LLD, not bit-identical
  long changed_refused = 0;   ///< sub(A) or IPIV elements a refused or quick call changed
  long ipiv_overrun = 0;      ///< guard entries past LOCr(M_A)+MB_A written
  bool wrong_info = false;
  std::string first_problem;  ///< the first offending element, for the report

  /// One line of what was wrong, for the failure report.
  std::string counts(const GetrfCase& t) const;
  bool failed() const {
    return wrong_info || wrong_factor + wrong_pivot + unlike_scalapack + changed_outside +
                                 changed_padding + changed_refused + ipiv_overrun >
                             0;
  }
};

/// Builds the local part of A in scalar type T (float, double, std::complex<float> or
/// std::complex<double>), calls PSGETRF, PDGETRF, PCGETRF or PZGETRF (every process of the
/// grid must call this for the same case), and checks this process's part.
template <typename T>
GetrfFindings run_and_check(const GetrfCase& t, const GridPosition& grid);

}  // namespace hetscal_test
