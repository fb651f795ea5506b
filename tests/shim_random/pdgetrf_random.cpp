// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// random PDGETRF cases — M, N 0..48 (square, tall, wide), IA/JA on block boundaries,
// RSRC/CSRC != 0, padded LLD, exactly singular matrices (a zero column, a repeated column),
// and now and then an argument ScaLAPACK refuses (the 11-entry descriptor type, IA/JA off a
// block boundary, MB != NB) — on every BLACS grid of the process count. Each process checks
// INFO, its part of L and U and of IPIV against the factors the case was built from, against
// ScaLAPACK's own PDGETRF on a copy, and that everything else stayed bit-identical. Run
// plain, or with libhetscal.so preloaded.
//
// usage: pdgetrf_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
#include "getrf_check.hpp"
#include "random_driver.hpp"

int main(int argc, char** argv) {
  using namespace hetscal_test;
  return random_program_main(
      argc, argv,
      factorization_program("pdgetrf_random",
                            "arguments accepted, M_A > 1, min(M, N) >= the grid's process count",
                            draw_getrf_case, run_and_check));
}
