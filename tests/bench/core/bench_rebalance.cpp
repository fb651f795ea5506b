// Figures of the redistribution of Beaumont, Legrand, Rastello & Robert 2000 (§4): Figure 8's
// three sequences (paper formula vs cost model), Figure 9's pricing gap, plans for a few speed
// changes, and the time taken by the greedy and the dynamic program. Prints; never fails.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "core/rebalancing/rebalance.hpp"

using namespace hetscal::core;

namespace {

RowImbalance figure_8(long long n) {
  const auto rows = static_cast<std::size_t>(n);
  auto column = [&](long long row_3, long long row_n_minus_2) {
    std::vector<long long> need(rows, 0);
    need[0] = +1;
    need[2] = row_3;
    need[rows - 3] = row_n_minus_2;
    need[rows - 1] = -1;
    return column_imbalance(2.0 * static_cast<double>(n) / 3.0, std::vector<std::size_t>(rows, 2),
                            need);
  };
  RowImbalance imbalance;
  imbalance.columns = {column(-1, +1), column(+1, -1), column(-1, +1)};
  imbalance.full_row_cost = 2.0 * static_cast<double>(n);
  return imbalance;
}

void print_figure_8() {
  std::printf("Figure 8 (columns 2n/3 wide, n processors each): paper formula / cost model\n");
  std::printf("%5s %21s %21s %21s %10s\n", "n", "slidings only", "1 migration+slides", "optimal",
              "greedy");
  for (long long n : {12, 18, 24, 30, 60}) {
    const double w = 2.0 * static_cast<double>(n) / 3.0;
    const RowImbalance imbalance = figure_8(n);
    const std::size_t last = 2 * static_cast<std::size_t>(n) - 1;
    const double slides = evaluate_row_plan(imbalance, {}, RowMigrationCost::Constant).total_cost();
    const double one =
        evaluate_row_plan(imbalance, {{last, 0, 0.0}}, RowMigrationCost::Constant).total_cost();
    const double best = optimal_row_plan(imbalance).total_cost();
    const double greedy = greedy_row_plan(imbalance, RowMigrationCost::Constant).total_cost();
    std::printf("%5lld %10.0f / %8.0f %10.0f / %8.0f %10.0f / %8.0f %10.0f\n", n,
                w * static_cast<double>(2 * n + 4), slides,
                2.0 * static_cast<double>(n) + w * static_cast<double>(3 * (n - 4)), one,
                4.0 * static_cast<double>(n) + w * static_cast<double>(2 * (n - 4)), best, greedy);
  }
}

void print_scenario(const char* name, std::vector<double> before, std::vector<double> after,
                    std::size_t blocks) {
  const auto old_speeds = Speeds::from_speeds(std::move(before));
  const auto new_speeds = Speeds::from_speeds(std::move(after));
  const RebalanceSummary s = plan_rebalance(old_speeds, new_speeds, {blocks});
  const RebalanceSummary spanned =
      plan_rebalance(old_speeds, new_speeds, {blocks, RowMigrationCost::SpannedColumns});
  std::printf("%-14s %5zu %8.0f %8.0f %8.0f %8zu %6zu %6zu %6zu %7.3f %7.3f\n", name, blocks,
              s.total_cost, s.slidings_only_cost, spanned.total_cost, s.fresh_partition_blocks,
              s.column_migrations.units, s.row_migrations.units, s.local_slidings.units,
              s.balance_before, s.balance_after);
}

void print_scenarios() {
  std::printf("\nSpeed changes on an NxN block matrix (costs in blocks moved)\n");
  std::printf("%-14s %5s %8s %8s %8s %8s %6s %6s %6s %7s %7s\n", "case", "N", "greedy", "no-rows",
              "spanned", "fresh", "colmig", "rowmig", "slides", "bal.old", "bal.new");
  print_scenario("one slower", {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 4}, 60);
  print_scenario("one faster", {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 12}, 60);
  print_scenario("swap ends", {1, 2, 3, 4, 5, 6, 7, 8}, {8, 2, 3, 4, 5, 6, 7, 1}, 60);
  print_scenario("halve one", std::vector<double>(9, 1.0), {1, 0.5, 1, 1, 1, 1, 1, 1, 1}, 60);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> draw(0.5, 2.0), drift(0.8, 1.25);
  std::vector<double> base(16), moved(16);
  for (std::size_t k = 0; k < base.size(); ++k)
    base[k] = draw(rng), moved[k] = base[k] * drift(rng);
  print_scenario("16, +-25%", base, moved, 120);
}

void print_timings() {
  std::printf("\nRow phase time (random speeds drifting by up to 2x)\n");
  std::printf("%6s %6s %10s %12s %12s\n", "P", "N", "positions", "greedy [ms]", "DP [ms]");
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> draw(0.5, 2.0);
  for (std::size_t p : {16u, 64u, 256u}) {
    for (std::size_t blocks : {256u, 1024u}) {
      std::vector<double> before(p), after(p);
      for (std::size_t k = 0; k < p; ++k) before[k] = draw(rng), after[k] = before[k] * draw(rng);
      const BlockLayout old_layout = discretise(col_peri_sum(before), blocks);
      const RowImbalance imbalance = row_imbalance(old_layout, relayout(old_layout, after));
      using clock = std::chrono::steady_clock;
      const auto t0 = clock::now();
      const RowPlan greedy = greedy_row_plan(imbalance, RowMigrationCost::Constant);
      const auto t1 = clock::now();
      const RowPlan best = optimal_row_plan(imbalance);
      const auto t2 = clock::now();
      const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
      std::printf("%6zu %6zu %10zu %12.2f %12.2f%s\n", p, blocks, greedy.positions.size(),
                  ms(t1 - t0), ms(t2 - t1),
                  greedy.total_cost() == best.total_cost() ? "" : "  (costs differ!)");
    }
  }
}

}  // namespace

int main() {
  print_figure_8();
  print_scenarios();
  print_timings();
  return 0;
}
