#pragma once
/// @file gemm_check.hpp
/// Runs one PxGEMM case on this process's part of the operands and checks it against a
/// plain-loop product of the formulas (no ScaLAPACK, no BLAS), in double precision on the
/// operands as the precision holds them.
#include <string>

#include "gemm_case.hpp"
#include "local_operand.hpp"

namespace hetscal_test {

/// What one process found wrong in one case.
struct CaseFindings {
  long wrong_in_sub_c = 0;      ///< elements of sub(C) outside the error bound (or NaN)
  long changed_outside = 0;     ///< C elements outside sub(C), or padding, not bit-identical
  long changed_a = 0, changed_b = 0;  ///< A or B elements (padding included) not bit-identical
  std::string first_problem;    ///< the first offending element, for the report

  bool failed() const { return wrong_in_sub_c + changed_outside + changed_a + changed_b > 0; }
};

/// Builds the local operands in scalar type T (float, double, std::complex<float> or
/// std::complex<double>), calls PSGEMM, PDGEMM, PCGEMM or PZGEMM (every process of the grid
/// must call this for the same case), and checks this process's part.
template <typename T>
CaseFindings run_and_check(const GemmCase& t, const GridPosition& grid);

}  // namespace hetscal_test
