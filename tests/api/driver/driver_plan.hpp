#pragma once
// What the factorisation drivers share around hetscal's plan of a case: a context of the
// routine on the grid (its layout described and its predictions), the .dat's layout
// letters, the median time of repeated runs, and the columns of a result row that are not
// checks.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "driver_input.hpp"
#include "driver_matrices.hpp"
#include "driver_runs.hpp"
#include "hetscal/hetscal.h"
#include "kernels/flop_counter.hpp"
#include "real_bench_support.hpp"

namespace hetscal::driver {

/// The #hetscal_layout of a LAYOUT letter of the .dat files: A any, C Cartesian, P pattern.
inline int layout_kind(char layout) {
  return layout == 'C'   ? HETSCAL_LAYOUT_CARTESIAN
         : layout == 'P' ? HETSCAL_LAYOUT_PATTERN
                         : HETSCAL_LAYOUT_ANY;
}

/// A context of `routine` for an M×N matrix on the grid (freed, collectively, with the
/// object), its layout described as "cart 2x1/64" or "patt 3x3/32" (kind, grid or pattern
/// size, tile) and its predictions.
class Plan {
 public:
  Plan(const Grid& grid, const std::vector<double>& speeds, int routine, int m, int n,
       char layout) {
    if (hetscal_context_create(grid.context, speeds.data(), routine, layout_kind(layout), m, n, 0,
                               &ctx) != HETSCAL_SUCCESS)
      return;
    int rows = 0, cols = 0;
    hetscal_context_grid(ctx, &rows, &cols, nullptr, nullptr);
    description = (hetscal_context_layout(ctx) == HETSCAL_LAYOUT_CARTESIAN ? "cart " : "patt ") +
                  std::to_string(rows) + "x" + std::to_string(cols) + "/" +
                  std::to_string(hetscal_context_tile(ctx));
    double speedup = 0.0;
    hetscal_context_prediction(ctx, &predicted, nullptr, &speedup);
    scalapack_predicted = predicted * speedup;
  }
  ~Plan() {
    if (ctx != HETSCAL_CONTEXT_NULL) hetscal_context_free(&ctx);
  }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  std::string description;
  double predicted = 0.0;            ///< model seconds of the planned layout
  double scalapack_predicted = 0.0;  ///< model seconds of an even block-cyclic split
};

/// The plans of one case: `any`, the layout the moved call takes (kind any), and the
/// in-place context of the case's LAYOUT letter (the same context for 'A').
class CasePlans {
 public:
  CasePlans(const Grid& grid, const std::vector<double>& speeds, int routine, int m, int n,
            char layout)
      : any(grid, speeds, routine, m, n, 'A'),
        kind_(layout == 'A' ? nullptr
                            : std::make_unique<const Plan>(grid, speeds, routine, m, n, layout)) {}
  const Plan any;
  const Plan& in_place() const { return kind_ ? *kind_ : any; }
  /// False when hetscal could not plan one of them (the case is then skipped).
  bool planned() const {
    return any.ctx != HETSCAL_CONTEXT_NULL && in_place().ctx != HETSCAL_CONTEXT_NULL;
  }

 private:
  std::unique_ptr<const Plan> kind_;
};

/// Runs the input's problems × block sizes on the grid: make(t, nb) is the case of problem
/// t with block size nb, run(c, rows) fills its result rows (false: no hetscal plan, the case
/// is counted skipped and named by `name(c)`), and grid rank 0 prints each with print(c, row).
template <typename Row, typename Make, typename Run, typename Print, typename Name>
void run_problems(const Grid& grid, const DriverSettings& in, std::size_t problems, Tally& tally,
                  Make make, Run run, Print print, Name name) {
  for (std::size_t t = 0; t < problems; ++t) {
    for (const int nb : in.block) {
      const auto c = make(t, nb);
      std::vector<Row> rows;
      if (!run(c, rows)) {
        if (grid.rank == 0) std::printf("%s: no hetscal plan, skipped\n", name(c).c_str());
        ++tally.skipped;
        continue;
      }
      for (const Row& row : rows) {
        tally.count(row.passed);
        if (grid.rank == 0) print(c, row);
      }
    }
  }
}

/// A case of an M×N factorisation driver (PDGETRF, PDGEQRF): the problem's size, the block
/// size and the in-place context's LAYOUT letter.
struct RectangularCase {
  int m, n, nb;
  char layout;
};

/// run_problems over the problems × block sizes of an M×N factorisation driver's input,
/// each case named "MxN NB nb" when skipped.
template <typename Row, typename Run, typename Print>
void run_rectangular_problems(const Grid& grid, const RectangularInput& in, Tally& tally, Run run,
                              Print print) {
  run_problems<Row>(
      grid, in, in.n.size(), tally,
      [&](std::size_t t, int nb) {
        return RectangularCase{in.m[t], in.n[t], nb, in.layout[t]};
      },
      run, print,
      [](const RectangularCase& c) {
        return std::to_string(c.m) + "x" + std::to_string(c.n) + " NB " + std::to_string(c.nb);
      });
}

/// The median over the input's repetitions of `run`'s time, `restore` before each.
template <typename Run, typename Restore>
double median_time(const DriverSettings& in, const Grid& grid, Run run, Restore restore) {
  return bench::median(timed_runs(in.repetitions, grid.comm, run, restore));
}

/// The in-place runs of a case: `a` scattered once into `plan`'s layout, timed(h, restore)
/// on that copy h (restore() refills h with the scattered A before each run, its pointer
/// kept), then h gathered back into `a` for the checks. Collective over a's grid.
template <typename Timed>
void run_in_layout(const Plan& plan, Operand& a, Timed timed) {
  HeteroOperand h(plan.ctx, a);
  const std::vector<double> start = h.local;
  timed(h, [&] { h.local = start; });
  h.gather(a);
}

/// A factorisation driver's result row less its checks: the routine, the layout it factored
/// in, its median time, flop balance with the speeds, the planner's predicted time, INFO and
/// the verdict (set by the driver's checks).
struct RowBase {
  explicit RowBase(const char* name) : routine(name) {}
  const char* routine;
  std::string layout;
  double seconds = 0.0, balance = 0.0, predicted = 0.0;
  int info = 0;
  bool passed = false;

  /// Times ScaLAPACK's `run` (`restore` before each run) on its block-cyclic layout (block
  /// nb) of `grid`; `flops` is this process's share of the work by its tiles, `any` the
  /// case's plan (its model of an even block-cyclic split is ScaLAPACK's prediction).
  template <typename Run, typename Restore>
  void time_scalapack(const DriverSettings& in, const Grid& grid, int nb, double flops,
                      const std::vector<double>& speeds, const Plan& any, Run run,
                      Restore restore) {
    seconds = median_time(in, grid, run, restore);
    balance = kernels::flop_balance(grid.gather(flops), speeds);
    layout = "bc " + std::to_string(grid.nprow) + "x" + std::to_string(grid.npcol) + "/" +
             std::to_string(nb);
    predicted = any.scalapack_predicted;
  }

  /// Times hetscal's `run` (`restore` before each run) in the layout of `plan`, its balance
  /// from the flops hetscal's kernels counted in the runs.
  template <typename Run, typename Restore>
  void time_hetscal(const DriverSettings& in, const Grid& grid, const std::vector<double>& speeds,
                    const Plan& plan, Run run, Restore restore) {
    kernels::reset_flops();
    seconds = median_time(in, grid, run, restore);
    balance = kernels::gather_flop_balance(grid.comm, speeds).balance;
    layout = plan.description;
    predicted = plan.predicted;
  }
};

}  // namespace hetscal::driver
