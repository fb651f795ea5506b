/// @file bench_patterns.cpp
/// Prints the communication costs of the distribution patterns (Beaumont et al. 2023):
///  1. symmetric (Cholesky) z̄ of the best GCR&M pattern for P = 10..60 next to √(3P/2), the
///     trend of Figure 10, and √(2P) (basic SBC), with G-2DBC's and the best 2DBC's LU cost T
///     (their symmetric cost is T − 1);
///  2. heterogeneous patterns' T for random speeds (ratio up to 1:10) next to G-2DBC's T, the
///     lower bound 2Σ√share, the pattern's work balance (Σcells/Σs ÷ max cells_k/s_k), and the
///     balance W/Σspeeds of Cartesian heterogeneous grids from the grid planner (1 = perfect;
///     the planner's own choice, and the near-square shape; processors left out of a grid
///     count as idle).
/// Usage: bench_patterns [gcrm_seeds_per_size (default 20; the paper uses 100)]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "core/grids/grid_planner.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_gcrm.hpp"
#include "core/patterns/pattern_hetero.hpp"

namespace core = hetscal::core;

namespace {

void print_symmetric_costs(int seeds) {
  std::printf("# GCR&M (r <= 6 sqrt(P), Equation 3, %d seeds per size) vs Figure 10's trend\n",
              seeds);
  std::printf("%4s %5s %8s %10s %8s | %9s %8s | %7s %8s\n", "P", "r", "z_gcrm", "sqrt(3P/2)",
              "sqrt(2P)", "T_g2dbc", "g2dbc_dim", "2dbc", "T_2dbc");
  core::GcrmSearchOptions options;
  options.seeds_per_size = seeds;
  for (int P = 10; P <= 60; ++P) {
    const core::GcrmResult gcrm = core::best_gcrm(P, options);
    const core::Pattern g2dbc = core::g2dbc_pattern(P);
    const core::Pattern grid = core::best_block_cyclic(P);
    std::printf("%4d %5d %8.3f %10.3f %8.3f | %9.3f %4dx%-4d | %3dx%-3d %8.3f\n", P, gcrm.size,
                gcrm.cost, std::sqrt(1.5 * P), std::sqrt(2.0 * P), core::lu_cost(g2dbc),
                g2dbc.rows(), g2dbc.cols(), grid.rows(), grid.cols(), core::lu_cost(grid));
  }
}

std::vector<double> random_speeds(int P, std::mt19937_64& rng) {
  std::vector<double> s(P);
  for (auto& v : s) v = 1.0 + 9.0 * static_cast<double>(rng() % 10001) / 10000.0;
  return s;
}

void print_heterogeneous_costs() {
  std::printf("\n# Heterogeneous patterns (speeds uniform in [1,10], seeded) vs G-2DBC\n");
  std::printf("%4s %9s %8s %8s %7s %10s %9s | %9s %9s | %9s %7s\n", "P", "dim", "T_het", "T_g2dbc",
              "ratio", "2sum_sqrt", "pat_bal", "grid_bal", "grid(W)", "sq_bal", "sq_grid");
  std::mt19937_64 rng(11);
  for (int P : {4, 8, 12, 16, 23, 31, 39, 48, 64}) {
    for (int trial = 0; trial < 3; ++trial) {
      const auto s = random_speeds(P, rng);
      const double total = std::accumulate(s.begin(), s.end(), 0.0);
      const core::Pattern p = core::hetero_pattern(core::Speeds::from_speeds(s));
      double bound = 0.0;
      for (double v : s) bound += 2.0 * std::sqrt(v / total);
      // Pattern balance over its own cells: (Σcells/Σs) / max cells_k/s_k.
      const core::LoadBalance cells = core::balance_of(p.cells_per_node(), s);
      std::vector<double> cycle_times(s.size());
      for (std::size_t k = 0; k < s.size(); ++k) cycle_times[k] = 1.0 / s[k];
      // The planner's choice by W alone (often 1×P: 1D shares balance perfectly) and the
      // near-square shape ⌊√P⌋×⌊P/⌊√P⌋⌋ whose communication is comparable to a pattern's.
      const core::GridChoice grid = core::choose_grid(cycle_times);
      const double grid_balance = grid.candidate.figures.work_per_time / total;
      const auto square_rows = static_cast<std::size_t>(std::sqrt(P));
      const core::GridChoice square = core::plan_grid_shape(
          cycle_times, square_rows, static_cast<std::size_t>(P) / square_rows);
      const double square_balance = square.candidate.figures.work_per_time / total;
      const double t = core::lu_cost(p);
      const double g = core::g2dbc_cost_formula(P);
      std::printf(
          "%4d %4dx%-4d %8.3f %8.3f %7.3f %10.3f %9.4f | %9.4f %4zux%-4zu | %9.4f %3zux%-3zu\n", P,
          p.rows(), p.cols(), t, g, t / g, bound, 1.0 / cells.max_over_average, grid_balance,
          grid.candidate.rows, grid.candidate.cols, square_balance, square.candidate.rows,
          square.candidate.cols);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 20;
  if (seeds < 1) {
    std::fprintf(stderr, "usage: %s [gcrm_seeds_per_size >= 1]\n", argv[0]);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  print_symmetric_costs(seeds);
  print_heterogeneous_costs();
  std::printf("\n# %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
