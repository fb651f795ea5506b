// hetscal's PDPOTRF driver, in the style of ScaLAPACK's testers (xdllt): reads a .dat file
// (orders, UPLO, in-place layout kinds, block sizes, grids, speeds, repetitions, threshold)
// and for each case factors the same symmetric positive definite A three ways:
//   - ScaLAPACK's own pdpotrf_ on the caller's block-cyclic grid (this program links
//     ScaLAPACK, not libhetscal.so: nothing intercepts it);
//   - hetero_pdpotrf on that ScaLAPACK matrix ("moved": into hetscal's planned Cholesky
//     layout and its UPLO triangle back, inside the timed call);
//   - hetero_pdpotrf on a hetscal descriptor of a Cholesky context ("in place": A scattered
//     into the context's layout once, factored there, gathered afterwards for the check).
// Each factor is checked on grid rank 0 against A regenerated from its formula:
// ‖A − L·Lᵀ‖₁ / (‖A‖₁·N·ε) < threshold (L·Lᵀ rebuilt by the reference BLAS dgemm, neither
// ScaLAPACK's nor hetscal's code), INFO = 0, and the opposite triangle bit-identical to A.
// Columns: the median time over the repetitions, GFLOP/s (N³/3 flops), the flop balance
// with the speeds ((Σ flops / Σ speeds) / max flops_i / speed_i) — ScaLAPACK's from the
// LAWN 41 counts of the tiles its layout gives each process, hetscal's counted by its
// kernels' flop counter — and the planner's predicted time of the layout factored in (model
// units: fastest process at 1e10 flop/s; the moved call plans the kind "any", the in-place
// context the .dat's kind) and, on ScaLAPACK's row, the model's time of an even block-cyclic
// split. Exit status 1 when any check fails.
//
//   mpirun -np 4 hetscal_pdpotrf_driver PDPOTRF-HETSCAL.dat
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cholesky_check.hpp"
#include "driver_input.hpp"
#include "driver_matrices.hpp"
#include "driver_plan.hpp"
#include "driver_runs.hpp"
#include "hetscal/hetscal.h"
#include "kernels/flop_counter.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::driver {
namespace {

struct Case {
  int n, nb;
  char uplo, layout;
};

struct Row : RowBase {
  using RowBase::RowBase;
  FactorCheck check;
};

// Checks the factor now in `a` (the whole matrix, as the routine of `row` left it).
void judge(Row& row, const Operand& a, char uplo, double threshold) {
  row.check = check_factor(a, uplo);
  row.passed = row.info == 0 && row.check.other_intact && row.check.residual < threshold;
}

// The symmetric positive definite A of the case, ScaLAPACK's block-cyclic layout.
struct CaseMatrix {
  CaseMatrix(const Grid& grid, const Case& c) : a(grid, 1, c.n, c.n, c.nb) {
    a.fill([n = c.n](std::int64_t i, std::int64_t j) { return spd_element(i, j, n); });
    start = a.local;
  }
  void restore() { a.local = start; }
  Operand a;
  std::vector<double> start;
};

Row run_scalapack(const Case& c, CaseMatrix& m, const Plan& any, const PotrfInput& in,
                  const std::vector<double>& speeds) {
  const Grid& grid = *m.a.grid;
  Row row("ScaLAPACK pdpotrf");
  const char uplo[2] = {c.uplo, 0};
  const int one = 1;
  row.time_scalapack(
      in, grid, c.nb, block_cyclic_cholesky_flops(c.n, c.nb, c.uplo, grid), speeds, any,
      [&] { pdpotrf_(uplo, &c.n, m.a.local.data(), &one, &one, m.a.desc, &row.info); },
      [&] { m.restore(); });
  judge(row, m.a, c.uplo, in.threshold);
  return row;
}

// hetero_pdpotrf, timed in `plan`'s layout, on the matrix (data, desc). `restore` refills
// the same array (vector assignments of equal size keep `data` valid).
template <typename Restore>
void time_hetero(Row& row, const Case& c, double* data, const int* desc, const Grid& grid,
                 const PotrfInput& in, const std::vector<double>& speeds, const Plan& plan,
                 Restore restore) {
  const char uplo[2] = {c.uplo, 0};
  row.time_hetscal(
      in, grid, speeds, plan, [&] { hetero_pdpotrf(uplo, c.n, data, 1, 1, desc, &row.info); },
      restore);
}

// hetero_pdpotrf on the ScaLAPACK matrix: moved into the layout hetscal plans (kind any)
// with the speeds of the grid's latest context.
Row run_moved(const Case& c, CaseMatrix& m, const Plan& any, const PotrfInput& in,
              const std::vector<double>& speeds) {
  Row row("hetero_pdpotrf moved");
  time_hetero(row, c, m.a.local.data(), m.a.desc, *m.a.grid, in, speeds, any, [&] { m.restore(); });
  judge(row, m.a, c.uplo, in.threshold);
  return row;
}

// hetero_pdpotrf on a hetscal descriptor of `plan`'s context: A scattered in once, the factor
// gathered back into `m` after the timed runs for the check.
Row run_in_place(const Case& c, CaseMatrix& m, const Plan& plan, const PotrfInput& in,
                 const std::vector<double>& speeds) {
  Row row("hetero_pdpotrf in place");
  m.restore();
  run_in_layout(plan, m.a, [&](HeteroOperand& h, auto restore) {
    time_hetero(row, c, h.local.data(), h.desc, *m.a.grid, in, speeds, plan, restore);
  });
  judge(row, m.a, c.uplo, in.threshold);
  return row;
}

// One case on the grid. @return false when hetscal could not plan it (rows then empty).
bool run_case(const Case& c, const Grid& grid, const PotrfInput& in, std::vector<Row>& rows) {
  const std::vector<double> speeds(in.speeds.begin(), in.speeds.begin() + grid.size());
  const CasePlans plans(grid, speeds, HETSCAL_ROUTINE_POTRF, c.n, c.n, c.layout);
  if (!plans.planned()) return false;
  CaseMatrix m(grid, c);
  rows.push_back(run_scalapack(c, m, plans.any, in, speeds));
  rows.push_back(run_moved(c, m, plans.any, in, speeds));
  rows.push_back(run_in_place(c, m, plans.in_place(), in, speeds));
  return true;
}

void print_header(const PotrfInput& in) {
  std::printf(
      "%s\nresidual = |A - L L^T|_1 / (|A|_1 N eps), threshold %g; the other triangle must stay "
      "A's.\nbalance: ScaLAPACK's from LAWN 41 counts of its tiles' owners, hetscal's counted by "
      "its kernels; layout: bc = block-cyclic, cart/patt = hetscal's Cartesian grid or pattern, "
      "cells/tile; pred. (s): the planner's model of that layout (ScaLAPACK's row: of an even "
      "block-cyclic split)\n\n",
      in.title.c_str(), in.threshold);
  std::printf("%5s %4s %4s %5s %-13s %-24s %9s %8s %8s %9s %9s  %s\n", "N", "UPLO", "NB", "PxQ",
              "layout", "routine", "time (s)", "GFLOP/s", "balance", "pred. (s)", "residual",
              "check");
}

void print_row(const Case& c, const Grid& grid, const Row& row) {
  const double gflops = std::pow(static_cast<double>(c.n), 3) / 3.0 / row.seconds * 1e-9;
  std::printf("%5d %4c %4d %2dx%-2d %-13s %-24s %9.4f %8.2f %8.3f %9.4f %9.2e  %s", c.n, c.uplo,
              c.nb, grid.nprow, grid.npcol, row.layout.c_str(), row.routine, row.seconds, gflops,
              row.balance, row.predicted, row.check.residual, row.passed ? "PASSED" : "FAILED");
  if (row.info != 0) std::printf(" (INFO = %d)", row.info);
  if (!row.check.other_intact) std::printf(" (other triangle changed)");
  std::printf("\n");
}

// Every case of the input on one grid.
void run_grid(const Grid& grid, const PotrfInput& in, Tally& tally) {
  run_problems<Row>(
      grid, in, in.n.size(), tally,
      [&](std::size_t t, int nb) {
        return Case{in.n[t], nb, in.uplo[t], in.layout[t]};
      },
      [&](const Case& c, std::vector<Row>& rows) { return run_case(c, grid, in, rows); },
      [&](const Case& c, const Row& row) { print_row(c, grid, row); },
      [](const Case& c) {
        return std::to_string(c.n) + " " + c.uplo + " " + std::to_string(c.nb);
      });
}

}  // namespace
}  // namespace hetscal::driver

int main(int argc, char** argv) {
  using namespace hetscal::driver;
  return driver_main<PotrfInput>(argc, argv, "hetscal_pdpotrf_driver", "PDPOTRF-HETSCAL.dat",
                                 read_potrf_input, print_header, run_grid);
}
