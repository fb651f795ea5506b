#include "core/rebalancing/column_partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/common/error.hpp"
#include "core/rebalancing/block_layout.hpp"

namespace hetscal::core {
namespace {

using Groups = std::vector<std::vector<std::size_t>>;

// Every partition of 0..n-1 into non-empty groups, by restricted growth strings.
template <class Visit>
void for_each_set_partition(std::size_t n, Visit visit) {
  std::vector<std::size_t> label(n, 0);
  for (;;) {
    Groups groups;
    for (std::size_t i = 0; i < n; ++i) {
      if (label[i] == groups.size()) groups.emplace_back();
      groups[label[i]].push_back(i);
    }
    visit(groups);
    // Next string: rightmost position that may still grow (label <= max of those before).
    std::size_t i = n;
    for (; i-- > 1;) {
      const std::size_t max_before =
          *std::max_element(label.begin(), label.begin() + static_cast<std::ptrdiff_t>(i));
      if (label[i] <= max_before) {
        ++label[i];
        std::fill(label.begin() + static_cast<std::ptrdiff_t>(i) + 1, label.end(), 0);
        break;
      }
    }
    if (i == 0 || i > n) return;
  }
}

double grouping_cost(const Groups& groups, const std::vector<double>& s) {
  double cost = 0.0;
  for (const auto& g : groups) {
    double width = 0.0;
    for (std::size_t p : g) width += s[p];
    cost += column_cost(g.size(), width);
  }
  return cost;
}

std::vector<double> random_areas(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> draw(0.05, 1.0);
  std::vector<double> a(n);
  for (double& x : a) x = draw(rng);
  return a;
}

double geometric_cost(const ColumnPartition& partition) {
  double cost = 0.0;
  for (const auto& r : rectangles(partition)) cost += r.width + r.height;
  return cost;
}

TEST(ColumnPartition, SetPartitionEnumerationCountsBellNumbers) {
  const std::size_t bell[] = {1, 1, 2, 5, 15, 52, 203, 877, 4140};
  for (std::size_t n = 1; n <= 8; ++n) {
    std::size_t count = 0;
    for_each_set_partition(n, [&count](const Groups&) { ++count; });
    EXPECT_EQ(count, bell[n]) << n;
  }
}

TEST(ColumnPartition, DynamicProgramMatchesBruteForceOverAllGroupings) {
  std::mt19937 rng(20001);
  for (std::size_t n = 1; n <= 8; ++n) {
    for (int trial = 0; trial < 6; ++trial) {
      const std::vector<double> s = normalised_areas(random_areas(rng, n));
      double best = std::numeric_limits<double>::infinity();
      Groups best_groups;
      for_each_set_partition(n, [&](const Groups& g) {
        const double c = grouping_cost(g, s);
        if (c < best) best = c, best_groups = g;
      });
      const ColumnPartition dp = col_peri_sum(s);
      EXPECT_NEAR(dp.half_perimeter_sum, best, 1e-12) << "n=" << n << " trial=" << trial;
      EXPECT_NEAR(geometric_cost(dp), dp.half_perimeter_sum, 1e-12);

      // The claim behind the program: some best grouping of all (unsorted ones included)
      // takes consecutive processors in sorted order. Checked apart from the program, over
      // every way of cutting the sorted order. (Not every best grouping is consecutive:
      // columns of equal counts cost the same however the areas are shared out.)
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(),
                [&s](std::size_t a, std::size_t b) { return s[a] < s[b]; });
      double best_consecutive = std::numeric_limits<double>::infinity();
      for (std::size_t cuts = 0; cuts < (std::size_t{1} << (n - 1)); ++cuts) {
        Groups g(1);
        for (std::size_t r = 0; r < n; ++r) {
          if (r > 0 && (cuts >> (r - 1) & 1u)) g.emplace_back();
          g.back().push_back(order[r]);
        }
        best_consecutive = std::min(best_consecutive, grouping_cost(g, s));
      }
      EXPECT_NEAR(best_consecutive, best, 1e-12) << "n=" << n << " trial=" << trial;
    }
  }
}

TEST(ColumnPartition, CostIsAtLeastTheSumOfSquarePerimeters) {
  std::mt19937 rng(7);
  for (std::size_t n = 1; n <= 40; ++n) {
    const std::vector<double> s = normalised_areas(random_areas(rng, n));
    double bound = 0.0;
    for (double x : s) bound += 2.0 * std::sqrt(x);
    EXPECT_LE(bound, col_peri_sum(s).half_perimeter_sum + 1e-12) << n;
  }
}

TEST(ColumnPartition, EqualAreasGiveSquareGrids) {
  const ColumnPartition four = col_peri_sum({1, 1, 1, 1});
  EXPECT_EQ(four.columns.size(), 2u);
  EXPECT_DOUBLE_EQ(four.half_perimeter_sum, 4.0);  // 2·(2·0.5 + 1); one or four columns: 5
  const ColumnPartition nine = col_peri_sum(std::vector<double>(9, 3.0));
  EXPECT_EQ(nine.columns.size(), 3u);
  EXPECT_NEAR(nine.half_perimeter_sum, 6.0, 1e-12);
  EXPECT_DOUBLE_EQ(col_peri_sum({5.0}).half_perimeter_sum, 2.0);
}

TEST(ColumnPartition, RectanglesTileTheUnitSquare) {
  std::mt19937 rng(99);
  const std::vector<double> s = normalised_areas(random_areas(rng, 13));
  const auto rects = rectangles(col_peri_sum(s));
  double total = 0.0;
  for (std::size_t p = 0; p < rects.size(); ++p) {
    const auto& r = rects[p];
    EXPECT_EQ(r.processor, p);
    EXPECT_NEAR(r.width * r.height, s[p], 1e-14);
    EXPECT_LE(r.x + r.width, 1.0 + 1e-12);
    EXPECT_LE(r.y + r.height, 1.0 + 1e-12);
    total += r.width * r.height;
    for (std::size_t q = 0; q < p; ++q) {
      const auto& o = rects[q];
      const double dx = std::min(r.x + r.width, o.x + o.width) - std::max(r.x, o.x);
      const double dy = std::min(r.y + r.height, o.y + o.height) - std::max(r.y, o.y);
      EXPECT_FALSE(dx > 1e-12 && dy > 1e-12) << p << " overlaps " << q;
    }
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(ColumnPartition, RefusesBadAreasAndGroupings) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(col_peri_sum({}), InvalidArgument);
  for (double bad : {0.0, -0.5, nan, inf})
    EXPECT_THROW(col_peri_sum({0.5, bad}), InvalidArgument) << bad;
  EXPECT_THROW(partition_with_columns({{0}, {}}, {1, 1}), InvalidArgument);
  EXPECT_THROW(partition_with_columns({{0, 0}}, {1, 1}), InvalidArgument);
  EXPECT_THROW(partition_with_columns({{0, 2}}, {1, 1}), InvalidArgument);
  EXPECT_THROW(partition_with_columns({{0}}, {1, 1}), InvalidArgument);
  EXPECT_NO_THROW(partition_with_columns({{1}, {0}}, {1, 1}));
}

TEST(BlockLayout, DiscretisedLayoutStaysCloseToTheAreas) {
  std::mt19937 rng(4242);
  for (std::size_t n : {1u, 2u, 5u, 9u, 17u}) {
    const std::vector<double> s = normalised_areas(random_areas(rng, n));
    const ColumnPartition partition = col_peri_sum(s);
    const std::size_t blocks = 64;
    const BlockLayout layout = discretise(partition, blocks);
    EXPECT_NO_THROW(require_valid(layout));
    const auto loads = block_loads(layout);
    const auto exact = rectangles(partition);
    std::size_t total = 0;
    for (std::size_t p = 0; p < n; ++p) {
      // Width and height are each within one block of exact (or raised to 1).
      const double w = exact[p].width * blocks, h = exact[p].height * blocks;
      EXPECT_LE(std::abs(static_cast<double>(loads[p]) - w * h), w + h + 1.0)
          << "n=" << n << " p=" << p;
      total += loads[p];
    }
    EXPECT_EQ(total, blocks * blocks);
    EXPECT_EQ(blocks_changing_owner(layout, layout), 0u);
  }
}

TEST(BlockLayout, RefusesTooFewBlocks) {
  const ColumnPartition nine = col_peri_sum(std::vector<double>(9, 1.0));  // 3 columns of 3
  EXPECT_THROW(discretise(nine, 2), InvalidArgument);
  EXPECT_NO_THROW(discretise(nine, 3));
  BlockLayout bad = discretise(nine, 6);
  bad.columns[0].heights[0] += 1;
  EXPECT_THROW(require_valid(bad), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
