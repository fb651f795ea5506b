#include "core/planners/cholesky_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/error.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/planners/cholesky_ordering.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/planners/model_candidates.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

Platform platform_of(const std::vector<double>& speeds, double bandwidth, NetworkKind kind) {
  Platform p;
  for (double s : speeds) p.processors.push_back({s, 1.0e12});
  p.network = {5.0e-6, bandwidth, kind, {}};
  p.kernel.half_tile = 16.0;
  return p;
}

const CallerLayout kOnFirst{1, 1, 64, {0}};

// Table I(b) of Beaumont2023: the planner's GCR&M costs T for P = 23, 31, 35, 39 and the 2DBC
// patterns it prices on P and on fewer nodes. The paper's search used r <= 6√P and 100
// seeds; its seeds are not published. With 25 seeds per size the planner finds 6.043 and
// 7.067 for P = 23 and 31 (the paper: 6.045, 7.065), 7.543 for P = 35 (the paper's 7.4 is a
// 15×15 pattern with every node on ~3 colrows holding exactly 6 cells, which the greedy
// colrow phase does not reach: pattern_gcrm_test) and 7.963 for P = 39 (7.926; 100 seeds
// give 7.815): within 2% of the table in every case, and always below every 2DBC on
// P − 7 … P nodes (7, 9, 10, 11) and on P (23, 31, 11, 15), as the table shows.
TEST(CholeskyPlan, TableOneBCostsAndBlockCyclicOnFewerNodes) {
  struct Row {
    int P;
    double paper_T;
  };
  CholeskyPlanOptions options;
  options.kinds = {CholeskyLayoutKind::BlockCyclic, CholeskyLayoutKind::Gcrm};
  options.tile_sizes = {500};
  options.gcrm.seeds_per_size = 25;
  for (const Row& row : {Row{23, 6.045}, Row{31, 7.065}, Row{35, 7.4}, Row{39, 7.926}}) {
    const Platform cluster =
        platform_of(std::vector<double>(static_cast<std::size_t>(row.P), 1.0e12), 12.5e9,
                    NetworkKind::Switched);
    const CholeskyChoice choice = choose_cholesky_plan(cluster, 20000, kOnFirst, options);
    const CholeskyCandidate& gcrm = fastest_of(choice, CholeskyLayoutKind::Gcrm);
    EXPECT_EQ(gcrm.prediction.candidate.processors().size(), static_cast<std::size_t>(row.P));
    EXPECT_NEAR(gcrm.pattern_cost, row.paper_T, 0.02 * row.paper_T) << "P = " << row.P;
    double best_2dbc_on_p = 1e9, best_2dbc_near = 1e9;
    for (const auto& c : choice.priced) {
      if (c.kind != CholeskyLayoutKind::BlockCyclic) continue;
      const std::size_t k = c.prediction.candidate.processors().size();
      // 2DBC p×q costs p + q − 1 (independent oracle: the grid's shape).
      EXPECT_DOUBLE_EQ(
          c.pattern_cost,
          static_cast<double>(c.prediction.candidate.rows + c.prediction.candidate.cols) - 1.0);
      if (k == static_cast<std::size_t>(row.P))
        best_2dbc_on_p = std::min(best_2dbc_on_p, c.pattern_cost);
      if (k + 7 >= static_cast<std::size_t>(row.P))
        best_2dbc_near = std::min(best_2dbc_near, c.pattern_cost);
    }
    std::printf("P %d: GCR&M T %.3f (paper %.3f), best 2DBC on P %.0f, on P-7..P %.0f\n", row.P,
                gcrm.pattern_cost, row.paper_T, best_2dbc_on_p, best_2dbc_near);
    EXPECT_LT(gcrm.pattern_cost, best_2dbc_near);
    EXPECT_LE(best_2dbc_near, best_2dbc_on_p);
  }
}

// The paper's P = 23 experiment: GCR&M on all nodes beats 2DBC on 23 (23×1 only: 23 is
// prime) and on fewer nodes; the model agrees on a 100 Gb/s switch.
TEST(CholeskyPlan, HomogeneousTwentyThreeNodesChooseGcrm) {
  CholeskyPlanOptions options;
  options.kinds = {CholeskyLayoutKind::BlockCyclic, CholeskyLayoutKind::G2dbc,
                   CholeskyLayoutKind::Gcrm};
  options.tile_sizes = {500};
  const Platform cluster =
      platform_of(std::vector<double>(23, 1.0e12), 12.5e9, NetworkKind::Switched);
  const CholeskyChoice choice = choose_cholesky_plan(cluster, 200000, kOnFirst, options);
  EXPECT_EQ(choice.kind, CholeskyLayoutKind::Gcrm);
  EXPECT_EQ(choice.processors.size(), 23u);
  EXPECT_LT(choice.predicted_s,
            fastest_of(choice, CholeskyLayoutKind::BlockCyclic).prediction.total_s());
}

TEST(CholeskyPlan, ChoiceIsTheFastestPricedCandidate) {
  const Platform platform =
      platform_of({4.0e9, 2.0e9, 1.0e9, 1.0e9, 3.0e9}, 1.0e9, NetworkKind::Switched);
  const Problem problem{Routine::Cholesky, 3000, kOnFirst};
  const CholeskyChoice choice = choose_cholesky_plan(platform, 3000, kOnFirst, exhaustive<CholeskyPlanOptions>());
  double fastest = 1e300;
  std::size_t at = 0;
  for (std::size_t i = 0; i < choice.priced.size(); ++i) {
    const Prediction again = predict(platform, problem, choice.priced[i].prediction.candidate);
    EXPECT_DOUBLE_EQ(again.total_s(), choice.priced[i].prediction.total_s());
    if (again.fits_memory() && again.total_s() < fastest) fastest = again.total_s(), at = i;
    const Candidate& c = choice.priced[i].prediction.candidate;
    if (c.kind == CandidateKind::Cartesian) {
      EXPECT_FALSE(c.row_order.empty());
      EXPECT_FALSE(c.col_order.empty());
    }
  }
  EXPECT_EQ(choice.chosen, at);
  EXPECT_DOUBLE_EQ(choice.predicted_s, fastest);
  EXPECT_EQ(choice.candidate.label, choice.priced[at].prediction.candidate.label);
  EXPECT_EQ(choice.tile, choice.candidate.tile);
  EXPECT_EQ(choice.processors, choice.candidate.processors());
  for (CholeskyLayoutKind kind : {CholeskyLayoutKind::CallerLayout, CholeskyLayoutKind::BlockCyclic,
                                  CholeskyLayoutKind::HeterogeneousGrid, CholeskyLayoutKind::G2dbc,
                                  CholeskyLayoutKind::Gcrm, CholeskyLayoutKind::HeteroSymmetric})
    EXPECT_NO_THROW(fastest_of(choice, kind)) << cholesky_layout_name(kind);
}

TEST(CholeskyPlan, VerySlowRankIsLeftOut) {
  // 50× slower on a shared bus: the model keeps the three fast ones.
  const Platform platform =
      platform_of({1.0e9, 1.0e9, 1.0e9, 2.0e7}, 1.0e8, NetworkKind::SharedBus);
  EXPECT_EQ(pattern_process_counts(platform, 0), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(pattern_process_counts(
                platform_of({1.0, 0.6, 0.25, 0.2, 0.05}, 1.0, NetworkKind::SharedBus), 0),
            (std::vector<std::size_t>{2, 4, 5}));
  EXPECT_EQ(pattern_process_counts(platform, 2), (std::vector<std::size_t>{2}));
  const CholeskyChoice choice = choose_cholesky_plan(platform, 3000, kOnFirst);
  EXPECT_EQ(std::count(choice.processors.begin(), choice.processors.end(), 3u), 0);
  EXPECT_EQ(choice.processors.size(), 3u);
}

// New work, chosen only where it wins: on a 100 MB/s shared bus with speeds 3:3:2:2:1:1:1
// the model prefers the heterogeneous symmetric pattern (fewer nodes per colrow than the
// grid's row ∪ column, cells still in proportion to speed: 2.7% faster than the ordered
// grid once the lookahead hides what it can of either's panels);
// on a 1 GB/s switch the ordered grid wins; with equal speeds it is not even priced.
TEST(CholeskyPlan, HeteroSymmetricOnlyWhereItWins) {
  const std::vector<double> speeds{3.0e9, 3.0e9, 2.0e9, 2.0e9, 1.0e9, 1.0e9, 1.0e9};
  const CholeskyChoice bus =
      choose_cholesky_plan(platform_of(speeds, 1.0e8, NetworkKind::SharedBus), 8000, kOnFirst);
  EXPECT_EQ(bus.kind, CholeskyLayoutKind::HeteroSymmetric);
  EXPECT_EQ(bus.processors.size(), speeds.size());
  EXPECT_LT(bus.predicted_s,
            0.98 * fastest_of(bus, CholeskyLayoutKind::HeterogeneousGrid).prediction.total_s());
  EXPECT_GT(bus.pattern_cost, 1.0);
  const CholeskyChoice sw =
      choose_cholesky_plan(platform_of(speeds, 1.0e9, NetworkKind::Switched), 8000, kOnFirst);
  EXPECT_EQ(sw.kind, CholeskyLayoutKind::HeterogeneousGrid);
  EXPECT_LT(sw.predicted_s,
            fastest_of(sw, CholeskyLayoutKind::HeteroSymmetric).prediction.total_s());
  const CholeskyChoice equal = choose_cholesky_plan(
      platform_of(std::vector<double>(6, 1.0e9), 1.0e9, NetworkKind::SharedBus), 4000, kOnFirst);
  EXPECT_THROW(fastest_of(equal, CholeskyLayoutKind::HeteroSymmetric), Error);
}

// More processors than a symmetric pattern of max_size a side has cells (16,384 ranks with
// the default 64): the planner lists the other families there instead of refusing the call.
TEST(CholeskyPlan, SymmetricPatternsOnlyWhereTheyHaveACellForEveryone) {
  std::vector<double> speeds;
  for (int x = 0; x < 20; ++x) speeds.push_back(x % 2 ? 2.0e9 : 1.0e9);
  CholeskyPlanOptions options;
  options.hetero_symmetric.max_size = 4;  // 16 cells: not enough for 20 processors
  const CholeskyChoice choice =
      choose_cholesky_plan(platform_of(speeds, 1.0e9, NetworkKind::Switched), 4000, kOnFirst, options);
  std::size_t symmetric = 0;
  for (const auto& c : choice.priced)
    if (c.kind == CholeskyLayoutKind::HeteroSymmetric) {
      ++symmetric;
      EXPECT_LE(c.prediction.candidate.processors().size(), 16u) << c.prediction.candidate.label;
    }
  EXPECT_GT(choice.priced.size(), 0u);
  EXPECT_EQ(symmetric, 0u);  // the only count whose speeds differ is all 20
}

// The priced GCR&M candidate gives its unassigned diagonal cells to distinct light nodes,
// so no processor holds more than ⌈r²/P⌉ + 1 cells.
TEST(CholeskyPlan, GcrmDiagonalCellsSpreadOverTheColrows) {
  const Pattern pattern = gcrm_pattern(23, 22, 5);
  std::vector<std::size_t> ids(23);
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = k;
  const Candidate c = pattern_candidate("gcrm", 64, pattern, ids);
  std::vector<int> cells(23, 0);
  for (std::size_t x : c.owner) ++cells[x];
  EXPECT_LE(*std::max_element(cells.begin(), cells.end()), (22 * 22 + 22) / 23 + 1);
}

TEST(CholeskyPlan, OneProcessorComputesAlone) {
  const Platform one = platform_of({1.0e9}, 1.0e9, NetworkKind::Switched);
  const CholeskyChoice choice = choose_cholesky_plan(one, 500, kOnFirst);
  EXPECT_EQ(choice.processors, (std::vector<std::size_t>{0}));
  for (const auto& c : choice.priced)
    EXPECT_TRUE(c.kind == CholeskyLayoutKind::CallerLayout ||
                c.kind == CholeskyLayoutKind::BlockCyclic)
        << c.prediction.candidate.label;
  // Whole tiles: ⌈500/nb⌉³/3 tile operations at least, so no less than N³/3 flops.
  EXPECT_GE(choice.predicted_s, 500.0 * 500.0 * 500.0 / 3.0 / 1.0e9);
}

// A heterogeneous grid is listed unplanned; built (when priced, once per tile size), it is the
// grid planner's plan of its shape in Cholesky order, the same however often it is built.
TEST(CholeskyPlan, DeferredHeterogeneousGridsAreTheirShapesPlan) {
  const Platform platform = planner_platform({4.0e9, 2.0e9, 1.0e9, 4.0e9, 2.0e9, 1.0e9});
  const PlanCandidates<CholeskyLayoutKind> listed = cholesky_plan_candidates(platform, 3000, caller_grid(2, 3));
  const std::vector<double> cycle_times = cycle_times_of(platform);
  int grids = 0;
  for (const PricedCandidate<CholeskyLayoutKind>& c : listed.built) {
    if (c.kind != CholeskyLayoutKind::HeterogeneousGrid) continue;
    ASSERT_TRUE(c.deferred.build);
    EXPECT_TRUE(c.prediction.candidate.owner.empty());  // a sketch until priced
    const Candidate first = c.deferred.build(), again = c.deferred.build();
    const GridChoice plan = plan_grid_shape(cycle_times, first.rows, first.cols);
    const Candidate planned = with_cholesky_order(
        cartesian_candidate(plan_label("hetero", first.rows, first.cols), first.tile, first.rows, first.cols,
                            plan.arrangement.processor, plan.shares.r, plan.shares.c),
        3000);
    for (const Candidate* built : {&first, &again}) {
      EXPECT_EQ(built->owner, planned.owner) << built->label;
      EXPECT_EQ(built->row_order, planned.row_order) << built->label;
      EXPECT_EQ(built->col_order, planned.col_order) << built->label;
      EXPECT_EQ(built->label, planned.label);
    }
    ++grids;
  }
  EXPECT_GT(grids, 3);
}

// A pattern is listed unmade (its tile sizes share it, made when one is priced); built, it is
// the family's pattern on the fastest k, and a priced one carries its T, as the pattern's own.
TEST(CholeskyPlan, DeferredPatternsAreTheirFamilysPattern) {
  const Platform platform = planner_platform({4.0e9, 2.0e9, 1.0e9, 4.0e9, 2.0e9, 1.0e9, 4.0e9, 2.0e9});
  const CholeskyPlanOptions options;
  const PlanCandidates<CholeskyLayoutKind> listed = cholesky_plan_candidates(platform, 3000, caller_grid(2, 4), options);
  const std::vector<std::size_t> fastest = fastest_processors(platform, 8);
  const Pattern gcrm = best_gcrm(8, options.gcrm).pattern;
  const Pattern symmetric = best_hetero_symmetric(speeds_of(platform, fastest), options.hetero_symmetric).pattern;
  int patterns = 0;
  for (const PricedCandidate<CholeskyLayoutKind>& c : listed.built) {
    if (c.kind != CholeskyLayoutKind::Gcrm && c.kind != CholeskyLayoutKind::HeteroSymmetric) continue;
    if (c.prediction.candidate.label.find(" 8") == std::string::npos) continue;
    ASSERT_TRUE(c.deferred.build);
    EXPECT_TRUE(c.prediction.candidate.owner.empty());  // a sketch until priced
    const Pattern& pattern = c.kind == CholeskyLayoutKind::Gcrm ? gcrm : symmetric;
    const Candidate expected = pattern_candidate(c.prediction.candidate.label, c.prediction.candidate.tile, pattern, fastest);
    EXPECT_EQ(c.deferred.build().owner, expected.owner) << c.prediction.candidate.label;
    ++patterns;
  }
  EXPECT_EQ(patterns, 2 * static_cast<int>(usable_tile_sizes(options.tile_sizes, 3000, "", platform.kernel).size()));

  CholeskyPlanOptions exhaustive;
  exhaustive.search.exhaustive = true;
  const CholeskyChoice choice = choose_cholesky_plan(platform, 3000, caller_grid(2, 4), exhaustive);
  EXPECT_DOUBLE_EQ(fastest_of(choice, CholeskyLayoutKind::Gcrm).pattern_cost, cholesky_cost(gcrm));
  EXPECT_DOUBLE_EQ(fastest_of(choice, CholeskyLayoutKind::HeteroSymmetric).pattern_cost, cholesky_cost(symmetric));
}

// The planner's GCR&M search is the table's (pattern_gcrm_table.hpp): no search up to
// kMaxGcrmProcessors.
TEST(CholeskyPlan, GcrmSearchIsTabled) {
  const CholeskyPlanOptions options;
  EXPECT_TRUE(gcrm_table_entry(static_cast<int>(kMaxGcrmProcessors), options.gcrm));
}

TEST(CholeskyPlan, RefusesBadInput) {
  const Platform platform = platform_of({1.0e9, 1.0e9}, 1.0e9, NetworkKind::Switched);
  EXPECT_THROW(choose_cholesky_plan(platform, 0, kOnFirst), InvalidArgument);
  CholeskyPlanOptions no_tiles;
  no_tiles.tile_sizes.clear();
  EXPECT_THROW(choose_cholesky_plan(platform, 100, kOnFirst, no_tiles), InvalidArgument);
  CholeskyPlanOptions zero_tile;
  zero_tile.tile_sizes = {0};
  EXPECT_THROW(choose_cholesky_plan(platform, 100, kOnFirst, zero_tile), InvalidArgument);
  CholeskyPlanOptions no_kind;
  no_kind.kinds.clear();
  EXPECT_THROW(choose_cholesky_plan(platform, 100, kOnFirst, no_kind), InvalidArgument);
  EXPECT_THROW(choose_cholesky_plan(platform, 100, CallerLayout{1, 1, 64, {5}}), InvalidArgument);
  Platform tiny = platform;
  for (auto& p : tiny.processors) p.memory_bytes = 1000.0;
  EXPECT_THROW(choose_cholesky_plan(tiny, 1000, kOnFirst), Error);
}

}  // namespace
}  // namespace hetscal::core
