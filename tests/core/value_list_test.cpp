#include "core/common/value_list.hpp"

#include <gtest/gtest.h>

namespace hetscal::core {
namespace {

using List = std::vector<std::string>;

TEST(ValueList, CommasBlanksAndNewlinesSeparate) {
  EXPECT_EQ(split_value_list("1,2 3\t4\n5,,  6"), (List{"1", "2", "3", "4", "5", "6"}));
}

TEST(ValueList, CommentsRunToTheEndOfTheirLine) {
  EXPECT_EQ(split_value_list("# header\n1 # fast\n2#slow\n# 3\n4"), (List{"1", "2", "4"}));
}

TEST(ValueList, EntriesKeepTheirText) {
  EXPECT_EQ(split_value_list("nodeA=2, nodeB=0.5 nan"), (List{"nodeA=2", "nodeB=0.5", "nan"}));
}

TEST(ValueList, NothingButSeparatorsAndCommentsIsEmpty) {
  EXPECT_TRUE(split_value_list("").empty());
  EXPECT_TRUE(split_value_list(" ,\n# only a comment").empty());
}

TEST(ValueList, LowercaseIsAscii) { EXPECT_EQ(ascii_lowercase("Cycle-Times:"), "cycle-times:"); }

}  // namespace
}  // namespace hetscal::core
