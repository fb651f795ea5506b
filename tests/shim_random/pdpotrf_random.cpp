// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// random PDPOTRF cases — N 0..48, UPLO = U and L (lower case too), IA/JA on block
// boundaries, RSRC/CSRC != 0, padded LLD, NaN in the triangle PDPOTRF must not reference,
// matrices that are not positive definite at a chosen order, and now and then an argument
// ScaLAPACK refuses (the 11-entry descriptor type, UPLO, IA/JA off a block boundary,
// MB != NB) — on every BLACS grid of the process count. Each process checks INFO, its part
// of the factor against a long-double plain-loop Cholesky of the formulas, and that
// everything else stayed bit-identical. Run plain, or with libhetscal.so preloaded.
//
// usage: pdpotrf_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
#include <mpi.h>

#include <cstdio>

#include "potrf_check.hpp"
#include "random_driver.hpp"

namespace {

using namespace hetscal_test;

std::string run_potrf_case(std::uint64_t seed, const GridSpec& spec, const GridPosition& grid,
                           int max_dimension) {
  const PotrfCase t = draw_potrf_case(seed, spec.nprow, spec.npcol, max_dimension);
  const PotrfFindings f = run_and_check(t, grid);
  if (!f.failed()) return "";
  char counts[240];
  std::snprintf(
      counts, sizeof counts,
      "\nhetscal-random:   INFO %d (expected %d), %ld wrong in the factor, %ld changed in "
      "the other triangle, %ld outside sub(A), %ld in the padding, %ld in a refused "
      "call's sub(A); first: ",
      f.info, t.expected_info(), f.wrong_factor, f.changed_other_triangle, f.changed_outside,
      f.changed_padding, f.changed_refused);
  return t.describe() + counts + f.first_problem;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  RandomProgram program;
  program.name = "pdpotrf_random";
  program.computable_rule = "arguments accepted, N >= the grid's process count";
  program.default_max_dimension = 48;
  program.may_compute = [](std::uint64_t seed, const GridSpec& spec, int max_dimension) {
    return draw_potrf_case(seed, spec.nprow, spec.npcol, max_dimension)
        .computable(spec.nprow * spec.npcol);
  };
  program.run_and_check = run_potrf_case;
  const int status = run_random_program(argc, argv, program);
  MPI_Finalize();
  return status;
}
