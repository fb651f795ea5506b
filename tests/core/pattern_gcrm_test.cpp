#include "core/patterns/pattern_gcrm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/common/error.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_resolve.hpp"

namespace hetscal::core {
namespace {

// Table I(b) of Beaumont et al. 2023: P, r, z̄ of the GCR&M pattern used in the experiments.
struct TableEntry {
  int P, size;
  double cost;
};
constexpr TableEntry kTableOneB[] = {
    {23, 22, 6.045}, {31, 31, 7.065}, {35, 15, 7.4}, {39, 27, 7.926}};

TEST(PatternGcrm, EquationThree) {
  for (const auto& e : kTableOneB) EXPECT_TRUE(gcrm_size_is_balanceable(e.P, e.size)) << e.P;
  // ⌈r(r−1)/P⌉·P > r²: P = 23, r = 6: 2·23 = 46 > 36; r = 15: 10·23 = 230 > 225.
  EXPECT_FALSE(gcrm_size_is_balanceable(23, 6));
  EXPECT_FALSE(gcrm_size_is_balanceable(23, 15));
  EXPECT_TRUE(gcrm_size_is_balanceable(23, 16));  // 11·23 = 253 <= 256
  EXPECT_FALSE(gcrm_size_is_balanceable(35, 13));
  EXPECT_THROW(gcrm_size_is_balanceable(0, 4), InvalidArgument);
  EXPECT_THROW(gcrm_pattern(5, 1, 0), InvalidArgument);
  EXPECT_THROW(best_gcrm(5, GcrmSearchOptions{6.0, 0, 0}), InvalidArgument);
}

// Every off-diagonal cell gets a node, diagonal cells stay for resolve(). The paper says the
// two matchings "ensure" every node between ⌊r(r−1)/P⌋ and ⌈r(r−1)/P⌉ cells; that holds only
// when the first matching saturates every node's copies, which the colrow phase does not
// promise: for P = 39, r = 12 a node holding 2 colrows covers 2 cells, fewer than ⌊132/39⌋ = 3.
TEST(PatternGcrm, OneRunAssignsEveryOffDiagonalCellAndIsDeterministic) {
  for (int P : {7, 23, 39}) {
    for (int r : {12, 22, 27}) {
      const Pattern p = gcrm_pattern(P, r, 17);
      ASSERT_EQ(p.rows(), r);
      for (int i = 0; i < r; ++i) {
        for (int j = 0; j < r; ++j) EXPECT_EQ(p.at(i, j) == Pattern::kUnassigned, i == j);
      }
      EXPECT_EQ(p, gcrm_pattern(P, r, 17));
    }
  }
  const auto cells = gcrm_pattern(39, 12, 17).cells_per_node();
  EXPECT_LT(*std::min_element(cells.begin(), cells.end()), 132 / 39);
  EXPECT_NE(gcrm_pattern(23, 22, 1), gcrm_pattern(23, 22, 2));  // the seed matters
}

// Table I(b): the search (r <= 6√P with Equation 3, seeded tie-breaks) must find patterns at
// most 2% above the paper's. 25 seeds per size instead of the paper's 100 keep the test fast;
// they already suffice (100 seeds give 6.043, 7.067, 7.529, 7.815).
TEST(PatternGcrm, SearchMatchesTableOneBWithinTwoPercent) {
  GcrmSearchOptions options;
  options.seeds_per_size = 25;
  for (const auto& e : kTableOneB) {
    const GcrmResult best = best_gcrm(e.P, options);
    EXPECT_LE(best.cost, e.cost * 1.02) << "P = " << e.P << ", r = " << best.size;
    EXPECT_DOUBLE_EQ(best.cost, cholesky_cost(best.pattern));
    EXPECT_EQ(best.pattern, gcrm_pattern(e.P, best.size, best.run_seed));
    EXPECT_TRUE(is_balanceable(best.pattern));
    EXPECT_TRUE(gcrm_size_is_balanceable(e.P, best.size));
    EXPECT_LE(best.size, 6.0 * std::sqrt(e.P));
    // Laid over a matrix of 40 pattern replicas per side, the lower triangle is balanced.
    const std::int64_t n = 40 * best.size;
    EXPECT_LE(load_balance(best.pattern, n, n, Factorization::Cholesky).max_over_average, 1.02)
        << e.P;
  }
}

// At the sizes Table I(b) names, single runs of Algorithm 1 hit the printed costs exactly for
// P = 23 (r = 22: z̄ = 133/22) and P = 31 (r = 31: z̄ = 219/31) within the first 200 seeds.
// (For P = 35, r = 15 and P = 39, r = 27 they do not: 7.4 needs every node on ~3 colrows
// with exactly 6 cells, which the greedy phase does not find; the search above still meets
// the 2% bound with other sizes.)
TEST(PatternGcrm, FixedTableSizesReproduceTableOneBExactly) {
  for (const auto& e : {kTableOneB[0], kTableOneB[1]}) {
    double best = 1e9;
    for (std::uint64_t seed = 0; seed < 200 && best > e.cost; ++seed) {
      best = std::min(best, cholesky_cost(gcrm_pattern(e.P, e.size, seed)));
    }
    EXPECT_NEAR(best, e.cost, 5e-4) << e.P;
  }
}

// Figure 10: GCR&M's z̄ stays below the symmetric cost of 2DBC-like patterns (≈ 2√P − 1).
TEST(PatternGcrm, BeatsSymmetricG2dbcCost) {
  GcrmSearchOptions options;
  options.seeds_per_size = 5;
  for (int P : {10, 17, 28, 44}) {
    const GcrmResult best = best_gcrm(P, options);
    EXPECT_LT(best.cost, 2.0 * std::sqrt(P) - 1.0) << P;
  }
}

// A search asked again returns what it found the first time (remembered), as a fresh search
// does, and one that was refused is refused again alike.
TEST(PatternGcrm, SearchAskedAgainGivesTheSameResult) {
  GcrmSearchOptions options;
  options.seeds_per_size = 3;
  options.seed = 1234;  // a key no other test uses: the first call searches
  const GcrmResult first = best_gcrm(31, options), again = best_gcrm(31, options);
  EXPECT_EQ(again.size, first.size);
  EXPECT_EQ(again.cost, first.cost);
  EXPECT_EQ(again.run_seed, first.run_seed);
  EXPECT_EQ(again.pattern.rows(), first.pattern.rows());
  EXPECT_EQ(again.pattern.owners(), first.pattern.owners());
  GcrmSearchOptions fresh = options;  // searched again, not remembered: the same result
  fresh.remember = false;
  EXPECT_EQ(best_gcrm(31, fresh).pattern.owners(), first.pattern.owners());
  const GcrmSearchOptions none{0.1, 3, 0};  // no size below 0.1·√P
  EXPECT_THROW(best_gcrm(40, none), InvalidArgument);
  EXPECT_THROW(best_gcrm(40, none), InvalidArgument);
}

// The table (pattern_gcrm_table.hpp) rebuilds what the search finds: the same pattern, cost,
// size and seed. Every P up to 40 and 64 (the search of the whole table takes half an hour:
// DISABLED_PrintTable).
TEST(PatternGcrm, TableIsTheSearchsResult) {
  GcrmSearchOptions tabled{kTabledGcrmSearch.max_size_factor, kTabledGcrmSearch.seeds_per_size,
                           kTabledGcrmSearch.seed};
  tabled.remember = false;
  GcrmSearchOptions searched = tabled;
  searched.tabled = false;
  std::vector<int> counts;
  for (int P = 2; P <= 40; ++P) counts.push_back(P);
  counts.push_back(64);
  for (int P : counts) {
    ASSERT_TRUE(gcrm_table_entry(P, tabled)) << P;
    const GcrmResult table = best_gcrm(P, tabled), search = best_gcrm(P, searched);
    EXPECT_EQ(table.size, search.size) << P;
    EXPECT_EQ(table.run, search.run) << P;
    EXPECT_EQ(table.run_seed, search.run_seed) << P;
    EXPECT_EQ(table.cost, search.cost) << P;
    EXPECT_EQ(table.pattern.owners(), search.pattern.owners()) << P;
  }
}

// Only the table's options (and P within it) use it; tabled = false always searches.
TEST(PatternGcrm, TableOnlyForItsOptions) {
  const GcrmSearchOptions tabled{kTabledGcrmSearch.max_size_factor, kTabledGcrmSearch.seeds_per_size,
                                 kTabledGcrmSearch.seed};
  EXPECT_TRUE(gcrm_table_entry(kTabledGcrmNodes, tabled));
  EXPECT_FALSE(gcrm_table_entry(kTabledGcrmNodes + 1, tabled));
  EXPECT_FALSE(gcrm_table_entry(1, tabled));
  GcrmSearchOptions other = tabled;
  other.seeds_per_size = 11;
  EXPECT_FALSE(gcrm_table_entry(64, other));
  other = tabled;
  other.seed = 1;
  EXPECT_FALSE(gcrm_table_entry(64, other));
  other = tabled;
  other.max_size_factor = 5.0;
  EXPECT_FALSE(gcrm_table_entry(64, other));
  other = tabled;
  other.tabled = false;
  EXPECT_FALSE(gcrm_table_entry(64, other));
  // Where no size gives a balanceable pattern (P = 510), the table refuses P as the search does.
  ASSERT_EQ(gcrm_table_entry(510, tabled)->size, 0);
  EXPECT_THROW(best_gcrm(510, tabled), InvalidArgument);
}

// Prints pattern_gcrm_table.cpp's table afresh (about half an hour on one core):
//   hetscal_core_tests --gtest_also_run_disabled_tests --gtest_filter=PatternGcrm.DISABLED_PrintTable
TEST(PatternGcrm, DISABLED_PrintTable) {
  GcrmSearchOptions searched{kTabledGcrmSearch.max_size_factor, kTabledGcrmSearch.seeds_per_size,
                             kTabledGcrmSearch.seed};
  searched.remember = searched.tabled = false;
  for (int P = 2; P <= kTabledGcrmNodes; ++P) {
    int size = 0, run = 0;
    try {
      const GcrmResult found = best_gcrm(P, searched);
      size = found.size;
      run = found.run;
    } catch (const InvalidArgument&) {
    }
    std::printf("{%d, %d},%s", size, run, (P - 1) % 8 == 0 ? "\n" : " ");
  }
  std::printf("\n");
}

}  // namespace
}  // namespace hetscal::core
