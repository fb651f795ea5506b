// Planning time of the default grid planner (every shape p×⌊n/p⌋, heuristic plus
// refinement) and the shape list of the 9 workstations of Boudet et al. 1999, §5.
// Not a pass/fail test: it prints figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "core/grids/grid_planner.hpp"

namespace {

using hetscal::core::GridCandidate;
using hetscal::core::PlanMethod;

const char* method_name(PlanMethod m) { return m == PlanMethod::Exact ? "exact" : "heuristic"; }

void time_planning(std::size_t n, unsigned seed, hetscal::core::FillSearch fills) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> cycle_time(1.0, 10.0);  // speed ratios up to 1:10
  std::vector<double> t(n);
  for (double& x : t) x = cycle_time(gen);
  // Wall and CPU time: on a shared machine the CPU time is the figure that does not
  // depend on other jobs.
  double best_seconds = 1e300;
  double best_cpu_seconds = 1e300;
  std::vector<GridCandidate> shapes;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    hetscal::core::PlannerOptions options;
    options.heuristic.fills = fills;
    shapes = hetscal::core::list_grid_shapes(t, options);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best_seconds = std::min(best_seconds, elapsed.count());
    best_cpu_seconds = std::min(best_cpu_seconds, cpu);
  }
  const GridCandidate& best = hetscal::core::best_candidate(shapes);
  std::size_t half_steps = 0;
  std::size_t split_shapes = 0;
  for (const GridCandidate& c : shapes) {
    half_steps += c.refinement_half_steps;
    if (c.fast_count < c.rows * c.cols) ++split_shapes;
  }
  std::printf("%5zu processors, %s: %zu shapes planned in %.3f s wall, %.3f s CPU (best of 3)\n"
              "      best by W: %zux%zu W=%.4f W_cyclic=%.4f speedup=%.3f efficiency=%.4f; "
              "mean refinement half-steps %.1f; shapes with slow processors apart: %zu\n",
              n, fills == hetscal::core::FillSearch::PaperOnly ? "paper fill (default)" : "both fills",
              shapes.size(), best_seconds, best_cpu_seconds, best.rows, best.cols, best.figures.work_per_time,
              best.figures.cyclic_work_per_time, best.figures.predicted_speedup,
              best.figures.efficiency,
              static_cast<double>(half_steps) / static_cast<double>(shapes.size()), split_shapes);
}

void print_workstations() {
  const std::vector<double> t = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};  // Table 3
  std::printf("\n9 workstations of Table 3 (t = 7.8 1 1 4 1 6.3 7.8 7.95 8):\n");
  std::printf("shape  method     fast  W       W_cyclic  speedup  efficiency  words/update\n");
  for (const GridCandidate& c : hetscal::core::list_grid_shapes(t)) {
    std::printf("%zux%-3zu  %-9s  %4zu  %.4f  %.4f    %.4f   %.4f      %.0f\n", c.rows, c.cols,
                method_name(c.method), c.fast_count, c.figures.work_per_time,
                c.figures.cyclic_work_per_time, c.figures.predicted_speedup, c.figures.efficiency,
                c.figures.words_per_update);
  }
  hetscal::core::PlannerOptions heuristic_only;
  heuristic_only.exact_max_processors = 0;
  std::printf("(heuristic only: 3x3 W=%.4f, 2x4 W=%.4f)\n",
              hetscal::core::plan_grid_shape(t, 3, 3, heuristic_only).candidate.figures.work_per_time,
              hetscal::core::plan_grid_shape(t, 2, 4, heuristic_only).candidate.figures.work_per_time);
}

}  // namespace

int main() {
  using hetscal::core::FillSearch;
  time_planning(1024, 1, FillSearch::PaperOnly);
  time_planning(4096, 1, FillSearch::PaperOnly);
  time_planning(4096, 1, FillSearch::BothVariants);
  print_workstations();
  return 0;
}
