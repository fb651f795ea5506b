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
// usage: p<x>geqrf_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
#include "geqrf_check.hpp"
#include "precision.hpp"
#include "random_driver.hpp"

int main(int argc, char** argv) {
  using namespace hetscal_test;
  return factorization_program_main(argc, argv, HETSCAL_TEST_PRECISION, "geqrf",
                                    "arguments and LWORK accepted, not a query, min(M, N) >= the grid's process count",
                                    draw_geqrf_case, run_and_check<scalar_of_t<HETSCAL_TEST_PRECISION>>);
}
