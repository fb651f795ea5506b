// hetscal's PDGEMM driver, in the style of ScaLAPACK's testers: reads a .dat file (sizes,
// transposes, block sizes, grids, speeds), and for each case runs ScaLAPACK's own pdgemm_
// (this program links ScaLAPACK, not libhetscal.so: nothing intercepts it), hetero_pdgemm on
// the same ScaLAPACK operands (moved in and out), and hetero_pdgemm on operands kept in the
// heterogeneous layout. Each result is checked against a reference independent of ScaLAPACK
// and hetscal (each process sums its own elements of C from the generator), by the normwise
// bound |C - C_ref|_max / ((|alpha|·K·|A|_max·|B|_max + |beta|·|C|_max + 1)·eps) < threshold.
// Columns: the best time over the repetitions, GFLOP/s, the flop balance with the speeds
// ((Σ flops / Σ speeds) / max flops_i / speed_i: ScaLAPACK's from its local C block,
// 2·LOCr·LOCc·K; hetscal's counted by kernels::gather_flop_balance), and the planner's
// predicted balance and gain (an even split of hetscal's grid over the planned layout).
//
//   mpirun -np 4 hetscal_pdgemm_driver PDGEMM-HETSCAL.dat
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "driver_input.hpp"
#include "driver_matrices.hpp"
#include "driver_runs.hpp"
#include "hetscal/hetscal.h"
#include "kernels/flop_counter.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::driver {
namespace {

constexpr double kAlpha = 1.25, kBeta = -0.75;

struct Row {
  const char* routine;
  double seconds = 0.0, balance = 0.0, residual = 0.0;
  bool passed = false;
};

// The best of `repetitions` timed runs (C restored before each run).
template <typename Run, typename Restore>
double best_time(int repetitions, MPI_Comm comm, Run run, Restore restore) {
  const std::vector<double> seconds = timed_runs(repetitions, comm, run, restore);
  return *std::min_element(seconds.begin(), seconds.end());
}

struct Case {
  int m, n, k, nb;
  char ta, tb;
};

// One case on the grid; rows of the table in `rows`. @return false when hetscal refused it.
bool run_case(const Case& c, const Grid& grid, const GemmInput& in, std::vector<Row>& rows,
              double predicted[2]) {
  const std::vector<double> speeds(in.speeds.begin(), in.speeds.begin() + grid.size());
  const bool ta = c.ta != 'N', tb = c.tb != 'N';
  const Operand a(grid, 1, ta ? c.k : c.m, ta ? c.m : c.k, c.nb),
      b(grid, 2, tb ? c.n : c.k, tb ? c.k : c.n, c.nb);
  Operand out(grid, 3, c.m, c.n, c.nb);
  const std::vector<double> c_start = out.local;
  const Reference reference(grid, a, ta, b, tb, out, kAlpha, kBeta);
  const auto restore = [&] { out.local = c_start; };
  const char ta_text[2] = {c.ta, 0}, tb_text[2] = {c.tb, 0};
  const int one = 1;

  Row scalapack{"ScaLAPACK pdgemm"};
  scalapack.seconds = best_time(
      in.repetitions, grid.comm,
      [&] {
        pdgemm_(ta_text, tb_text, &c.m, &c.n, &c.k, &kAlpha, a.local.data(), &one, &one, a.desc,
                b.local.data(), &one, &one, b.desc, &kBeta, out.local.data(), &one, &one, out.desc);
      },
      restore);
  scalapack.balance =
      kernels::flop_balance(grid.gather(2.0 * out.local_rows * out.local_cols * c.k), speeds);
  scalapack.residual = reference.residual(out, in.threshold, scalapack.passed);

  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  if (hetscal_gemm_context_create(grid.context, speeds.data(), c.m, c.n, c.k, &ctx) !=
      HETSCAL_SUCCESS)
    return false;
  hetscal_context_prediction(ctx, nullptr, &predicted[0], &predicted[1]);
  int info = 0;
  Row moved{"hetero_pdgemm moved"};
  kernels::reset_flops();
  moved.seconds = best_time(
      in.repetitions, grid.comm,
      [&] {
        hetero_pdgemm(ta_text, tb_text, c.m, c.n, c.k, kAlpha, a.local.data(), 1, 1, a.desc,
                      b.local.data(), 1, 1, b.desc, kBeta, out.local.data(), 1, 1, out.desc, &info);
      },
      restore);
  moved.balance = kernels::gather_flop_balance(grid.comm, speeds).balance;
  moved.residual = info == 0 ? reference.residual(out, in.threshold, moved.passed) : NAN;

  Row in_place{"hetero_pdgemm in place"};
  const HeteroOperand ha(ctx, a), hb(ctx, b);
  HeteroOperand hc(ctx, out);
  const std::vector<double> hc_start = hc.scatter(c_start, out);
  kernels::reset_flops();
  in_place.seconds = best_time(
      in.repetitions, grid.comm,
      [&] {
        hetero_pdgemm(ta_text, tb_text, c.m, c.n, c.k, kAlpha, ha.local.data(), 1, 1, ha.desc,
                      hb.local.data(), 1, 1, hb.desc, kBeta, hc.local.data(), 1, 1, hc.desc, &info);
      },
      [&] { hc.local = hc_start; });
  in_place.balance = kernels::gather_flop_balance(grid.comm, speeds).balance;
  hc.gather(out);
  in_place.residual = info == 0 ? reference.residual(out, in.threshold, in_place.passed) : NAN;
  hetscal_context_free(&ctx);
  rows = {scalapack, moved, in_place};
  return true;
}

void print_header(const GemmInput& in) {
  std::printf(
      "%s\nalpha = %g, beta = %g; residual = |C - C_ref|_max / ((|alpha| K |A|max |B|max + "
      "|beta| |C|max + 1) eps), threshold %g\n\n",
      in.title.c_str(), kAlpha, kBeta, in.threshold);
  std::printf("%5s %5s %5s %2s %2s %4s %5s  %-24s %9s %8s %8s %9s %9s %9s  %s\n", "M", "N", "K",
              "TA", "TB", "NB", "PxQ", "routine", "time (s)", "GFLOP/s", "balance", "pred.bal",
              "pred.gain", "residual", "check");
}

// Every case of the input on one grid.
void run_grid(const Grid& grid, const GemmInput& in, Tally& tally) {
  for (std::size_t t = 0; t < in.m.size(); ++t) {
    for (int nb : in.block) {
      const Case c{in.m[t], in.n[t], in.k[t], nb, in.trans_a[t], in.trans_b[t]};
      std::vector<Row> rows;
      double predicted[2] = {0, 0};
      if (!run_case(c, grid, in, rows, predicted)) {
        if (grid.rank == 0)
          std::printf("%5d %5d %5d: no heterogeneous plan, skipped\n", c.m, c.n, c.k);
        ++tally.skipped;
        continue;
      }
      for (const Row& row : rows) {
        tally.count(row.passed);
        if (grid.rank != 0) continue;
        const double gflops = 2.0 * c.m * c.n * c.k / row.seconds * 1e-9;
        std::printf(
            "%5d %5d %5d %2c %2c %4d %2dx%-2d  %-24s %9.4f %8.2f %8.3f %9.3f %9.2f %9.2e  %s\n",
            c.m, c.n, c.k, c.ta, c.tb, nb, grid.nprow, grid.npcol, row.routine, row.seconds, gflops,
            row.balance, predicted[0], predicted[1], row.residual,
            row.passed ? "PASSED" : "FAILED");
      }
    }
  }
}

}  // namespace
}  // namespace hetscal::driver

int main(int argc, char** argv) {
  using namespace hetscal::driver;
  return driver_main<GemmInput>(argc, argv, "hetscal_pdgemm_driver", "PDGEMM-HETSCAL.dat",
                                read_gemm_input, print_header, run_grid);
}
