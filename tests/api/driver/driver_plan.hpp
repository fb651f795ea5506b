#pragma once
// What the factorisation drivers share around hetscal's plan of a case: a context of the
// routine on the grid (its layout described and its predictions), the .dat's layout
// letters, and the median time of repeated runs.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "driver_input.hpp"
#include "driver_matrices.hpp"
#include "driver_runs.hpp"
#include "hetscal/hetscal.h"
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

/// The median over the input's repetitions of `run`'s time, `restore` before each.
template <typename Run, typename Restore>
double median_time(const DriverSettings& in, const Grid& grid, Run run, Restore restore) {
  return bench::median(timed_runs(in.repetitions, grid.comm, run, restore));
}

}  // namespace hetscal::driver
