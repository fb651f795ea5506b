// The minimal-move assignment of tile lines to grid rows or columns (issue 28, item 1).
#include "core/rebalancing/kept_lines.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

TEST(KeptLines, PlannedCountsFollowTheWeights) {
  EXPECT_EQ(planned_line_counts(8, {3.0, 1.0}), (std::vector<std::int64_t>{6, 2}));
  EXPECT_EQ(planned_line_counts(47, {3.0, 1.0}), (std::vector<std::int64_t>{35, 12}));
  EXPECT_EQ(planned_line_counts(5, {1.0, 1.0, 1.0}), (std::vector<std::int64_t>{2, 2, 1}));
  EXPECT_EQ(planned_line_counts(0, {1.0, 2.0}), (std::vector<std::int64_t>{0, 0}));
}

TEST(KeptLines, ACyclicLayoutGivesOnlyTheSurplus) {
  // Block-cyclic columns over 2 grid columns, planned 6:2: two of group 1's four lines move.
  const std::vector<int> held{0, 1, 0, 1, 0, 1, 0, 1};
  const std::vector<int> kept = keep_most_lines(held, {6, 2});
  EXPECT_EQ(kept, (std::vector<int>{0, 1, 0, 1, 0, 0, 0, 0}));
  std::size_t moved = 0;
  for (std::size_t l = 0; l < held.size(); ++l) moved += held[l] != kept[l];
  EXPECT_EQ(moved, 2u);  // sum over groups of max(0, held - planned) = 4 - 2
}

TEST(KeptLines, SpreadKeepsEveryOtherLineOfAHalvedGroup) {
  // The same columns, planned 6:2: group 1 keeps lines 3 and 7 (every other of its four), so
  // that the trailing columns from any line on hold about its quarter.
  const std::vector<int> held{0, 1, 0, 1, 0, 1, 0, 1};
  EXPECT_EQ(keep_most_lines(held, {6, 2}, KeptLines::Spread), (std::vector<int>{0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST(KeptLines, SpreadDealsMovedLinesInProportionToTheShortfalls) {
  // Group 0 gives 6 of its 8 lines; group 1 is short of 2, group 2 of 4: they receive them
  // interleaved (2 then 1 then 2 ...), not group 1's first.
  const std::vector<int> held{0, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<int> kept = keep_most_lines(held, {2, 2, 4}, KeptLines::Spread);
  EXPECT_EQ(kept, (std::vector<int>{2, 1, 2, 0, 2, 1, 2, 0}));
}

class KeptLinesFewest : public ::testing::TestWithParam<KeptLines> {};

TEST_P(KeptLinesFewest, MovesAreTheFewestPossible) {
  const std::vector<int> held{2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
  const std::vector<std::int64_t> planned{5, 1, 4};
  const std::vector<int> kept = keep_most_lines(held, planned, GetParam());
  std::vector<std::int64_t> count(3, 0), had(3, 0);
  std::size_t moved = 0;
  for (std::size_t l = 0; l < held.size(); ++l) {
    ++count[static_cast<std::size_t>(kept[l])];
    ++had[static_cast<std::size_t>(held[l])];
    moved += held[l] != kept[l];
  }
  EXPECT_EQ(count, planned);
  std::int64_t least = 0;
  for (std::size_t g = 0; g < 3; ++g) least += std::max<std::int64_t>(0, had[g] - planned[g]);
  EXPECT_EQ(static_cast<std::int64_t>(moved), least);
}

INSTANTIATE_TEST_SUITE_P(BothChoices, KeptLinesFewest, ::testing::Values(KeptLines::Leading, KeptLines::Spread));

TEST(KeptLines, RefusesCountsThatDoNotMatch) {
  EXPECT_THROW(keep_most_lines({0, 1}, {1, 2}), InvalidArgument);
  EXPECT_THROW(keep_most_lines({0, 3}, {1, 1}), InvalidArgument);
  EXPECT_THROW(keep_most_lines({0, 3}, {1, 1}, KeptLines::Spread), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
