// hetscal's PDGEQRF driver, in the style of ScaLAPACK's testers (xdqr): reads a .dat file
// (sizes M×N, in-place layout kinds, block sizes, grids, speeds, repetitions, threshold) and
// for each case factors the same random A three ways:
//   - ScaLAPACK's own pdgeqrf_ on the caller's block-cyclic grid, WORK sized by its
//     LWORK = −1 query (this program links ScaLAPACK, not libhetscal.so: nothing intercepts
//     it);
//   - hetero_pdgeqrf on that ScaLAPACK matrix ("moved": into hetscal's planned QR layout and
//     back inside the timed call, TAU in PDGEQRF's format);
//   - hetero_pdgeqrf on a hetscal descriptor of a GEQRF context ("in place": A scattered into
//     the context's layout once, factored there, gathered afterwards for the check; TAU in
//     hetscal's format).
// Each result is checked against A regenerated from its formula, with Q formed by the
// reference LAPACK's DORGQR on grid rank 0 (neither ScaLAPACK's nor hetscal's code):
// ‖A − Q·R‖₁ / (‖A‖₁·max(M,N)·ε) and ‖I − QᵀQ‖₁ / (M·ε) below the threshold, INFO = 0, and
// TAU equal to ScaLAPACK's to rounding (max |Δτ| / (max(M,N)·ε) below the threshold): the
// moved call's whole TAU array on every process (written and unwritten entries), the
// in-place call's hetscal TAU against ScaLAPACK's gathered one. Columns as the PDGETRF
// driver's: median time, GFLOP/s (LAWN 41's 2·M·N² − 2·N³/3 … for M ≥ N), flop balance with
// the speeds (ScaLAPACK's from the counts of the tiles its layout gives each process,
// hetscal's counted by its kernels' flop counter) and the planner's predicted time (model
// units; ScaLAPACK's row: an even block-cyclic split). Exit status 1 when any check fails.
//
//   mpirun -np 4 hetscal_pdgeqrf_driver PDGEQRF-HETSCAL.dat
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
#include "qr_check.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::driver {
namespace {

constexpr double kUnwritten = -7.0;  // TAU's entries before a call (a τ is in [0, 2])

using Case = RectangularCase;

struct Row : RowBase {
  using RowBase::RowBase;
  QrResiduals residuals;
  double tau = -1.0;  ///< max |Δτ| against ScaLAPACK's, scaled; negative on its own row
};

// The random A of the case in ScaLAPACK's block-cyclic layout, and TAU's size there (one
// block more than LOCc(N), to see a write beyond PDGEQRF's entries).
struct CaseMatrix {
  CaseMatrix(const Grid& grid, const Case& c) : a(grid, 1, c.m, c.n, c.nb), start(a.local) {}
  void restore() { a.local = start; }
  std::vector<double> fresh_tau() const {
    return std::vector<double>(static_cast<std::size_t>(a.local_cols + a.nb), kUnwritten);
  }
  /// Refills TAU in place (its pointer, which a timed call holds, stays valid).
  static void clear(std::vector<double>& tau) { std::fill(tau.begin(), tau.end(), kUnwritten); }
  Operand a;
  std::vector<double> start;
};

// The checks of the factors now in `a` with the global τ `tau`; row.tau as compared with
// ScaLAPACK's by the caller.
void judge(Row& row, const Operand& a, const std::vector<double>& tau, double threshold) {
  row.residuals = check_qr(a, tau);
  row.passed = row.info == 0 && row.tau < threshold && row.residuals.factorization < threshold &&
               row.residuals.orthogonality < threshold;
}

// PDGEQRF's WORK: the length its LWORK = −1 query answers for the case.
std::vector<double> scalapack_work(const Case& c, CaseMatrix& m, std::vector<double>& tau) {
  const int one = 1, query = -1;
  double length = 0.0;
  int info = 0;
  pdgeqrf_(&c.m, &c.n, m.a.local.data(), &one, &one, m.a.desc, tau.data(), &length, &query, &info);
  return std::vector<double>(static_cast<std::size_t>(std::max(1.0, length)));
}

Row run_scalapack(const Case& c, CaseMatrix& m, const Plan& any, const RectangularInput& in,
                  const std::vector<double>& speeds, std::vector<double>& tau) {
  const Grid& grid = *m.a.grid;
  Row row("ScaLAPACK pdgeqrf");
  std::vector<double> work = scalapack_work(c, m, tau);
  const int one = 1, lwork = static_cast<int>(work.size());
  row.time_scalapack(
      in, grid, c.nb, block_cyclic_qr_flops(c.m, c.n, c.nb, grid), speeds, any,
      [&] {
        pdgeqrf_(&c.m, &c.n, m.a.local.data(), &one, &one, m.a.desc, tau.data(), work.data(),
                 &lwork, &row.info);
      },
      [&] {
        m.restore();
        CaseMatrix::clear(tau);
      });
  judge(row, m.a, gathered_tau(m.a, tau), in.threshold);
  return row;
}

// hetero_pdgeqrf, timed in `plan`'s layout, on (data, desc) with `tau`. `restore` refills
// the same arrays (vector assignments of equal size keep the pointers valid).
template <typename Restore>
void time_hetero(Row& row, const Case& c, double* data, const int* desc, double* tau,
                 const Grid& grid, const RectangularInput& in, const std::vector<double>& speeds,
                 const Plan& plan, Restore restore) {
  row.time_hetscal(
      in, grid, speeds, plan, [&] { hetero_pdgeqrf(c.m, c.n, data, 1, 1, desc, tau, &row.info); },
      restore);
}

// hetero_pdgeqrf on the ScaLAPACK matrix: moved into the layout hetscal plans (kind any)
// with the speeds of the grid's latest context; TAU in PDGEQRF's format.
Row run_moved(const Case& c, CaseMatrix& m, const Plan& any, const RectangularInput& in,
              const std::vector<double>& speeds, const std::vector<double>& scalapack_tau) {
  Row row("hetero_pdgeqrf moved");
  std::vector<double> tau = m.fresh_tau();
  time_hetero(row, c, m.a.local.data(), m.a.desc, tau.data(), *m.a.grid, in, speeds, any, [&] {
    m.restore();
    CaseMatrix::clear(tau);
  });
  row.tau = tau_difference(tau, scalapack_tau, c.m, c.n, *m.a.grid);
  judge(row, m.a, gathered_tau(m.a, tau), in.threshold);
  return row;
}

// hetero_pdgeqrf on a hetscal descriptor of `plan`'s context: A scattered in once, the
// factors gathered back into `m` after the timed runs; TAU in hetscal's format.
Row run_in_place(const Case& c, CaseMatrix& m, const Plan& plan, const RectangularInput& in,
                 const std::vector<double>& speeds, const std::vector<double>& scalapack_tau) {
  Row row("hetero_pdgeqrf in place");
  m.restore();
  std::vector<double> tau(scalapack_tau.size(), kUnwritten);
  run_in_layout(plan, m.a, [&](HeteroOperand& h, auto restore) {
    time_hetero(row, c, h.local.data(), h.desc, tau.data(), *m.a.grid, in, speeds, plan, restore);
  });
  row.tau = tau_difference(tau, scalapack_tau, c.m, c.n, *m.a.grid);
  judge(row, m.a, tau, in.threshold);
  return row;
}

// One case on the grid. @return false when hetscal could not plan it (rows then empty).
bool run_case(const Case& c, const Grid& grid, const RectangularInput& in, std::vector<Row>& rows) {
  const std::vector<double> speeds(in.speeds.begin(), in.speeds.begin() + grid.size());
  const CasePlans plans(grid, speeds, HETSCAL_ROUTINE_GEQRF, c.m, c.n, c.layout);
  if (!plans.planned()) return false;
  CaseMatrix m(grid, c);
  std::vector<double> scalapack_tau = m.fresh_tau();
  rows.push_back(run_scalapack(c, m, plans.any, in, speeds, scalapack_tau));
  const std::vector<double> scalapack_global_tau = gathered_tau(m.a, scalapack_tau);
  rows.push_back(run_moved(c, m, plans.any, in, speeds, scalapack_tau));
  rows.push_back(run_in_place(c, m, plans.in_place(), in, speeds, scalapack_global_tau));
  return true;
}

void print_header(const RectangularInput& in) {
  std::printf(
      "%s\nfactor. = |A - Q R|_1 / (|A|_1 max(M,N) eps), orthog. = |I - Q^T Q|_1 / (M eps) "
      "with Q formed by LAPACK's dorgqr; tau = max |tau - tau_ScaLAPACK| / (max(M,N) eps) "
      "(moved: the whole TAU array; in place: hetscal's format against ScaLAPACK's "
      "gathered); each below the threshold %g.\nbalance: ScaLAPACK's from the counts of its "
      "tiles' owners, hetscal's counted by its kernels; layout: bc = block-cyclic, cart/patt "
      "= hetscal's Cartesian grid or pattern, cells/tile; pred. (s): the planner's model of "
      "that layout (ScaLAPACK's row: of an even block-cyclic split)\n\n",
      in.title.c_str(), in.threshold);
  std::printf("%5s %5s %4s %5s %-13s %-24s %9s %8s %8s %9s %9s %9s %9s  %s\n", "M", "N", "NB",
              "PxQ", "layout", "routine", "time (s)", "GFLOP/s", "balance", "pred. (s)", "factor.",
              "orthog.", "tau", "check");
}

void print_row(const Case& c, const Grid& grid, const Row& row) {
  const double gflops = kernels::geqrf_flops(c.m, c.n) / row.seconds * 1e-9;
  char tau[16] = "ref";
  if (row.tau >= 0.0) std::snprintf(tau, sizeof tau, "%.2e", row.tau);
  std::printf("%5d %5d %4d %2dx%-2d %-13s %-24s %9.4f %8.2f %8.3f %9.4f %9.2e %9.2e %9s  %s", c.m,
              c.n, c.nb, grid.nprow, grid.npcol, row.layout.c_str(), row.routine, row.seconds,
              gflops, row.balance, row.predicted, row.residuals.factorization,
              row.residuals.orthogonality, tau, row.passed ? "PASSED" : "FAILED");
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
  return driver_main<RectangularInput>(argc, argv, "hetscal_pdgeqrf_driver", "PDGEQRF-HETSCAL.dat",
                                       read_rectangular_input, print_header, run_grid);
}
