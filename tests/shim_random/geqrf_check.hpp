#pragma once
/// @file geqrf_check.hpp
/// Runs one PxGEQRF case (any precision) on this process's part of A and checks it against
/// ScaLAPACK's own PxGEQRF of that precision run on a copy (found in the ScaLAPACK library
/// itself, so that a preloaded hetscal does not answer for it): the workspace query's
/// WORK(1) (a number of the precision) and the call's INFO and WORK(1) identical; R, the
/// reflectors and TAU equal up to rounding (bounds in the precision's epsilon, scaled by the
/// case's scale and size), TAU's entries written exactly where ScaLAPACK writes them; on
/// complex data, reflectors as xLARFG defines them: R's diagonal (beta) real; and bit for bit
/// everywhere else: A outside sub(A), the padding below LLD, a refused call's or a query's
/// sub(A) and TAU, and a guard past TAU's end.
#include <string>

#include "geqrf_case.hpp"
#include "local_operand.hpp"

namespace hetscal_test {

/// What one process found wrong in one case.
struct GeqrfFindings {
  int info = 0;                 ///< INFO as returned on this process
  long query_unlike = 0;        ///< the query's WORK(1) or INFO unlike ScaLAPACK's
  long work_unlike = 0;         ///< the call's WORK(1) unlike ScaLAPACK's
  long factor_unlike = 0;       ///< sub(A) elements beyond rounding of ScaLAPACK's
  long tau_unlike = 0;          ///< TAU entries beyond rounding of ScaLAPACK's
  long tau_misplaced = 0;       ///< TAU written where ScaLAPACK leaves it, or left where it writes
  long complex_beta = 0;        ///< R's diagonal with an imaginary part (xLARFG's beta is real)
  long changed_outside = 0;     ///< A outside sub(A), not bit-identical
  long changed_padding = 0;     ///< the padding below LLD, not bit-identical
  long changed_left = 0;        ///< sub(A) or TAU changed by a call that computes nothing
  bool wrong_info = false;
  std::string first_problem;    ///< the first offending element, for the report

  /// One line of what was wrong, for the failure report.
  std::string counts(const GeqrfCase& t) const;
  bool failed() const {
    return wrong_info || query_unlike + work_unlike + factor_unlike + tau_unlike + tau_misplaced +
                                 complex_beta + changed_outside + changed_padding + changed_left >
                             0;
  }
};

/// Builds the local part of A in scalar type T (float, double, std::complex<float> or
/// std::complex<double>), calls PSGEQRF, PDGEQRF, PCGEQRF or PZGEQRF (every process of the
/// grid must call this for the same case), and checks this process's part.
template <typename T>
GeqrfFindings run_and_check(const GeqrfCase& t, const GridPosition& grid);

}  // namespace hetscal_test
