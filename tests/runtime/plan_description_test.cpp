// The lines the runtime prints about a plan (runtime/plan_description.hpp): rank lists and the
// line that names the ranks a plan leaves idle (issue 30).
#include "runtime/plan_description.hpp"

#include <gtest/gtest.h>

namespace hetscal::runtime {
namespace {

TEST(PlanDescription, RankListsRunsAsRanges) {
  EXPECT_EQ(rank_list_text({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(rank_list_text({0, 2, 3, 7}), "0,2-3,7");
  EXPECT_EQ(rank_list_text({5}), "5");
  EXPECT_EQ(ranks_text({0, 2, 3}, 6), "0,2-3 of 6");
}

TEST(IdleRanks, NoneWhenThePlanUsesEveryRank) {
  EXPECT_TRUE(idle_ranks("PDGEMM 8x8x8", {1, 0}, {1.0, 3.0}).text.empty());
}

TEST(IdleRanks, NamesTheIdleRanksTheirSpeedsAndWhy) {
  const IdleRanks one = idle_ranks("PDGEMM 800x800x800", {0}, {1e6, 1.0});
  EXPECT_TRUE(one.slower_than_planned);
  EXPECT_EQ(one.text,
            "PDGEMM 800x800x800 is planned on rank 0 of 2 and leaves rank 1 idle: its speed 1 is 1e-06 of the "
            "fastest planned rank's (1e+06), and the time model predicts the call faster without it (printed "
            "once; HETSCAL_VERBOSE=1 prints every plan)");
  const IdleRanks several = idle_ranks("PDGETRF 600x600", {3, 0}, {4.0, 1.0, 2.0, 4.0, 1.0});
  EXPECT_TRUE(several.slower_than_planned);
  EXPECT_NE(several.text.find("planned on ranks 0,3 of 5 and leaves ranks 1-2,4 idle: their speeds 1 to 2 are "
                              "0.25 to 0.5 of the fastest planned rank's (4)"),
            std::string::npos)
      << several.text;
}

TEST(IdleRanks, SaysWhenASpeedRatioUnderflows) {
  const IdleRanks extreme = idle_ranks("PDGETRF 600x600", {0}, {1e300, 1e-300});
  EXPECT_NE(extreme.text.find("its speed 1e-300 is less than 2.23e-308 of"), std::string::npos) << extreme.text;
}

TEST(IdleRanks, ASmallCallOnAFewEqualRanksIsNotASpeedProblem) {
  // The plan uses one of two equal ranks: the call's size, not the speeds, left one idle.
  EXPECT_FALSE(idle_ranks("PDGETRF 64x64", {0}, {2.0, 2.0}).slower_than_planned);
  EXPECT_FALSE(idle_ranks("PDGETRF 64x64", {0, 1}, {2.0, 1.0, 2.0}).slower_than_planned)
      << "idle rank 2 is faster than planned rank 1";
}

}  // namespace
}  // namespace hetscal::runtime
