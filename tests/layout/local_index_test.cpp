// Local row and column indices are their own types: a global index (a plain integer) cannot
// become one, nor one become the other, without saying so.
#include "layout/local_index.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace hetscal::layout {
namespace {

static_assert(!std::is_convertible_v<std::int64_t, LocalRow>, "no implicit global -> local");
static_assert(!std::is_convertible_v<LocalRow, std::int64_t>, "no implicit local -> global");
static_assert(!std::is_convertible_v<LocalRow, LocalCol>, "a row is not a column");
static_assert(!std::is_constructible_v<LocalCol, LocalRow>, "a row is not a column");
static_assert(std::is_constructible_v<LocalRow, std::int64_t>, "explicit construction");
static_assert(std::is_same_v<decltype(LocalRow(3) - LocalRow(1)), std::int64_t>,
              "the distance between two rows is a count");
static_assert(std::is_same_v<decltype(LocalRow(3) + std::int64_t{1}), LocalRow>,
              "a row moved by a count stays a row");

TEST(LocalIndex, MovesByCountsAndMeasuresDistances) {
  const LocalRow base(4);
  const LocalRow end = base + 6;
  EXPECT_EQ(end.value(), 10);
  EXPECT_EQ(end - base, 6);
  EXPECT_EQ((end - 6), base);
  EXPECT_LT(base, end);
  EXPECT_GE(end, base);
  EXPECT_NE(base, end);
}

TEST(LocalIndex, OffsetIsColumnMajor) {
  EXPECT_EQ(local_offset(LocalRow(2), LocalCol(3), 10), 32);
  EXPECT_EQ(local_offset(LocalRow(0), LocalCol(0), 1), 0);
}

}  // namespace
}  // namespace hetscal::layout
