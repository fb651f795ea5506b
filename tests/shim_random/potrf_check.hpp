#pragma once
/// @file potrf_check.hpp
/// Runs one PxPOTRF case on this process's part of A and checks it: INFO against the
/// case's (ScaLAPACK's rules, the order chosen by construction and confirmed by a plain-loop
/// Cholesky), the UPLO triangle against that long-double factor, and everything else — the
/// other triangle (NaN), A outside sub(A), the padding below LLD — bit for bit.
#include <string>

#include "local_operand.hpp"
#include "potrf_case.hpp"

namespace hetscal_test {

/// What one process found wrong in one case.
struct PotrfFindings {
  int info = 0;                     ///< INFO as returned on this process
  long wrong_factor = 0;            ///< UPLO-triangle elements outside the error bound (or NaN)
  long changed_other_triangle = 0;  ///< elements of the other triangle not bit-identical
  long changed_outside = 0;         ///< A outside sub(A), not bit-identical
  long changed_padding = 0;         ///< the padding below LLD, not bit-identical
  long changed_refused = 0;         ///< sub(A) elements a refused or N = 0 call changed
  bool wrong_info = false;
  std::string first_problem;  ///< the first offending element, for the report

  /// One line of what was wrong, for the failure report.
  std::string counts(const PotrfCase& t) const;
  bool failed() const {
    return wrong_info || wrong_factor + changed_other_triangle + changed_outside + changed_padding +
                                 changed_refused >
                             0;
  }
};

/// Builds the local part of A in scalar type T (float, double, std::complex<float> or
/// std::complex<double>), calls PSPOTRF, PDPOTRF, PCPOTRF or PZPOTRF (every process of the
/// grid must call this for the same case), and checks this process's part.
template <typename T>
PotrfFindings run_and_check(const PotrfCase& t, const GridPosition& grid);

}  // namespace hetscal_test
