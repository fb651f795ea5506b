// Simulated LU benchmark (DESIGN.md, instrument 2) on the 9 workstations of Boudet, Petitet,
// Rastello & Robert (1999), Table 3, on their 3×3 and 2×4 grids (Figures 12 and 13):
// kernels::lu on the heterogeneous grid core::choose_lu_plan prices for that shape (tile
// columns in Boudet1999's LU order) versus the same kernel on 2D block-cyclic of the same shape,
// the heterogeneous grid with panels (pivot searches) on the diagonal owner and on the
// fastest rank; S_W, achieved/S_W and the model's times as nine_workstations_factorization.hpp
// describes. Each simulated run must inject exactly LAWN 41's GETRF count (plus what the
// counter charges the unit lower solves) with INFO = 0.
//
// Usage (tests/bench/lu/run_simgrid.sh): smpirun -np 9 -platform nine_workstations.xml
//   -hostfile nine_workstations.hosts --cfg=smpi/simulate-computation:no
//   --cfg=smpi/shared-malloc:global bench_lu_nine_workstations [OUTPUT_PREFIX [N_LIST]]
// Writes OUTPUT_PREFIX.csv (tests/report plots it; default prefix: nine_workstations_lu).
#include "nine_workstations_factorization.hpp"

namespace {

int run(int argc, char** argv, int rank) {
  using namespace hetscal;
  return bench::run_nine_workstations({"bench_lu_nine_workstations", "nine_workstations_lu",
                                       core::choose_lu_plan, bench::simulate_lu},
                                      argc, argv, rank);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
