#include "core/grids/allocation_1d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

const std::vector<double> kToy = {3.0, 5.0, 8.0};  // the paper's running example (§2.3)

double makespan(const std::vector<double>& t, const std::vector<std::int64_t>& c) {
  double slowest = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) slowest = std::max(slowest, t[k] * static_cast<double>(c[k]));
  return slowest;
}

/// Smallest max_k c_k·t_k over every composition of `chunks` into t.size() parts.
double brute_force_makespan(const std::vector<double>& t, std::int64_t chunks) {
  std::vector<std::int64_t> c(t.size(), 0);
  double best = std::numeric_limits<double>::infinity();
  std::function<void(std::size_t, std::int64_t)> place = [&](std::size_t k, std::int64_t left) {
    if (k + 1 == t.size()) {
      c[k] = left;
      best = std::min(best, makespan(t, c));
      return;
    }
    for (std::int64_t n = 0; n <= left; ++n) {
      c[k] = n;
      place(k + 1, left - n);
    }
  };
  place(0, chunks);
  return best;
}

TEST(Allocation1D, Algorithm231ToyExample) {
  EXPECT_EQ(optimal_allocation(kToy, 10), (std::vector<std::int64_t>{5, 3, 2}));
}

TEST(Allocation1D, Table1EveryRow) {
  struct Row {
    std::vector<std::int64_t> counts;
    double printed_cost;  // NaN: blank in the paper
    std::size_t selected;  // 0-based; kNoSelection: blank in the paper
  };
  const double blank = std::nan("");
  // Table 1, processors renumbered from 0.
  const std::vector<Row> table = {
      {{0, 0, 0}, blank, 0}, {{1, 0, 0}, 3.0, 1},   {{1, 1, 0}, 2.5, 0},
      {{2, 1, 0}, 2.0, 2},   {{2, 1, 1}, 2.0, 0},   {{3, 1, 1}, 1.8, 1},
      {{3, 2, 1}, 1.67, 0},  {{4, 2, 1}, 1.71, 0},  {{5, 2, 1}, 1.87, 1},
      {{5, 3, 1}, 1.67, 2},  {{5, 3, 2}, 1.6, kNoSelection}};
  const auto rows = incremental_allocation(kToy, 10);
  ASSERT_EQ(rows.size(), table.size());
  for (std::size_t m = 0; m < rows.size(); ++m) {
    SCOPED_TRACE("row for " + std::to_string(m) + " chunks");
    EXPECT_EQ(rows[m].chunks, static_cast<std::int64_t>(m));
    EXPECT_EQ(rows[m].counts, table[m].counts);
    EXPECT_EQ(rows[m].selected, table[m].selected);
    if (std::isnan(table[m].printed_cost)) {
      EXPECT_TRUE(std::isnan(rows[m].average_cost));
    } else {
      // Printed to 2 decimals; 0.0051 also admits the truncated 15/8 = 1.875 -> "1.87".
      EXPECT_NEAR(rows[m].average_cost, table[m].printed_cost, 0.0051);
    }
  }
  // Row 8: the definition gives 15/8 = 1.875, which rounds to 1.88; the paper prints 1.87
  // (truncated). The definition wins.
  EXPECT_DOUBLE_EQ(rows[8].average_cost, 15.0 / 8.0);
  // Row 7 is the tie of Table 1: P1 -> 3·5 = 15 and P2 -> 5·3 = 15; P1 is selected.
  EXPECT_DOUBLE_EQ(kToy[0] * 5, kToy[1] * 3);
}

TEST(Allocation1D, Table2AndItsReversedReading) {
  // Table 2 (chunk 1…10, 1-based processors): 1 2 1 3 1 2 1 1 2 3 = the selections of
  // Table 1; the text reads it from right to left: (3,2,1,1,2,1,3,1,2,1).
  const auto rows = incremental_allocation(kToy, 10);
  std::vector<std::size_t> selections;
  for (std::size_t m = 0; m + 1 < rows.size(); ++m) selections.push_back(rows[m].selected);
  EXPECT_EQ(selections, (std::vector<std::size_t>{0, 1, 0, 2, 0, 1, 0, 0, 1, 2}));
  EXPECT_EQ(lu_slice_order(kToy, 10), (std::vector<std::size_t>{2, 1, 0, 0, 1, 0, 2, 0, 1, 0}));
}

TEST(Allocation1D, PanelColumnOrderingABAABA) {
  // §3.2.2: grid column A ~ cycle-time 3/20, grid column B ~ 5/17, 4 and 2 panel columns.
  EXPECT_EQ(lu_order_with_counts({3.0 / 20.0, 5.0 / 17.0}, {4, 2}),
            (std::vector<std::size_t>{0, 1, 0, 0, 1, 0}));
}

TEST(Allocation1D, OrderWithCountsHonoursCounts) {
  const std::vector<std::int64_t> counts = {1, 0, 5, 2};
  const auto order = lu_order_with_counts({1.0, 2.0, 3.0, 0.5}, counts);
  ASSERT_EQ(order.size(), 8u);
  for (std::size_t k = 0; k < counts.size(); ++k)
    EXPECT_EQ(std::count(order.begin(), order.end(), k), counts[k]) << k;
  // Without binding caps the ordering equals the plain slice ordering.
  EXPECT_EQ(lu_order_with_counts(kToy, {5, 3, 2}), lu_slice_order(kToy, 10));
}

TEST(Allocation1D, SliceOrderCountsAreOptimal) {
  const auto order = lu_slice_order(kToy, 10);
  std::vector<std::int64_t> counts(3, 0);
  for (std::size_t k : order) ++counts[k];
  EXPECT_EQ(counts, optimal_allocation(kToy, 10));
}

TEST(Allocation1D, RandomAgainstBruteForce) {
  std::mt19937_64 rng(20260101);
  std::uniform_real_distribution<double> time(0.5, 10.0);
  std::uniform_int_distribution<int> integer_time(1, 6);  // ties are frequent
  for (int instance = 0; instance < 300; ++instance) {
    const std::size_t p = 1 + instance % 4;
    std::vector<double> t(p);
    for (double& x : t) x = instance % 2 ? time(rng) : integer_time(rng);
    const std::int64_t chunks = instance % 11;
    SCOPED_TRACE("instance " + std::to_string(instance));
    const auto c = optimal_allocation(t, chunks);
    EXPECT_EQ(std::accumulate(c.begin(), c.end(), std::int64_t{0}), chunks);
    EXPECT_DOUBLE_EQ(makespan(t, c), brute_force_makespan(t, chunks));
    // Every row of the incremental allocation is optimal too (it takes the m smallest of
    // the values t_k·j).
    for (const auto& row : incremental_allocation(t, chunks))
      EXPECT_DOUBLE_EQ(makespan(t, row.counts), brute_force_makespan(t, row.chunks));
  }
}

// The orders hand out chunks from a heap; incremental_allocation scans every processor per
// chunk (Table 1's reading of §2.3.2). Both must select the same processor every time, ties
// included (lowest index among equal costs).
TEST(Allocation1D, SliceOrderIsTheIncrementalSelectionReversed) {
  std::mt19937_64 rng(20261127);
  std::uniform_int_distribution<int> integer_time(1, 5);  // many ties
  std::uniform_real_distribution<double> time(0.5, 10.0);
  for (int instance = 0; instance < 60; ++instance) {
    std::vector<double> t(1 + static_cast<std::size_t>(instance) % 40);
    for (double& x : t) x = instance % 2 ? time(rng) : integer_time(rng);
    const std::int64_t chunks = 3 * instance;
    std::vector<std::size_t> selected;
    for (const auto& row : incremental_allocation(t, chunks))
      if (row.selected != kNoSelection) selected.push_back(row.selected);
    std::reverse(selected.begin(), selected.end());
    EXPECT_EQ(lu_slice_order(t, chunks), selected) << "instance " << instance;
  }
}

// The greedy over the processors still below their cap, by a scan of them all per chunk,
// reversed: what lu_order_with_counts returns.
std::vector<std::size_t> scanned_order(const std::vector<double>& t, const std::vector<std::int64_t>& caps) {
  std::vector<std::int64_t> held(t.size(), 0);
  std::vector<std::size_t> order;
  const std::int64_t length = std::accumulate(caps.begin(), caps.end(), std::int64_t{0});
  for (std::int64_t m = 0; m < length; ++m) {
    std::size_t best = t.size();
    for (std::size_t k = 0; k < t.size(); ++k)
      if (held[k] < caps[k] && (best == t.size() || t[k] * double(held[k] + 1) < t[best] * double(held[best] + 1)))
        best = k;
    ++held[best];
    order.push_back(best);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// With caps: the same greedy over the processors still below their count, checked against a
// scan written out here.
TEST(Allocation1D, OrderWithCountsMatchesAScanOfTheCappedProcessors) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> integer_time(1, 4), count(0, 6);
  for (int instance = 0; instance < 40; ++instance) {
    std::vector<double> t(1 + static_cast<std::size_t>(instance) % 12);
    std::vector<std::int64_t> caps(t.size());
    for (std::size_t k = 0; k < t.size(); ++k) t[k] = integer_time(rng), caps[k] = count(rng);
    EXPECT_EQ(lu_order_with_counts(t, caps), scanned_order(t, caps)) << "instance " << instance;
  }
}

// The planners' platforms: hundreds of processors of a few speeds, so most choices are ties
// between equals, over thousands of tiles with counts a few apart. The greedy serves equals
// in passes; the order is still the scan's, processor by processor.
TEST(Allocation1D, OrderWithCountsOfManyEqualProcessorsMatchesTheScan) {
  std::mt19937_64 rng(32);
  std::uniform_int_distribution<int> speed_class(0, 2), count(0, 9);
  for (int instance = 0; instance < 6; ++instance) {
    std::vector<double> t(90 + 70 * static_cast<std::size_t>(instance));
    std::vector<std::int64_t> caps(t.size());
    for (std::size_t k = 0; k < t.size(); ++k) {
      t[k] = instance % 2 ? 1.0 / (1 << speed_class(rng)) : 1.0 / (1.0 + speed_class(rng));
      caps[k] = 3 * count(rng) / (1 + static_cast<int>(k % 3)) + (instance == 5 ? 0 : 1);
    }
    EXPECT_EQ(lu_order_with_counts(t, caps), scanned_order(t, caps)) << "instance " << instance;
  }
}

TEST(Allocation1D, LargeChunkCounts) {
  const auto c = optimal_allocation({1.0, 3.0}, 4'000'000'000);
  EXPECT_EQ(c, (std::vector<std::int64_t>{3'000'000'000, 1'000'000'000}));
}

TEST(Allocation1D, RefusesBadInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double bad : {0.0, -2.0, nan, std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(optimal_allocation({1.0, bad}, 3), InvalidArgument);
    EXPECT_THROW(incremental_allocation({bad}, 3), InvalidArgument);
    EXPECT_THROW(lu_slice_order({bad, 1.0}, 3), InvalidArgument);
    EXPECT_THROW(lu_order_with_counts({bad, 1.0}, {1, 1}), InvalidArgument);
  }
  EXPECT_THROW(optimal_allocation({}, 3), InvalidArgument);
  EXPECT_THROW(optimal_allocation({1.0}, -1), InvalidArgument);
  EXPECT_THROW(incremental_allocation({1.0}, -1), InvalidArgument);
  EXPECT_THROW(lu_slice_order({1.0}, -1), InvalidArgument);
  EXPECT_THROW(lu_order_with_counts({1.0, 2.0}, {1}), InvalidArgument);
  EXPECT_THROW(lu_order_with_counts({1.0, 2.0}, {1, -1}), InvalidArgument);
}

TEST(Allocation1D, ZeroChunks) {
  EXPECT_EQ(optimal_allocation(kToy, 0), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_TRUE(lu_slice_order(kToy, 0).empty());
  const auto rows = incremental_allocation(kToy, 0);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].selected, kNoSelection);
}

}  // namespace
}  // namespace hetscal::core
