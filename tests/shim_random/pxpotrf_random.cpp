// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// random PxPOTRF cases (x: the precision it is built for, HETSCAL_TEST_PRECISION = 's', 'd',
// 'c' or 'z'; complex matrices are Hermitian) — N 0..48, UPLO = U and L (lower case too),
// IA/JA on block boundaries, RSRC/CSRC != 0, padded LLD, NaN in the triangle PxPOTRF must not
// reference, matrices that are not positive definite at a chosen order, and now and then an
// argument ScaLAPACK refuses (the 11-entry descriptor type, UPLO, IA/JA off a block boundary, MB !=
// NB) — on every BLACS grid of the process count. Each process checks INFO, its part of the factor
// against a long-double plain-loop Cholesky of the formulas, and that everything else stayed
// bit-identical. Run plain, or with libhetscal.so preloaded.
//
// usage: p<x>potrf_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
#include "potrf_check.hpp"
#include "precision.hpp"
#include "random_driver.hpp"

int main(int argc, char** argv) {
  using namespace hetscal_test;
  return factorization_program_main(argc, argv, HETSCAL_TEST_PRECISION, "potrf",
                                    "arguments accepted, N >= the grid's process count",
                                    draw_potrf_case, run_and_check<scalar_of_t<HETSCAL_TEST_PRECISION>>);
}
