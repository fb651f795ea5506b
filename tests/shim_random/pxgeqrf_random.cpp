// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// random PxGEQRF cases (x: the precision it is built for, HETSCAL_TEST_PRECISION = 's', 'd',
// 'c' or 'z'; complex cases have complex entries) — M, N 0..48 (square, tall, wide), any
// IA/JA, MB != NB, RSRC/CSRC != 0, padded LLD, zero columns, tiny and huge entries (for the
// precision), LWORK at, above and below LWMIN and workspace queries, now and then the
// 11-entry descriptor type ScaLAPACK refuses — on every BLACS grid of the process count.
// Each process checks its part of R, the reflectors, TAU, WORK(1) and INFO against
// ScaLAPACK's own PxGEQRF on a copy (within the precision's rounding), R's diagonal real on
// complex data (xLARFG's beta), and that everything else stayed bit-identical. Run plain,
// or with libhetscal.so preloaded.
//
// usage: p<x>geqrf_random [--square-blocks] [--cases-per-grid N] [--seed S] [--max-dimension D]
//                         [--grid G] [--case C]
//   --square-blocks (first): each case drawn with square blocks aligned alike in rows and
//   columns (draw_geqrf_case_square_blocks), the cases an in-place take-over computes.
#include <cstring>
#include <string>

#include "geqrf_check.hpp"
#include "precision.hpp"
#include "random_driver.hpp"

int main(int argc, char** argv) {
  using namespace hetscal_test;
  const bool square_blocks = argc > 1 && std::strcmp(argv[1], "--square-blocks") == 0;
  if (square_blocks) {  // the driver reads the options after it
    argv[1] = argv[0];
    ++argv;
    --argc;
  }
  // The name heads the reproducer line of a failure report: the option goes with it.
  const std::string name = random_program_name(HETSCAL_TEST_PRECISION, "geqrf") + (square_blocks ? " --square-blocks" : "");
  return random_program_main(
      argc, argv,
      factorization_program(name.c_str(), "arguments and LWORK accepted, not a query, min(M, N) >= the grid's process count",
                            square_blocks ? draw_geqrf_case_square_blocks : draw_geqrf_case,
                            run_and_check<scalar_of_t<HETSCAL_TEST_PRECISION>>));
}
