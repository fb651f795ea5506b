// The candidate generator's work stays bounded whatever the speeds: heterogeneous patterns,
// whose cells grow with the speed ratio, are built only while their cells together stay
// within CandidateOptions::max_pattern_cells; and prediction_cost lets a caller see what
// pricing will cost before it starts.
#include <gtest/gtest.h>

#include <string>

#include "core/planners/model_candidates.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {
namespace {

Platform processors_of(const std::vector<double>& flops) {
  Platform p;
  for (double f : flops) p.processors.push_back({f, 1e12});
  p.network = {1e-4, 12.5e6, NetworkKind::SharedBus, {}};
  return p;
}

// The largest k whose "hetpattern k" candidate was generated (0 if none).
std::size_t largest_pattern_generated(const std::vector<Candidate>& candidates) {
  std::size_t largest = 0;
  for (const Candidate& c : candidates)
    if (c.label.rfind("hetpattern ", 0) == 0) largest = std::max<std::size_t>(largest, std::stoul(c.label.substr(11)));
  return largest;
}

CandidateOptions patterns_only() {
  CandidateOptions options;
  options.families = {CandidateFamily::HeterogeneousPattern};
  options.tile_sizes = {64};
  return options;
}

// Equal speeds: the pattern on k processors needs 4k cells, those on 2..k together
// 2k(k+1) − 4; the largest k with 2k(k+1) − 4 <= 65536 is 180 (181 gives 65880).
TEST(CandidateBounds, EqualSpeedsBuildPatternsWhileTheirCellsFit) {
  const Platform platform = processors_of(std::vector<double>(200, 1e9));
  const Problem problem{Routine::Gemm, 512, CallerLayout{10, 20, 64, {}}};
  EXPECT_EQ(largest_hetero_pattern_count(platform, patterns_only()), 180u);
  EXPECT_EQ(largest_pattern_generated(generate_candidates(platform, problem, patterns_only())), 180u);
}

// A speed ratio of 1e6: the pattern on the two needs 4·(1 + 1e6) cells; it is left out
// (it took 30 s to build and price), and the other candidates remain.
TEST(CandidateBounds, HugeSpeedRatioLeavesThePatternOut) {
  const Platform platform = processors_of({1e15, 1e9});
  const Problem problem{Routine::Gemm, 512, CallerLayout{1, 2, 64, {}}};
  EXPECT_EQ(largest_hetero_pattern_count(platform, CandidateOptions{}), 1u);
  const auto candidates = generate_candidates(platform, problem);
  EXPECT_EQ(largest_pattern_generated(candidates), 0u);
  EXPECT_FALSE(candidates.empty());
}

// Pricing a step visits the owner table: twice the steps (N), about twice the work, and
// an owner table four times larger, more than twice the work at the same N.
TEST(CandidateBounds, PredictionCostGrowsWithStepsAndCells) {
  const Problem small{Routine::LU, 4096, CallerLayout{2, 2, 64, {}}};
  Problem twice = small;
  twice.n = 2 * small.n;
  const Candidate grid = cartesian_candidate("2x2", 32, 2, 2, {0, 1, 2, 3}, {1, 1}, {1, 1});
  const Candidate wide = cartesian_candidate("4x4", 32, 4, 4, std::vector<std::size_t>(16, 0),
                                             std::vector<double>(4, 1.0), std::vector<double>(4, 1.0));
  const double base = prediction_cost(small, grid, 4).operations;
  EXPECT_NEAR(prediction_cost(twice, grid, 4).operations / base, 2.0, 0.05);
  EXPECT_GT(prediction_cost(small, wide, 4).operations, 2.0 * base);
  EXPECT_GT(prediction_cost(twice, grid, 4).peak_bytes, prediction_cost(small, grid, 4).peak_bytes);
}

}  // namespace
}  // namespace hetscal::core
