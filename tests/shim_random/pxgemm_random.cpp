// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// thousands of random PxGEMM cases (x: the precision it is built for, HETSCAL_TEST_PRECISION
// = 's', 'd', 'c' or 'z'; complex cases have complex operands, ALPHA and BETA) — shapes 0..40,
// N/T/C, submatrices off block boundaries, both descriptor types, RSRC/CSRC != 0, padded LLD,
// alpha/beta including 0 (beta = 0 with NaN in C) and K = 0 — on every BLACS grid of the process
// count, and checks each process's part against a plain-loop product of the operands' formulas, and
// that nothing outside sub(C) changed. Run with libhetscal.so preloaded (CMakeLists.txt here).
//
// usage: p<x>gemm_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
//   --grid/--case run one grid / one case only: the reproducer a failure report prints.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "gemm_check.hpp"
#include "precision.hpp"
#include "random_driver.hpp"

namespace {

using namespace hetscal_test;
using Scalar = scalar_of_t<HETSCAL_TEST_PRECISION>;

std::string run_gemm_case(std::uint64_t seed, const GridSpec& spec, const GridPosition& grid,
                          int max_dimension) {
  const GemmCase t = draw_gemm_case(seed, spec.nprow, spec.npcol, max_dimension);
  const CaseFindings f = run_and_check<Scalar>(t, grid);
  if (!f.failed()) return "";
  char counts[200];
  std::snprintf(counts, sizeof counts,
                "\nhetscal-random:   %ld wrong in sub(C), %ld changed outside sub(C), A %ld, B %ld "
                "changed; first: ",
                f.wrong_in_sub_c, f.changed_outside, f.changed_a, f.changed_b);
  return t.describe() + counts + f.first_problem;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string name = random_program_name(HETSCAL_TEST_PRECISION, "gemm");
  RandomProgram program;
  program.name = name.c_str();
  program.computable_rule = "M, N, K >= 1, alpha != 0";
  program.may_compute = [](std::uint64_t seed, const GridSpec& spec, int max_dimension) {
    return draw_gemm_case(seed, spec.nprow, spec.npcol, max_dimension).computable();
  };
  program.run_and_check = run_gemm_case;
  const int status = run_random_program(argc, argv, program);
  MPI_Finalize();
  return status;
}
