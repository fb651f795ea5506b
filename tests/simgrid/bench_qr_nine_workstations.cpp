// Simulated QR benchmark (DESIGN.md, instrument 2) on the 9 workstations of Boudet, Petitet,
// Rastello & Robert (1999), Table 3, on their 3×3 and 2×4 grids (Boudet1999's Figures 14 and
// 15): kernels::qr on the heterogeneous grid core::choose_qr_plan prices for that shape (tile
// columns in Boudet1999's QR order, priced by core/time_models/qr_steps.hpp) versus the same kernel
// on 2D block-cyclic of the same shape, the heterogeneous grid with panels (xGEQRF + xLARFT) on the
// diagonal owner and on the fastest rank; S_W, achieved/S_W ("of_S_W", issue 11's target:
// >= 0.8 at N = 8000) and the model's times as nine_workstations_factorization.hpp describes.
// Each simulated run must inject exactly the blocked Householder QR's flop count
// (blocked_qr_flops) without an error.
//
// Usage (tests/bench/qr/run_simgrid.sh): smpirun -np 9 -platform nine_workstations.xml
//   -hostfile nine_workstations.hosts --cfg=smpi/simulate-computation:no
//   --cfg=smpi/shared-malloc:global bench_qr_nine_workstations [OUTPUT_PREFIX [N_LIST]]
// Writes OUTPUT_PREFIX.csv (tests/report plots it; default prefix: nine_workstations_qr).
#include "nine_workstations_factorization.hpp"

namespace {

int run(int argc, char** argv, int rank) {
  using namespace hetscal;
  return bench::run_nine_workstations({"bench_qr_nine_workstations", "nine_workstations_qr",
                                       core::choose_qr_plan, bench::simulate_qr},
                                      argc, argv, rank);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
