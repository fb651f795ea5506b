/// Prints the time of the exact grid search (all non-decreasing arrangements × acceptable
/// spanning trees, Boudet et al. 1999 §4.2-4.3) for 3×3 and 4×4 grids.
/// Usage: bench_exact_grid [seed] [repetitions]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/grids/exact_grid.hpp"

namespace {

using hetscal::core::ExactGridResult;

void print_grid(const ExactGridResult& r) {
  for (std::size_t i = 0; i < r.arrangement.rows; ++i) {
    std::printf("    [");
    for (std::size_t j = 0; j < r.arrangement.cols; ++j)
      std::printf(" %6.3f", r.arrangement.t(i, j));
    std::printf(" ]  r = %.4f\n", r.shares.r[i] / r.shares.r[0]);
  }
  std::printf("    c =");
  for (double c : r.shares.c) std::printf(" %.4f", c * r.shares.r[0]);
  std::printf("\n");
}

void run(const std::string& label, const std::vector<double>& t, std::size_t p, std::size_t q,
         int repetitions) {
  double fastest = 1e300;
  ExactGridResult result;
  for (int k = 0; k < repetitions; ++k) {
    const auto start = std::chrono::steady_clock::now();
    result = hetscal::core::best_grid_exact(t, p, q);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    fastest = std::min(fastest, elapsed.count());
  }
  std::printf("%-28s %zux%zu: %9.6f s (best of %d), %llu arrangements, %llu trees, W = %.6f, "
              "W_cyclic = %.6f\n",
              label.c_str(), p, q, fastest, repetitions,
              static_cast<unsigned long long>(result.arrangements_searched),
              static_cast<unsigned long long>(result.spanning_trees_visited), result.work_per_time,
              hetscal::core::cyclic_work_per_time(result.arrangement));
  print_grid(result);
}

std::vector<double> random_times(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> time(1.0, 10.0);
  std::vector<double> t(n);
  for (double& x : t) x = time(rng);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned long seed = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2026;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 3;
  std::mt19937_64 rng(seed);
  const std::vector<double> workstations = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};
  run("workstations (Table 3)", workstations, 3, 3, repetitions);
  run("workstations (Table 3)", workstations, 2, 4, repetitions);
  run("random [1,10] seed " + std::to_string(seed), random_times(rng, 9), 3, 3, repetitions);
  run("random [1,10] seed " + std::to_string(seed), random_times(rng, 16), 4, 4, repetitions);
  return 0;
}
