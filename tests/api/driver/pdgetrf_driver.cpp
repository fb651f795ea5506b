// hetscal's PDGETRF driver, in the style of ScaLAPACK's testers (xdlu): reads a .dat file
// (sizes M×N, in-place layout kinds, block sizes, grids, speeds, repetitions, threshold) and
// for each case factors the same random A three ways:
//   - ScaLAPACK's own pdgetrf_ on the caller's block-cyclic grid (this program links
//     ScaLAPACK, not libhetscal.so: nothing intercepts it);
//   - hetero_pdgetrf on that ScaLAPACK matrix ("moved": into hetscal's planned LU layout and
//     back, IPIV in ScaLAPACK's format, inside the timed call);
//   - hetero_pdgetrf on a hetscal descriptor of a GETRF context ("in place": A scattered into
//     the context's layout once, factored there, gathered afterwards for the check; pivots in
//     hetscal's format).
// Each result is checked against A regenerated from its formula: ‖P·A − L·U‖₁ /
// (‖A‖₁·max(M,N)·ε) < threshold (L·U rebuilt by the reference BLAS dgemm on grid rank 0,
// neither ScaLAPACK's nor hetscal's code), INFO = 0, and the pivots equal to ScaLAPACK's:
// the moved call's whole IPIV array on every process (written and unwritten entries), the
// in-place call's hetscal pivots against ScaLAPACK's gathered ones (column "ipiv").
// Columns as the PDPOTRF driver's: median time, GFLOP/s (LAWN 41's M·N² − N³/3 … for M ≥ N),
// flop balance with the speeds (ScaLAPACK's from the LAWN 41 counts of the tiles its layout
// gives each process, hetscal's counted by its kernels' flop counter) and the planner's
// predicted time (model units; ScaLAPACK's row: an even block-cyclic split). Exit status 1
// when any check fails.
//
//   mpirun -np 4 hetscal_pdgetrf_driver PDGETRF-HETSCAL.dat
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "driver_input.hpp"
#include "driver_matrices.hpp"
#include "driver_plan.hpp"
#include "driver_runs.hpp"
#include "hetscal/hetscal.h"
#include "kernels/flop_counter.hpp"
#include "lu_check.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::driver {
namespace {

constexpr int kUnwritten = -7;  // IPIV's entries before a call

using Case = RectangularCase;

struct Row : RowBase {
  using RowBase::RowBase;
  double residual = 0.0;
  const char* pivots = "ref";  ///< "same" / "DIFF" against ScaLAPACK's; "ref" on its own row
};

// The random A of the case in ScaLAPACK's block-cyclic layout, and IPIV's size there.
struct CaseMatrix {
  CaseMatrix(const Grid& grid, const Case& c) : a(grid, 1, c.m, c.n, c.nb), start(a.local) {}
  void restore() { a.local = start; }
  std::vector<int> fresh_ipiv() const {
    return std::vector<int>(static_cast<std::size_t>(a.lld + a.nb), kUnwritten);
  }
  /// Refills IPIV in place (its pointer, which a timed call holds, stays valid).
  static void clear(std::vector<int>& ipiv) { std::fill(ipiv.begin(), ipiv.end(), kUnwritten); }
  Operand a;
  std::vector<double> start;
};

// The check of the factors now in `a` with `pivots` (global, 1-based); `same_pivots` as
// compared with ScaLAPACK's by the caller (the same on every process).
void judge(Row& row, const Operand& a, const std::vector<int>& pivots, bool same_pivots,
           double threshold) {
  row.residual = check_lu(a, pivots);
  if (row.pivots != std::string("ref")) row.pivots = same_pivots ? "same" : "DIFF";
  row.passed = row.info == 0 && same_pivots && row.residual < threshold;
}

bool same_everywhere(const std::vector<int>& x, const std::vector<int>& y, const Grid& grid) {
  int same = x == y ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, grid.comm);
  return same == 1;
}

Row run_scalapack(const Case& c, CaseMatrix& m, const Plan& any, const RectangularInput& in,
                  const std::vector<double>& speeds, std::vector<int>& ipiv) {
  const Grid& grid = *m.a.grid;
  Row row("ScaLAPACK pdgetrf");
  const int one = 1;
  row.time_scalapack(
      in, grid, c.nb, block_cyclic_lu_flops(c.m, c.n, c.nb, grid), speeds, any,
      [&] { pdgetrf_(&c.m, &c.n, m.a.local.data(), &one, &one, m.a.desc, ipiv.data(), &row.info); },
      [&] {
        m.restore();
        CaseMatrix::clear(ipiv);
      });
  judge(row, m.a, gathered_pivots(m.a, ipiv), true, in.threshold);
  return row;
}

// hetero_pdgetrf, timed in `plan`'s layout, on (data, desc) with `ipiv`. `restore` refills
// the same arrays (vector assignments of equal size keep the pointers valid).
template <typename Restore>
void time_hetero(Row& row, const Case& c, double* data, const int* desc, int* ipiv,
                 const Grid& grid, const RectangularInput& in, const std::vector<double>& speeds,
                 const Plan& plan, Restore restore) {
  row.time_hetscal(
      in, grid, speeds, plan, [&] { hetero_pdgetrf(c.m, c.n, data, 1, 1, desc, ipiv, &row.info); },
      restore);
}

// hetero_pdgetrf on the ScaLAPACK matrix: moved into the layout hetscal plans (kind any)
// with the speeds of the grid's latest context; IPIV in ScaLAPACK's format.
Row run_moved(const Case& c, CaseMatrix& m, const Plan& any, const RectangularInput& in,
              const std::vector<double>& speeds, const std::vector<int>& scalapack_ipiv) {
  Row row("hetero_pdgetrf moved");
  row.pivots = "";
  std::vector<int> ipiv = m.fresh_ipiv();
  time_hetero(row, c, m.a.local.data(), m.a.desc, ipiv.data(), *m.a.grid, in, speeds, any, [&] {
    m.restore();
    CaseMatrix::clear(ipiv);
  });
  judge(row, m.a, gathered_pivots(m.a, ipiv), same_everywhere(ipiv, scalapack_ipiv, *m.a.grid),
        in.threshold);
  return row;
}

// hetero_pdgetrf on a hetscal descriptor of `plan`'s context: A scattered in once, the
// factors gathered back into `m` after the timed runs; pivots in hetscal's format.
Row run_in_place(const Case& c, CaseMatrix& m, const Plan& plan, const RectangularInput& in,
                 const std::vector<double>& speeds, const std::vector<int>& scalapack_pivots) {
  Row row("hetero_pdgetrf in place");
  row.pivots = "";
  m.restore();
  std::vector<int> pivots(scalapack_pivots.size(), kUnwritten);
  run_in_layout(plan, m.a, [&](HeteroOperand& h, auto restore) {
    time_hetero(row, c, h.local.data(), h.desc, pivots.data(), *m.a.grid, in, speeds, plan,
                restore);
  });
  judge(row, m.a, pivots, same_everywhere(pivots, scalapack_pivots, *m.a.grid), in.threshold);
  return row;
}

// One case on the grid. @return false when hetscal could not plan it (rows then empty).
bool run_case(const Case& c, const Grid& grid, const RectangularInput& in, std::vector<Row>& rows) {
  const std::vector<double> speeds(in.speeds.begin(), in.speeds.begin() + grid.size());
  const CasePlans plans(grid, speeds, HETSCAL_ROUTINE_GETRF, c.m, c.n, c.layout);
  if (!plans.planned()) return false;
  CaseMatrix m(grid, c);
  std::vector<int> scalapack_ipiv = m.fresh_ipiv();
  rows.push_back(run_scalapack(c, m, plans.any, in, speeds, scalapack_ipiv));
  const std::vector<int> scalapack_pivots = gathered_pivots(m.a, scalapack_ipiv);
  rows.push_back(run_moved(c, m, plans.any, in, speeds, scalapack_ipiv));
  rows.push_back(run_in_place(c, m, plans.in_place(), in, speeds, scalapack_pivots));
  return true;
}

void print_header(const RectangularInput& in) {
  std::printf(
      "%s\nresidual = |P A - L U|_1 / (|A|_1 max(M,N) eps), threshold %g; ipiv: the pivots "
      "against ScaLAPACK's (moved: the whole IPIV array; in place: hetscal's format against "
      "ScaLAPACK's gathered).\nbalance: ScaLAPACK's from LAWN 41 counts of its tiles' owners, "
      "hetscal's counted by its kernels; layout: bc = block-cyclic, cart/patt = hetscal's "
      "Cartesian grid or pattern, cells/tile; pred. (s): the planner's model of that layout "
      "(ScaLAPACK's row: of an even block-cyclic split)\n\n",
      in.title.c_str(), in.threshold);
  std::printf("%5s %5s %4s %5s %-13s %-24s %9s %8s %8s %9s %9s %4s  %s\n", "M", "N", "NB", "PxQ",
              "layout", "routine", "time (s)", "GFLOP/s", "balance", "pred. (s)", "residual",
              "ipiv", "check");
}

void print_row(const Case& c, const Grid& grid, const Row& row) {
  const double gflops = kernels::getrf_flops(c.m, c.n) / row.seconds * 1e-9;
  std::printf("%5d %5d %4d %2dx%-2d %-13s %-24s %9.4f %8.2f %8.3f %9.4f %9.2e %4s  %s", c.m, c.n,
              c.nb, grid.nprow, grid.npcol, row.layout.c_str(), row.routine, row.seconds, gflops,
              row.balance, row.predicted, row.residual, row.pivots,
              row.passed ? "PASSED" : "FAILED");
  if (row.info != 0) std::printf(" (INFO = %d)", row.info);
  std::printf("\n");
}

// Every case of the input on one grid.
void run_grid(const Grid& grid, const RectangularInput& in, Tally& tally) {
  run_rectangular_problems<Row>(
      grid, in, tally,
      [&](const Case& c, std::vector<Row>& rows) { return run_case(c, grid, in, rows); },
      [&](const Case& c, const Row& row) { print_row(c, grid, row); });
}

}  // namespace
}  // namespace hetscal::driver

int main(int argc, char** argv) {
  using namespace hetscal::driver;
  return driver_main<RectangularInput>(argc, argv, "hetscal_pdgetrf_driver", "PDGETRF-HETSCAL.dat",
                                       read_rectangular_input, print_header, run_grid);
}
