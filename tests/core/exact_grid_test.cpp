#include "core/grids/exact_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>

#include "core/common/error.hpp"
#include "core/grids/arrangements.hpp"

namespace hetscal::core {
namespace {

// Table 3 of Boudet, Petitet, Rastello & Robert (1999), in the table's order.
const std::vector<double> kWorkstations = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};

Arrangement grid(std::size_t p, std::size_t q, std::vector<double> t) {
  std::vector<std::size_t> processor(t.size());
  std::iota(processor.begin(), processor.end(), std::size_t{0});
  return Arrangement{p, q, std::move(t), std::move(processor)};
}

double w(const Arrangement& a, const Shares& s) { return work_per_time(a, s); }

/// Shares equal up to the scaling r -> λr, c -> c/λ (both normalised by r_1, c_1).
void expect_same_shares_up_to_scaling(const Shares& got, const Shares& want, double tol) {
  ASSERT_EQ(got.r.size(), want.r.size());
  ASSERT_EQ(got.c.size(), want.c.size());
  for (std::size_t i = 0; i < got.r.size(); ++i)
    EXPECT_NEAR(got.r[i] / got.r[0], want.r[i] / want.r[0], tol) << "r" << i + 1;
  for (std::size_t j = 0; j < got.c.size(); ++j)
    EXPECT_NEAR(got.c[j] / got.c[0], want.c[j] / want.c[0], tol) << "c" << j + 1;
}

Arrangement transpose(const Arrangement& a) {
  Arrangement t{a.cols, a.rows, std::vector<double>(a.cycle_time.size()),
                std::vector<std::size_t>(a.processor.size())};
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) {
      t.cycle_time[j * a.rows + i] = a.t(i, j);
      t.processor[j * a.rows + i] = a.at(i, j);
    }
  }
  return t;
}

// §5.2.1: the heuristic's 3×3 arrangement, found optimal by the paper's exact search.
TEST(ExactGrid, Workstations3x3) {
  const auto best = best_grid_exact(kWorkstations, 3, 3);
  const Arrangement heuristic = grid(3, 3, {1.0, 4.0, 7.8, 1.0, 6.3, 7.95, 1.0, 7.8, 8.0});
  const Shares heuristic_shares = optimal_shares(heuristic);
  expect_same_shares_up_to_scaling(heuristic_shares, {{1, 1, 1}, {1, 1 / 7.8, 1 / 8.0}}, 1e-12);
  // W = 3·(1 + 1/7.8 + 1/8) = 3.7596…, printed 3.76.
  EXPECT_NEAR(best.work_per_time, 3.0 * (1.0 + 1.0 / 7.8 + 0.125), 1e-12);
  EXPECT_NEAR(best.work_per_time, w(heuristic, heuristic_shares), 1e-12);
  EXPECT_NEAR(best.work_per_time, 3.76, 0.005);
  EXPECT_NEAR(w(best.arrangement, best.shares), best.work_per_time, 1e-12);
  EXPECT_EQ(best.arrangements_searched, 42u);  // Table 4
  // The optimum found is the heuristic's arrangement or its transpose (same W).
  const bool same = best.arrangement.cycle_time == heuristic.cycle_time ||
                    transpose(best.arrangement).cycle_time == heuristic.cycle_time;
  EXPECT_TRUE(same);
  for (std::size_t cell = 0; cell < 9; ++cell)
    EXPECT_EQ(best.arrangement.cycle_time[cell], kWorkstations[best.arrangement.processor[cell]]);
  const double cyclic = cyclic_work_per_time(best.arrangement);
  EXPECT_DOUBLE_EQ(cyclic, 1.125);
  EXPECT_NEAR(best.work_per_time / cyclic, 3.34, 0.005);
}

// §5.2.2: the fastest 8 of the 9 workstations on a 2×4 grid.
TEST(ExactGrid, Workstations2x4) {
  const auto best = best_grid_exact(kWorkstations, 2, 4);
  const Arrangement heuristic = grid(2, 4, {1.0, 1.0, 1.0, 4.0, 6.3, 7.8, 7.8, 7.95});
  EXPECT_EQ(best.arrangement.cycle_time, heuristic.cycle_time);
  for (std::size_t cell = 0; cell < 8; ++cell)
    EXPECT_NE(best.arrangement.processor[cell], 8u) << "the slowest (8.0) is left out";
  expect_same_shares_up_to_scaling(best.shares, {{1, 1 / 7.8}, {1, 1, 1, 0.25}}, 1e-12);
  // W = (1 + 1/7.8)·3.25 = 3.6666…, printed 3.67.
  EXPECT_NEAR(best.work_per_time, (1.0 + 1.0 / 7.8) * 3.25, 1e-12);
  EXPECT_NEAR(best.work_per_time, 3.67, 0.005);
  EXPECT_EQ(best.arrangements_searched, 14u);  // Table 4
  const double cyclic = cyclic_work_per_time(best.arrangement);
  EXPECT_DOUBLE_EQ(cyclic, 8.0 / 7.95);  // 1.00629, printed 1.01
  // Discrepancy: the paper prints S = 3.63, the ratio of its rounded figures 3.67 / 1.01;
  // the definitions give W / W_cyclic = 3.6437.
  EXPECT_NEAR(best.work_per_time / cyclic, 3.6437, 5e-5);
  EXPECT_NEAR(3.67 / 1.01, 3.63, 0.005);
}

TEST(ExactGrid, TwoByTwoPaperExample) {
  // §3.2.2's grid ((1, 2), (3, 5)): rows 6:2 and columns 4:2 in a 8×6 panel.
  const Arrangement a = grid(2, 2, {1.0, 2.0, 3.0, 5.0});
  const Shares exact = optimal_shares(a);
  expect_same_shares_up_to_scaling(exact, optimal_shares_2x2(a), 1e-12);
  EXPECT_NEAR(exact.r[1] / exact.r[0], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(exact.c[1] / exact.c[0], 1.0 / 2.0, 1e-12);
}

/// Random arrangement: continuous cycle-times, or small integers (many ties) if `ties`.
Arrangement random_arrangement(std::mt19937_64& rng, std::size_t p, std::size_t q, bool ties) {
  std::uniform_real_distribution<double> continuous(1.0, 10.0);
  std::uniform_int_distribution<int> integer(1, 4);
  std::vector<double> t(p * q);
  for (double& x : t) x = ties ? integer(rng) : continuous(rng);
  return grid(p, q, std::move(t));
}

TEST(ExactGrid, SpanningTreesAgreeWithBruteForce) {
  std::mt19937_64 rng(7);
  const std::size_t shapes[][2] = {{1, 1}, {1, 4}, {3, 1}, {2, 2}, {2, 3}, {3, 2},
                                   {3, 3}, {2, 4}, {4, 2}, {3, 4}, {4, 3}};
  int instances = 0;
  for (int round = 0; round < 24; ++round) {
    for (const auto& shape : shapes) {
      const Arrangement a = random_arrangement(rng, shape[0], shape[1], round % 3 == 0);
      const Shares tree = optimal_shares(a);
      const Shares brute = optimal_shares_brute_force(a);
      EXPECT_NEAR(w(a, tree), w(a, brute), 1e-9 * w(a, brute))
          << shape[0] << "x" << shape[1] << " round " << round;
      EXPECT_LE(slowest_time(a, tree), 1.0 + 1e-12);
      ++instances;
    }
  }
  EXPECT_GE(instances, 200);
}

TEST(ExactGrid, TwoByTwoClosedFormAgrees) {
  std::mt19937_64 rng(11);
  for (int instance = 0; instance < 300; ++instance) {
    const Arrangement a = random_arrangement(rng, 2, 2, instance % 4 == 0);
    EXPECT_NEAR(w(a, optimal_shares_2x2(a)), w(a, optimal_shares(a)), 1e-12 * w(a, optimal_shares(a)))
        << instance;
  }
}

TEST(ExactGrid, RankOneBalancesPerfectly) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> factor(1.0, 4.0);
  for (int instance = 0; instance < 200; ++instance) {
    const std::size_t p = 1 + instance % 4, q = 1 + (instance / 4) % 4;
    std::vector<double> row(p), col(q), t;
    for (double& x : row) x = factor(rng);
    for (double& x : col) x = factor(rng);
    double total_speed = 0.0;
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < q; ++j) {
        t.push_back(row[i] * col[j]);
        total_speed += 1.0 / t.back();
      }
    const Arrangement a = grid(p, q, t);
    const auto balanced = rank_one_shares(a);
    ASSERT_TRUE(balanced.has_value()) << instance;
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < q; ++j)
        EXPECT_NEAR(balanced->r[i] * a.t(i, j) * balanced->c[j], 1.0, 1e-12);  // all busy
    EXPECT_NEAR(w(a, *balanced), total_speed, 1e-12 * total_speed);
    EXPECT_NEAR(w(a, optimal_shares(a)), total_speed, 1e-9 * total_speed);
  }
  EXPECT_FALSE(rank_one_shares(grid(2, 2, {1.0, 2.0, 3.0, 5.0})).has_value());
  EXPECT_TRUE(rank_one_shares(grid(2, 2, {1.0, 2.0, 3.0, 6.0 + 1e-9}), 1e-6).has_value());
}

TEST(ExactGrid, OptimumBeatsRandomSharesAndCyclic) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> share(0.01, 1.0);
  for (int instance = 0; instance < 200; ++instance) {
    const Arrangement a = random_arrangement(rng, 1 + instance % 4, 1 + (instance / 4) % 4,
                                             instance % 5 == 0);
    const double best = w(a, optimal_shares(a));
    EXPECT_GE(best * (1 + 1e-12), cyclic_work_per_time(a)) << instance;
    for (int trial = 0; trial < 20; ++trial) {
      Shares random{std::vector<double>(a.rows), std::vector<double>(a.cols)};
      for (double& x : random.r) x = share(rng);
      for (double& x : random.c) x = share(rng);
      EXPECT_GE(best * (1 + 1e-12), w(a, random)) << instance;
    }
  }
}

/// Best W over every permutation of the processors on a p×q grid (no Theorem 1).
double best_over_all_permutations(const std::vector<double>& t, std::size_t p, std::size_t q) {
  std::vector<std::size_t> perm(t.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  double best = 0.0;
  do {
    std::vector<double> laid(t.size());
    for (std::size_t cell = 0; cell < t.size(); ++cell) laid[cell] = t[perm[cell]];
    const Arrangement a = grid(p, q, laid);
    best = std::max(best, w(a, optimal_shares_brute_force(a)));
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

TEST(ExactGrid, Theorem1NonDecreasingArrangementsSuffice) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> continuous(1.0, 10.0);
  for (int instance = 0; instance < 30; ++instance) {
    const std::size_t p = 2, q = instance % 2 ? 3 : 2;
    std::vector<double> t(p * q);
    for (double& x : t) x = instance % 3 == 0 ? std::round(continuous(rng) / 3) + 1 : continuous(rng);
    const double exhaustive = best_over_all_permutations(t, p, q);
    const auto best = best_grid_exact(t, p, q);
    EXPECT_GE(best.work_per_time * (1 + 1e-9), exhaustive) << instance;
    EXPECT_LE(best.work_per_time, exhaustive * (1 + 1e-9)) << instance;
  }
}

/// Comp(p, q) of Table 5 from the recurrence given in Appendix 7.2.
std::uint64_t comp(std::size_t p, std::size_t q) {
  std::function<std::uint64_t(std::size_t, std::size_t)> layers = [&](std::size_t a, std::size_t b) {
    if (b == 0) return std::uint64_t{1};
    std::uint64_t total = 0, binomial = 1;
    for (std::size_t i = 1; i <= a; ++i) {
      binomial = binomial * (a - i + 1) / i;
      total += binomial * layers(b, a - i);
    }
    return total;
  };
  return layers(q, p - 1);
}

TEST(ExactGrid, Table5BoundsTheTreesVisited) {
  const std::uint64_t table5[6][6] = {{1, 1, 1, 1, 1, 1},
                                      {1, 3, 7, 15, 31, 63},
                                      {1, 7, 31, 115, 391, 1267},
                                      {1, 15, 115, 675, 3451, 16275},
                                      {1, 31, 391, 3451, 25231, 164731},
                                      {1, 63, 1267, 16275, 164731, 1441923}};
  for (std::size_t p = 1; p <= 6; ++p)
    for (std::size_t q = 1; q <= 6; ++q) EXPECT_EQ(comp(p, q), table5[p - 1][q - 1]) << p << q;
  std::mt19937_64 rng(23);
  for (int instance = 0; instance < 100; ++instance) {
    const std::size_t p = 1 + instance % 4, q = 1 + (instance / 4) % 4;
    const auto found = search_spanning_trees(random_arrangement(rng, p, q, instance % 2 == 0));
    EXPECT_GE(found.acceptable_trees, 1u);
    EXPECT_LE(found.acceptable_trees, table5[p - 1][q - 1]) << p << "x" << q;
  }
  // All cycle-times equal: every constraint is tight and every layering is generated.
  EXPECT_EQ(search_spanning_trees(grid(3, 3, std::vector<double>(9, 2.0))).acceptable_trees,
            table5[2][2]);
}

// With generic cycle-times (no ties) every acceptable tree is built exactly once, whatever
// the arrangement: the search finds C(p+q-2, p-1) of them, the number of vertices of the
// tropical complex of p generic points in TP^(q-1) (Develin & Sturmfels 2004, Cor. 25).
// A tree missed or built twice changes this count.
TEST(ExactGrid, GenericInstancesBuildEachAcceptableTreeOnce) {
  std::mt19937_64 rng(29);
  for (std::size_t p = 1; p <= 5; ++p) {
    for (std::size_t q = 1; q <= 5; ++q) {
      std::uint64_t binomial = 1;  // C(p+q-2, p-1)
      for (std::size_t k = 1; k < p; ++k) binomial = binomial * (q - 1 + k) / k;
      for (int instance = 0; instance < 10; ++instance) {
        const auto found = search_spanning_trees(random_arrangement(rng, p, q, false));
        EXPECT_EQ(found.acceptable_trees, binomial) << p << "x" << q;
      }
    }
  }
}

TEST(ExactGrid, RefusesBadInput) {
  EXPECT_THROW(optimal_shares(grid(2, 2, {1.0, 2.0, 3.0})), InvalidArgument);
  EXPECT_THROW(optimal_shares(grid(1, 2, {1.0, -2.0})), InvalidArgument);
  EXPECT_THROW(optimal_shares(Arrangement{}), InvalidArgument);
  EXPECT_THROW(optimal_shares_2x2(grid(1, 4, {1.0, 2.0, 3.0, 4.0})), InvalidArgument);
  EXPECT_THROW(optimal_shares_brute_force(grid(3, 7, std::vector<double>(21, 1.0))),
               InvalidArgument);
  EXPECT_THROW(rank_one_shares(grid(1, 1, {1.0}), -1.0), InvalidArgument);
  EXPECT_THROW(best_grid_exact(kWorkstations, 2, 5), InvalidArgument);  // 10 > 9 processors
  EXPECT_THROW(best_grid_exact(kWorkstations, 0, 3), InvalidArgument);
  EXPECT_THROW(best_grid_exact({1.0, 0.0, 1.0, 1.0}, 2, 2), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
