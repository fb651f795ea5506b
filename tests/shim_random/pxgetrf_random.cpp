// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// random PxGETRF cases (x: the precision it is built for, HETSCAL_TEST_PRECISION = 's', 'd',
// 'c' or 'z'; complex cases have Gaussian-integer factors) — M, N 0..48 (square, tall, wide),
// IA/JA on block boundaries, RSRC/CSRC != 0, padded LLD, exactly singular matrices (a zero
// column, a repeated column), and now and then an argument ScaLAPACK refuses (the 11-entry
// descriptor type, IA/JA off a block boundary, MB != NB) — on every BLACS grid of the process
// count. Each process checks INFO, its part of L and U and of IPIV against the exact factors
// the case was built from, against ScaLAPACK's own PxGETRF on a copy, and that everything
// else stayed bit-identical. Run plain, or with libhetscal.so preloaded.
//
// usage: p<x>getrf_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
#include "getrf_check.hpp"
#include "precision.hpp"
#include "random_driver.hpp"

int main(int argc, char** argv) {
  using namespace hetscal_test;
  return factorization_program_main(argc, argv, HETSCAL_TEST_PRECISION, "getrf",
                                    "arguments accepted, M_A > 1, min(M, N) >= the grid's process count",
                                    draw_getrf_case, run_and_check<scalar_of_t<HETSCAL_TEST_PRECISION>>);
}
