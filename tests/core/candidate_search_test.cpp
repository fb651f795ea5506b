// The scalable search of the planners (core/planners/candidate_search.hpp): speed classes and the
// process counts they give, the lower bound that prunes (a pruned candidate could not have
// won), the split over pricers (every pricer ends with the same plan whatever its slice),
// and bad input refused.
#include "core/planners/candidate_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/common/error.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "core/planners/lu_plan.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/step_sampling.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

/// Speeds 4, 2, 1 in turn (×1e9) on `count` processors.
std::vector<double> three_generations(std::size_t count) {
  std::vector<double> speeds;
  for (std::size_t x = 0; x < count; ++x) speeds.push_back(4.0e9 / static_cast<double>(1u << (x % 3)));
  return speeds;
}

TEST(SpeedClasses, GroupEqualSpeedsFastestFirst) {
  const auto classes = speed_classes(planner_platform(three_generations(10)));
  ASSERT_EQ(classes.size(), 3u);
  EXPECT_EQ(classes[0].speed_flops, 4.0e9);
  EXPECT_EQ(classes[0].count, 4u);
  EXPECT_EQ(classes[1].speed_flops, 2.0e9);
  EXPECT_EQ(classes[1].count, 3u);
  EXPECT_EQ(classes[2].speed_flops, 1.0e9);
  EXPECT_EQ(classes[2].count, 3u);
}

TEST(SpeedClasses, ProcessCountsAreTheClassBoundariesNotEveryCount) {
  const Platform platform = planner_platform(three_generations(1024));
  const auto counts = searched_process_counts(platform, 0, false);
  // Class boundaries 342 (speed 4), 683 (4 and 2), 1024 (all), each with its near-square count.
  for (std::size_t k : {342u, 683u, 682u, 1024u}) EXPECT_NE(std::find(counts.begin(), counts.end(), k), counts.end()) << k;
  EXPECT_LT(counts.size(), 128u);  // a geometric ladder, not every k
  EXPECT_TRUE(std::is_sorted(counts.begin(), counts.end()));
  EXPECT_EQ(counts.back(), 1024u);
  EXPECT_EQ(searched_process_counts(platform, 0, true).size(), 1024u);
  // max_processors bounds every count.
  for (std::size_t k : searched_process_counts(platform, 100, false)) EXPECT_LE(k, 100u);
}

TEST(SpeedClasses, EqualSpeedsGiveAGeometricLadder) {
  const auto counts = searched_process_counts(planner_platform(std::vector<double>(16384, 1.0e9)), 0, false);
  EXPECT_EQ(counts.front(), 1u);
  EXPECT_EQ(counts.back(), 16384u);
  EXPECT_LT(counts.size(), 200u);
  // Consecutive rungs at most kCountLadderRatio apart (near-square counts fill in below them).
  for (std::size_t i = 1; i < counts.size(); ++i) {
    const auto previous = static_cast<double>(counts[i - 1]);
    EXPECT_LE(static_cast<double>(counts[i]), kCountLadderRatio * previous + 1.0) << counts[i - 1] << " then " << counts[i];
  }
}

TEST(SpeedClasses, EveryProcessorItsOwnSpeedKeepsTheLargestDrops) {
  std::vector<double> speeds;
  for (std::size_t x = 0; x < 200; ++x) speeds.push_back(1.0e9 + 1.0e6 * static_cast<double>(x));
  speeds[7] = 1.0e7;  // by far the largest drop: the fastest 199 are a boundary
  const auto counts = searched_process_counts(planner_platform(speeds), 0, false);
  EXPECT_NE(std::find(counts.begin(), counts.end(), 199u), counts.end());
  EXPECT_LT(counts.size(), 100u);  // not all 200
}

TEST(NearSquareCount, LargestCountWithAGridOfAspectAtMostTwo) {
  EXPECT_EQ(near_square_count(1), 1u);
  EXPECT_EQ(near_square_count(2), 2u);   // 1x2
  EXPECT_EQ(near_square_count(3), 2u);   // 1x3 is too flat
  EXPECT_EQ(near_square_count(7), 6u);   // 2x3
  EXPECT_EQ(near_square_count(12), 12u); // 3x4
  EXPECT_EQ(near_square_count(683), 682u);  // prime: 22x31
}

/// A random platform of 5 to 48 processors: two to four node generations, or every
/// processor its own speed; shared or switched network; and a random order N from 1,000 to
/// 6,000 (below, a matrix of a few tiles per processor is better left to ScaLAPACK: the
/// predicted time of such a toy problem jumps from one count to the next).
struct RandomCase {
  Platform platform;
  std::int64_t n = 0;
};

RandomCase random_case(unsigned seed) {
  std::uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  const auto next = [&state](double low, double high) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return low + (high - low) * static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  const auto processors = static_cast<std::size_t>(next(5.0, 49.0));
  const bool generations = seed % 3 != 0;
  const auto classes = static_cast<std::size_t>(next(2.0, 5.0));
  std::vector<double> class_speed;
  for (std::size_t c = 0; c < classes; ++c) class_speed.push_back(next(0.2e9, 4.0e9));
  std::vector<double> speeds;
  for (std::size_t x = 0; x < processors; ++x)
    speeds.push_back(generations ? class_speed[static_cast<std::size_t>(next(0.0, static_cast<double>(classes)))]
                                 : next(0.2e9, 4.0e9));
  RandomCase c;
  c.platform = planner_platform(speeds, next(1.0e8, 1.0e10), seed % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
  c.n = static_cast<std::int64_t>(next(1000.0, 6000.0));
  return c;
}

/// The squarest caller grid p×q = P, ranks row-major.
CallerLayout squarest_caller(std::size_t processors) {
  std::size_t p = 1;
  for (std::size_t r = 1; r * r <= processors; ++r)
    if (processors % r == 0) p = r;
  return caller_grid(p, processors / p);
}

/// Every candidate the default search left unpriced, priced: none beats the choice (a
/// pruned candidate could not have won), and the bound holds for every priced one.
template <typename Kind>
void expect_pruned_could_not_win(const Platform& platform, const Problem& problem, const PlanChoice<Kind>& choice) {
  for (const auto& c : choice.priced) {
    const Candidate candidate = built_candidate(c);  // a pruned grid is left a sketch
    const Prediction p = predict(platform, problem, candidate);
    const double bound = compute_lower_bound(platform, problem, candidate);
    EXPECT_LE(bound, p.total_s() * (1.0 + 1e-12)) << candidate.label;
    // What the search tests before the steps: the bound and the moves together.
    const double moves = predict_data(platform, problem, candidate).time.redistribution;
    EXPECT_LE(bound + moves, p.total_s() * (1.0 + 1e-12)) << candidate.label;
    EXPECT_LE(step_time_lower_bound(platform, problem, candidate) + moves, p.total_s() * (1.0 + 1e-12))
        << candidate.label;
    if (!c.priced && p.fits_memory()) {
      EXPECT_GE(p.total_s(), choice.predicted_s) << candidate.label;
    }
  }
}

TEST(Pruning, APrunedCandidateCouldNotHaveWon) {
  std::size_t pruned = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const RandomCase c = random_case(seed);
    const CallerLayout caller = squarest_caller(c.platform.size());
    const LuChoice lu = choose_lu_plan(c.platform, c.n, c.n, caller);
    expect_pruned_could_not_win(c.platform, lu_plan_candidates(Routine::LU, c.platform, c.n, c.n, caller).problem, lu);
    const LuChoice qr = choose_qr_plan(c.platform, c.n, c.n, caller);
    expect_pruned_could_not_win(c.platform, lu_plan_candidates(Routine::QR, c.platform, c.n, c.n, caller).problem, qr);
    const CholeskyChoice cholesky = choose_cholesky_plan(c.platform, c.n, caller);
    expect_pruned_could_not_win(c.platform, cholesky_plan_candidates(c.platform, c.n, caller).problem, cholesky);
    pruned += lu.pruned + qr.pruned + cholesky.pruned;
  }
  EXPECT_GT(pruned, 0u);  // the bound did prune: the test checked something
}

// The bound a sketch carries into the pricing order (DeferredCandidate::late_steps_bound: the
// panel chain, or the updates plus the column messages) never exceeds its candidate's price,
// so a grid ruled out on it unbuilt could not have won: on the random platforms, and on 48
// processors behind a slow network, where the column messages rule out the tall grids.
TEST(Pruning, ASketchBoundNeverExceedsItsCandidatesPrice) {
  std::vector<RandomCase> cases;
  for (unsigned seed = 1; seed <= 6; ++seed) cases.push_back(random_case(seed));
  cases.push_back({planner_platform(three_generations(48), 1.0e7), 3000});
  std::size_t above_updates = 0;
  for (const RandomCase& c : cases) {
    for (Routine routine : {Routine::LU, Routine::QR}) {
      const PlanCandidates<LuLayoutKind> listed =
          lu_plan_candidates(routine, c.platform, c.n, c.n, squarest_caller(c.platform.size()));
      for (const auto& candidate : listed.built) {
        const DeferredCandidate& deferred = candidate.deferred;
        if (!deferred.build) continue;
        const std::optional<double> bound =
            deferred.late_steps_bound ? deferred.late_steps_bound() : std::optional<double>(deferred.steps_bound);
        if (!bound) continue;  // not a candidate: never priced
        const Prediction p = predict(c.platform, listed.problem, deferred.build());
        EXPECT_LE(*bound, p.total_s() * (1.0 + 1e-12)) << candidate.prediction.candidate.label;
        const double updates = compute_lower_bound(c.platform, listed.problem, candidate.prediction.candidate.tile,
                                                   deferred.speed_flops);
        above_updates += *bound > 2.0 * updates;
      }
    }
  }
  EXPECT_GT(above_updates, 100u);  // the bounds rule out more than the updates alone would
}

// The bound's update work, summed step by step as the step models count it (whole trailing
// tiles), against its closed form.
TEST(Pruning, TheComputeBoundSumsTheStepsUpdates) {
  const Platform platform = planner_platform(three_generations(6));
  for (Routine routine : {Routine::LU, Routine::QR, Routine::Cholesky}) {
    for (std::size_t m : {1000u, 4100u}) {
      for (std::size_t nb : {32u, 100u, 256u}) {
        Problem problem;
        problem.routine = routine;
        problem.n = 3000;
        problem.m = routine == Routine::Cholesky ? 3000 : m;
        const double b = static_cast<double>(nb);
        const double rows = std::ceil(static_cast<double>(problem.rows()) / b), cols = std::ceil(3000.0 / b);
        double units = 0.0;
        for (double k = 0.0; k < std::min(rows, cols); k += 1.0) {
          const double below = rows - k - 1.0, right = cols - k - 1.0;
          units += routine == Routine::LU ? 2.0 * below * right
                   : routine == Routine::QR ? 4.0 * (below + 1.0) * right
                                            : below + below * (below - 1.0);
        }
        const double speed = 7.0e9;
        const double rate = speed * platform.kernel.efficiency(b) * std::max(1.0, platform.kernel.per_tile_calls);
        EXPECT_NEAR(compute_lower_bound(platform, problem, nb, speed), units * b * b * b / rate,
                    1e-12 * units * b * b * b / rate)
            << routine_name(routine) << " m " << m << " nb " << nb;
      }
    }
  }
}

TEST(Pruning, ExhaustivePricesEveryCandidate) {
  const RandomCase c = random_case(4);
  LuPlanOptions options;
  options.search.exhaustive = true;
  const LuChoice choice = choose_lu_plan(c.platform, c.n, c.n, squarest_caller(c.platform.size()), options);
  EXPECT_EQ(choice.pruned, 0u);
  std::size_t unpriced = 0;
  for (const auto& candidate : choice.priced) {
    if (candidate.priced) continue;
    ++unpriced;  // only a listed "/fast" variant whose columns each hold one speed
    EXPECT_NE(candidate.prediction.candidate.label.find("/fast"), std::string::npos);
  }
  EXPECT_EQ(unpriced, choice.not_candidates);
}

/// The relative gap of the default planner's choice over the exhaustive one's.
template <typename Choose>
double gap(Choose choose) {
  const double scalable = choose(false), exhaustive = choose(true);
  EXPECT_GE(scalable, exhaustive * (1.0 - 1e-12));  // the full search sees every candidate
  return scalable / exhaustive - 1.0;
}

TEST(ScalableSearch, WithinTwoPercentOfTheExhaustiveSearchOnRandomPlatforms) {
  double worst = 0.0;
  std::size_t instances = 0;
  for (unsigned seed = 100; seed < 120; ++seed) {
    const RandomCase c = random_case(seed);
    const CallerLayout caller = squarest_caller(c.platform.size());
    const auto lu_like = [&](Routine routine) {
      return gap([&](bool exhaustive) {
        LuPlanOptions options;
        options.search.exhaustive = exhaustive;
        return routine == Routine::LU ? choose_lu_plan(c.platform, c.n, c.n, caller, options).predicted_s
                                      : choose_qr_plan(c.platform, c.n, c.n, caller, options).predicted_s;
      });
    };
    const double cholesky = gap([&](bool exhaustive) {
      CholeskyPlanOptions options;
      options.search.exhaustive = exhaustive;
      return choose_cholesky_plan(c.platform, c.n, caller, options).predicted_s;
    });
    for (const double g : {lu_like(Routine::LU), lu_like(Routine::QR), cholesky}) {
      EXPECT_LE(g, 0.02) << "seed " << seed << ", " << c.platform.size() << " processors, N = " << c.n;
      worst = std::max(worst, g);
      ++instances;
    }
  }
  EXPECT_EQ(instances, 60u);
  RecordProperty("worst_gap_percent", std::to_string(100.0 * worst));
}

/// Every slice of `slices` prices its part; `agree` answers each with the overall pick.
template <typename Kind, typename Choose>
void expect_same_plan_in_every_slice(std::size_t slices, Choose choose) {
  // The picks of all slices, found by running each slice alone first.
  std::vector<CandidatePick> picks;
  for (std::size_t s = 0; s < slices; ++s) {
    PricingSlice probe{s, slices, [&](const CandidatePick& mine) {
                         picks.push_back(mine);
                         return mine;
                       }};
    try {
      choose(probe);
    } catch (const Error&) {
      // a slice alone may have no fitting candidate; its pick was recorded all the same
    }
  }
  ASSERT_EQ(picks.size(), slices);
  const CandidatePick overall = *std::min_element(picks.begin(), picks.end(), [](const auto& a, const auto& b) {
    return a.total_s < b.total_s || (a.total_s == b.total_s && a.index < b.index);
  });
  const PlanChoice<Kind> whole = choose(PricingSlice{});
  for (std::size_t s = 0; s < slices; ++s) {
    const PlanChoice<Kind> choice = choose(PricingSlice{s, slices, [&](const CandidatePick&) { return overall; }});
    EXPECT_EQ(choice.candidate.label, whole.candidate.label) << "slice " << s << " of " << slices;
    EXPECT_EQ(choice.tile, whole.tile);
    EXPECT_EQ(choice.candidate.owner, whole.candidate.owner);  // built on every pricer, deferred or not
    EXPECT_EQ(choice.candidate.row_order, whole.candidate.row_order);
    EXPECT_EQ(choice.candidate.col_order, whole.candidate.col_order);
    EXPECT_EQ(choice.candidate.panel_rank, whole.candidate.panel_rank);
    EXPECT_DOUBLE_EQ(choice.predicted_s, whole.predicted_s);
  }
}

TEST(Split, EveryPricerEndsWithTheSamePlanWhateverItsSlice) {
  const Platform platform = planner_platform(three_generations(24), 1.0e9, NetworkKind::Switched);
  const CallerLayout caller = caller_grid(4, 6);
  for (std::size_t slices : {2u, 3u, 7u, 24u}) {
    expect_same_plan_in_every_slice<LuLayoutKind>(slices, [&](const PricingSlice& slice) {
      LuPlanOptions options;
      options.search.slice = slice;
      return choose_lu_plan(platform, 5000, 5000, caller, options);
    });
    expect_same_plan_in_every_slice<CholeskyLayoutKind>(slices, [&](const PricingSlice& slice) {
      CholeskyPlanOptions options;
      options.search.slice = slice;
      return choose_cholesky_plan(platform, 5000, caller, options);
    });
  }
}

/// The LU planner's candidates on 24 processors of three generations, as the search takes them.
struct ListedCandidates {
  Problem problem;
  std::vector<Prediction> predictions;
  DeferredCandidates deferred;
};

ListedCandidates listed_lu_candidates(const Platform& platform, std::int64_t order = 4000) {
  PlanCandidates<LuLayoutKind> built = lu_plan_candidates(Routine::LU, platform, order, order, caller_grid(4, 6));
  ListedCandidates listed{built.problem, {}, {}};
  for (auto& c : built.built) {
    listed.predictions.push_back(c.prediction);
    listed.deferred.push_back(c.deferred);
  }
  return listed;
}

TEST(Split, EachSlicePricesOnlyItsShare) {
  const Platform platform = planner_platform(three_generations(24));
  ListedCandidates listed = listed_lu_candidates(platform);
  std::vector<std::size_t> times_priced(listed.predictions.size(), 0);
  std::vector<bool> candidate(listed.predictions.size(), true);
  for (std::size_t s = 0; s < 5; ++s) {
    const PricingOrder order = pricing_order(platform, listed.problem, listed.predictions, true, listed.deferred, s, 5);
    EXPECT_FALSE(order.incumbent);
    for (std::size_t i : order.order) EXPECT_EQ(i % 5, s);  // its share of the list, no other
    const SlicePricing slice = price_slice(platform, listed.problem, listed.predictions, order, listed.deferred);
    EXPECT_EQ(slice.pruned, 0u);  // exhaustive order: bounds of 0
    EXPECT_EQ(slice.not_candidates, order.not_candidates);
    for (std::size_t i = 0; i < listed.predictions.size(); ++i) times_priced[i] += slice.priced[i] ? 1 : 0;
    for (std::size_t i = s; i < listed.predictions.size(); i += 5)
      candidate[i] = std::find(order.order.begin(), order.order.end(), i) != order.order.end();
  }
  std::size_t not_candidates = 0;
  for (std::size_t i = 0; i < listed.predictions.size(); ++i) {
    EXPECT_EQ(times_priced[i], candidate[i] ? 1u : 0u) << i;
    // A listed non-candidate is a "/fast" variant whose columns each hold one speed.
    if (!candidate[i]) {
      ++not_candidates;
      EXPECT_NE(listed.predictions[i].candidate.label.find("/fast"), std::string::npos) << i;
    }
  }
  EXPECT_LT(not_candidates, listed.predictions.size() / 2);
}

// A pricer works out the late bounds (a heterogeneous grid's plan) of its own slice only, and
// of the incumbent it prunes against: what makes its share shrink as the ranks grow.
TEST(Split, APricerBoundsOnlyItsOwnSlice) {
  const Platform platform = planner_platform(three_generations(24));
  ListedCandidates listed = listed_lu_candidates(platform);
  std::vector<std::size_t> bounded(listed.predictions.size(), 0);
  std::size_t late = 0;
  for (std::size_t i = 0; i < listed.deferred.size(); ++i) {
    auto& bound = listed.deferred[i].late_steps_bound;
    if (!bound) continue;
    ++late;
    bound = [i, &bounded, inner = bound] {
      ++bounded[i];
      return inner();
    };
  }
  ASSERT_GT(late, listed.predictions.size() / 2);
  for (std::size_t s = 0; s < 5; ++s) {
    std::fill(bounded.begin(), bounded.end(), 0);
    const PricingOrder order =
        pricing_order(platform, listed.problem, listed.predictions, false, listed.deferred, s, 5);
    for (std::size_t i = 0; i < bounded.size(); ++i)
      EXPECT_EQ(bounded[i] > 0, listed.deferred[i].late_steps_bound && (i % 5 == s || (order.incumbent && i == 0)))
          << "slice " << s << " candidate " << i;
  }
}

// The order first prices one probe per grid size p·q, its squarest grid, then the rest by
// bound: on a slow network the most processors have the smallest bounds and the largest
// totals, and a small near-square grid priced early lets the bounds prune them.
TEST(Pruning, OneSquarestProbePerGridSizeFirstThenTheBounds) {
  const Platform platform = planner_platform(three_generations(24), 1.0e7, NetworkKind::SharedBus);
  const ListedCandidates listed = listed_lu_candidates(platform);
  const PricingOrder order = pricing_order(platform, listed.problem, listed.predictions, false, listed.deferred, 0, 1);
  const auto aspect = [](const Candidate& c) {
    return static_cast<double>(std::max(c.rows, c.cols)) / static_cast<double>(std::min(c.rows, c.cols));
  };
  std::map<std::size_t, double> squarest;  // per grid size, its squarest grid's aspect
  for (std::size_t i : order.order) {
    const Candidate& c = listed.predictions[i].candidate;
    if (c.kind != CandidateKind::Cartesian) continue;
    const auto [it, added] = squarest.emplace(c.rows * c.cols, aspect(c));
    if (!added) it->second = std::min(it->second, aspect(c));
  }
  ASSERT_GT(squarest.size(), 10u);
  std::set<std::size_t> probed;
  for (std::size_t at = 0; at < squarest.size(); ++at) {
    const Candidate& c = listed.predictions[order.order[at]].candidate;
    ASSERT_EQ(c.kind, CandidateKind::Cartesian) << at;
    EXPECT_TRUE(probed.insert(c.rows * c.cols).second) << c.label;
    EXPECT_EQ(aspect(c), squarest.at(c.rows * c.cols)) << c.label;
  }
  for (std::size_t at = squarest.size() + 1; at < order.order.size(); ++at)
    EXPECT_LE(order.bound[order.order[at - 1]], order.bound[order.order[at]]) << at;
  // The exhaustive search keeps the list's order.
  const PricingOrder every = pricing_order(platform, listed.problem, listed.predictions, true, listed.deferred, 0, 1);
  EXPECT_TRUE(std::is_sorted(every.order.begin(), every.order.end()));
}

TEST(Split, OnlyTheFirstSliceCountsTheFirstCandidateThatEverySlicePrunesAgainst) {
  const Platform platform = planner_platform(three_generations(24));
  ListedCandidates listed = listed_lu_candidates(platform);
  ASSERT_EQ(listed.predictions.front().candidate.kind, CandidateKind::CallerLayout);
  std::vector<std::size_t> times_priced(listed.predictions.size(), 0);
  std::size_t pruned = 0;
  for (std::size_t s = 0; s < 5; ++s) {
    const PricingOrder order =
        pricing_order(platform, listed.problem, listed.predictions, false, listed.deferred, s, 5);
    EXPECT_EQ(order.incumbent, s == 0 ? std::nullopt : std::optional<std::size_t>(0));
    const SlicePricing slice = price_slice(platform, listed.problem, listed.predictions, order, listed.deferred);
    pruned += slice.pruned;
    for (std::size_t i = 0; i < listed.predictions.size(); ++i) times_priced[i] += slice.priced[i] ? 1 : 0;
  }
  EXPECT_EQ(times_priced.front(), 1u);
  for (std::size_t i = 0; i < listed.predictions.size(); ++i) EXPECT_LE(times_priced[i], 1u) << i;
  EXPECT_GT(pruned, 0u);
}

// A slice other than the first starts with the incumbent's coarse total alone. Its coarse
// totals go on to a full pricing only within the margin of the best full total, or within the
// margin twice of the best coarse total: so every candidate such a slice keeps in full after a
// coarse pass (tile 64: 313 steps) had a coarse total within (1 + margin)² of the incumbent's. (Without the second
// ceiling, a slice with no full total yet priced every coarse total in full.)
TEST(Split, ASliceKeepsInFullOnlyCoarseTotalsNearTheIncumbents) {
  // Slow links: many grids' steps are mostly messages, their bounds far below their prices.
  const Platform platform = planner_platform(three_generations(24), 1.0e7, NetworkKind::Switched);
  const ListedCandidates listed = listed_lu_candidates(platform, 20000);
  const auto coarse_total = [&](std::size_t i) {
    const bool sketch = listed.deferred[i].build && listed.predictions[i].candidate.owner.empty();
    const StepSamplingScope strata(kCoarseSampledSteps);
    return predict(platform, listed.problem, sketch ? listed.deferred[i].build() : listed.predictions[i].candidate)
        .total_s();
  };
  const double ceiling = coarse_total(0) * (1.0 + kCoarseMargin) * (1.0 + kCoarseMargin);
  std::size_t kept = 0;
  for (std::size_t s = 1; s < 8; ++s) {
    std::vector<Prediction> predictions = listed.predictions;  // a slice prices its own copy
    const PricingOrder order = pricing_order(platform, listed.problem, predictions, false, listed.deferred, s, 8);
    ASSERT_EQ(order.incumbent, std::optional<std::size_t>(0));
    const SlicePricing slice = price_slice(platform, listed.problem, predictions, order, listed.deferred);
    for (std::size_t i = 1; i < predictions.size(); ++i) {
      // Only a sampled sequence has a coarse pass (shorter ones are walked at once).
      if (!slice.priced[i] || 20000 / predictions[i].candidate.tile <= 2 * kSampledSteps) continue;
      ++kept;
      EXPECT_LE(coarse_total(i), ceiling) << predictions[i].candidate.label << " tile " << predictions[i].candidate.tile;
    }
  }
  EXPECT_GT(kept, 0u);
}

TEST(Deferral, ASketchNamesWhatItsBuildMakes) {
  for (std::size_t processors : {6u, 24u}) {
    const Platform platform = planner_platform(three_generations(processors));
    const ListedCandidates listed = listed_lu_candidates(platform);
    std::size_t deferred = 0;
    for (std::size_t i = 0; i < listed.predictions.size(); ++i) {
      if (!listed.deferred[i].build) continue;
      ++deferred;
      const Candidate& sketch = listed.predictions[i].candidate;
      const Candidate built = listed.deferred[i].build();
      EXPECT_TRUE(sketch.owner.empty()) << sketch.label;
      EXPECT_EQ(sketch.label, built.label);
      EXPECT_EQ(sketch.kind, built.kind) << sketch.label;
      EXPECT_EQ(sketch.tile, built.tile) << sketch.label;
      EXPECT_EQ(sketch.rows, built.rows) << sketch.label;
      EXPECT_EQ(sketch.cols, built.cols) << sketch.label;
      EXPECT_EQ(sketch.panel_rank, built.panel_rank) << sketch.label;
      // The bound the search orders a sketch by is the built candidate's.
      EXPECT_DOUBLE_EQ(compute_lower_bound(platform, listed.problem, sketch.tile, listed.deferred[i].speed_flops),
                       compute_lower_bound(platform, listed.problem, built))
          << sketch.label;
    }
    EXPECT_GT(deferred, 0u);
  }
}

TEST(Deferral, CholeskySketchesNameWhatTheirBuildsMake) {
  const Platform platform = planner_platform(three_generations(12));
  const PlanCandidates<CholeskyLayoutKind> listed = cholesky_plan_candidates(platform, 3000, caller_grid(3, 4));
  std::size_t deferred = 0;
  for (const auto& c : listed.built) {
    if (!c.deferred.build) continue;
    ++deferred;
    const Candidate built = c.deferred.build();
    EXPECT_EQ(c.prediction.candidate.label, built.label);
    EXPECT_EQ(c.prediction.candidate.tile, built.tile);
    // A pattern's size is known once it is made: its sketch names none.
    const bool pattern = c.prediction.candidate.kind == CandidateKind::Pattern;
    EXPECT_EQ(c.prediction.candidate.rows * c.prediction.candidate.cols, pattern ? 0 : built.owner.size());
  }
  EXPECT_GT(deferred, 0u);
}

TEST(Split, AFailureOnAnotherPricerFailsEveryPricer) {
  const Platform platform = planner_platform(three_generations(6));
  LuPlanOptions options;
  options.search.slice = {0, 2, [](const CandidatePick&) {
                            return CandidatePick{-std::numeric_limits<double>::infinity(), 3};
                          }};
  EXPECT_THROW(choose_lu_plan(platform, 2000, 2000, caller_grid(2, 3), options), Error);
}

TEST(SearchOptions, BadSlicesAreRefused) {
  const Platform platform = planner_platform(three_generations(6));
  LuPlanOptions options;
  options.search.slice = {2, 2, {}};
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 2000, 2000, caller_grid(2, 3), options); }).find("slice 2 of 2"),
            std::string::npos);
  options.search.slice = {0, 2, {}};
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 2000, 2000, caller_grid(2, 3), options); }).find("no agreement"),
            std::string::npos);
}

TEST(SearchOptions, GenerateCandidatesRefusesACountOutOfRange) {
  const Platform platform = planner_platform(three_generations(6));
  Problem problem;
  problem.n = 1000;
  problem.caller = caller_grid(2, 3);
  CandidateOptions options;
  options.process_counts = {7};
  EXPECT_NE(message_of([&] { generate_candidates(platform, problem, options); }).find("process count 7"),
            std::string::npos);
}

}  // namespace
}  // namespace hetscal::core
