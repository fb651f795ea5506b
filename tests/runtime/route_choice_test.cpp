// The take-over route's choice (HETSCAL_TAKE_OVER) from injected prices: the in-place route's
// price from the copy's, auto taking the cheaper route that fits, the forced modes as they
// were, and the decision's reason naming the route and both prices. No timing: every figure
// is given.
#include "runtime/route_choice.hpp"

#include <gtest/gtest.h>

namespace hetscal::runtime {
namespace {

// A copy route of 10 s: 6 s of steps, 1.5 s of moves, 2.5 s of first touch; ScaLAPACK 20 s.
Prices copy_route() {
  Prices p;
  p.forward_s = 20.0;
  p.heterogeneous_s = 10.0;
  p.moves_s = 1.5;
  p.first_touch_s = 2.5;
  p.first_touch_bytes = 5e9;
  return p;
}

// An in-place route on the same steps (factor 1), with its own moves and first touch.
InPlaceTerms in_place(double moves_s, double first_touch_s) {
  InPlaceTerms t;
  t.moves_s = moves_s;
  t.first_touch_s = first_touch_s;
  t.first_touch_bytes = first_touch_s * 2e9;
  return t;
}

// The in-place price of copy_route()'s steps at `factor`, with the unmodelled margin.
double in_place_steps_s(double factor) { return 6.0 * factor * (1.0 + kInPlaceStepsMargin); }

DecisionInput two_unequal_ranks() {
  DecisionInput in;
  in.min_n = 0;
  in.dims = {8000, 8000, 8000};
  in.flops = 2.0 * 8000.0 * 8000.0 * 8000.0;
  in.ranks = 2;
  in.speeds = {3, 1};
  return in;
}

TEST(RouteChoice, InPlacePriceSwapsTheCopysMovesAndFirstTouchForItsOwn) {
  const Prices p = in_place_prices(copy_route(), in_place(0.25, 0.5));
  EXPECT_EQ(p.route, "in place");
  EXPECT_TRUE(p.no_route.empty());
  EXPECT_DOUBLE_EQ(p.forward_s, 20.0);
  EXPECT_DOUBLE_EQ(p.heterogeneous_s, in_place_steps_s(1.0) + 0.25 + 0.5);
  EXPECT_DOUBLE_EQ(p.moves_s, 0.25);
  EXPECT_DOUBLE_EQ(p.first_touch_s, 0.5);
  EXPECT_DOUBLE_EQ(p.first_touch_bytes, 1e9);
}

TEST(RouteChoice, InPlaceStepsArePricedNoFasterThanTheCopysButSlowerWhenLessBalanced) {
  InPlaceTerms faster = in_place(0.0, 0.0);
  faster.steps_factor = 0.5;  // never believed: the in-place steps are priced as the copy's at least
  EXPECT_DOUBLE_EQ(in_place_prices(copy_route(), faster).heterogeneous_s, in_place_steps_s(1.0));
  InPlaceTerms slower = in_place(0.0, 0.0);
  slower.steps_factor = 1.5;
  EXPECT_DOUBLE_EQ(in_place_prices(copy_route(), slower).heterogeneous_s, in_place_steps_s(1.5));
}

TEST(RouteChoice, StepsPricedOnTheInPlaceLayoutReplaceTheCopysSteps) {
  // A factorization: the model priced the in-place layout's own steps (7 s, against the
  // copy plan's 6 s); steps_factor, a product's estimate, is not applied to them.
  InPlaceTerms own = in_place(0.25, 0.5);
  own.steps_s = 7.0;
  own.steps_factor = 3.0;
  const Prices p = in_place_prices(copy_route(), own);
  EXPECT_DOUBLE_EQ(p.heterogeneous_s, 7.0 * (1.0 + kInPlaceStepsMargin) + 0.25 + 0.5);
  // Priced faster than the copy plan's: believed (the model priced that layout itself).
  own.steps_s = 3.0;
  EXPECT_DOUBLE_EQ(in_place_prices(copy_route(), own).heterogeneous_s, 3.0 * (1.0 + kInPlaceStepsMargin) + 0.75);
}

TEST(RouteChoice, AutoWeighsAFactorizationsOwnStepsAgainstTheCopysSavings) {
  // The copy: 6 s of steps, 4 s of moves and first touch. In place: 0.75 s of those.
  InPlaceTerms slower_steps = in_place(0.25, 0.5);
  const double margin = 1.0 + kInPlaceStepsMargin;
  slower_steps.steps_s = 8.0;  // 8·margin + 0.75 < 10: the savings outweigh the slower steps
  ASSERT_LT(8.0 * margin + 0.75, 10.0);
  const Prices in = choose_take_over_route(TakeOverMode::Auto, copy_route(), slower_steps);
  EXPECT_EQ(in.route, "in place");
  EXPECT_EQ(in.route_note, "in place: predicted " + seconds_text(8.0 * margin + 0.75) + ", copy 10 s");
  slower_steps.steps_s = 9.0;  // 9·margin + 0.75 > 10
  ASSERT_GT(9.0 * margin + 0.75, 10.0);
  const Prices copy = choose_take_over_route(TakeOverMode::Auto, copy_route(), slower_steps);
  EXPECT_EQ(copy.route, "copy");
  EXPECT_EQ(copy.route_note, "copy: predicted 10 s, in place " + seconds_text(9.0 * margin + 0.75));
}

TEST(RouteChoice, MemoryBoundsThePlanOnlyWithoutAnInPlaceRouteToTurnTo) {
  core::Platform machine;
  machine.processors = {{3e9, 1e8}, {1e9, 2e8}};
  const auto memories = [](const core::Platform& platform) {
    std::vector<double> bytes;
    for (const core::Processor& p : platform.processors) bytes.push_back(p.memory_bytes);
    return bytes;
  };
  const std::vector<double> bounded{1e8, 2e8};
  EXPECT_EQ(memories(planning_platform(machine, InPlaceRoute::None, TakeOverMode::Auto)), bounded);
  EXPECT_EQ(memories(planning_platform(machine, InPlaceRoute::Available, TakeOverMode::Copy)), bounded);
  for (TakeOverMode mode : {TakeOverMode::Auto, TakeOverMode::InPlace}) {
    const core::Platform planned = planning_platform(machine, InPlaceRoute::Available, mode);
    for (const core::Processor& p : planned.processors) EXPECT_GT(p.memory_bytes, 1e300);
    EXPECT_DOUBLE_EQ(planned.processors[1].speed_flops, 1e9);  // only the memory changes
  }
}

TEST(RouteChoice, AutoTakesInPlaceWhenItIsCheaper) {
  const Prices p = choose_take_over_route(TakeOverMode::Auto, copy_route(), in_place(0.25, 0.5));
  ASSERT_LT(in_place_steps_s(1.0) + 0.75, 10.0);
  EXPECT_EQ(p.route, "in place");
  EXPECT_TRUE(p.no_route.empty());
  EXPECT_DOUBLE_EQ(p.heterogeneous_s, in_place_steps_s(1.0) + 0.75);
  EXPECT_EQ(p.route_note, "in place: predicted " + seconds_text(p.heterogeneous_s) + ", copy 10 s");
}

TEST(RouteChoice, AutoKeepsTheCopyWhenInPlaceIsDearer) {
  InPlaceTerms dear = in_place(0.25, 0.5);
  dear.steps_factor = 2.0;  // e.g. the caller's grid balances the speeds badly
  const Prices p = choose_take_over_route(TakeOverMode::Auto, copy_route(), dear);
  EXPECT_EQ(p.route, "copy");
  EXPECT_DOUBLE_EQ(p.heterogeneous_s, 10.0);
  EXPECT_DOUBLE_EQ(p.first_touch_s, 2.5);
  EXPECT_EQ(p.route_note, "copy: predicted 10 s, in place " + seconds_text(in_place_steps_s(2.0) + 0.75));
}

TEST(RouteChoice, AutoKeepsTheCopyOnATie) {
  Prices no_steps = copy_route();  // 4 s, all moves and first touch: an exact tie with 4 s of moves
  no_steps.heterogeneous_s = no_steps.moves_s + no_steps.first_touch_s;
  ASSERT_DOUBLE_EQ(in_place_prices(no_steps, in_place(4.0, 0.0)).heterogeneous_s, 4.0);
  EXPECT_EQ(choose_take_over_route(TakeOverMode::Auto, no_steps, in_place(4.0, 0.0)).route, "copy");
}

TEST(RouteChoice, AutoTakesWhicheverRouteFits) {
  Prices too_big = copy_route();
  too_big.no_route = "the copy route does not fit in memory: it needs more";
  InPlaceTerms dear = in_place(5.0, 5.0);  // dearer than the copy, but the only one that fits
  const Prices in = choose_take_over_route(TakeOverMode::Auto, too_big, dear);
  EXPECT_EQ(in.route, "in place");
  EXPECT_TRUE(in.no_route.empty());
  EXPECT_EQ(in.route_note, "in place: predicted " + seconds_text(in.heterogeneous_s) +
                               ", the copy route does not fit in memory: it needs more");

  InPlaceTerms unfit = in_place(0.0, 0.0);
  unfit.problem = "the in-place route does not fit in memory: it needs more";
  const Prices copy = choose_take_over_route(TakeOverMode::Auto, copy_route(), unfit);
  EXPECT_EQ(copy.route, "copy");
  EXPECT_TRUE(copy.no_route.empty());
  EXPECT_EQ(copy.route_note, "copy: predicted 10 s, the in-place route does not fit in memory: it needs more");

  const Prices neither = choose_take_over_route(TakeOverMode::Auto, too_big, unfit);
  EXPECT_EQ(neither.no_route, too_big.no_route + "; " + unfit.problem);
}

TEST(RouteChoice, ForcedModesTakeTheirRouteWhateverThePrices) {
  InPlaceTerms dear = in_place(5.0, 5.0);
  const Prices in = choose_take_over_route(TakeOverMode::InPlace, copy_route(), dear);
  EXPECT_EQ(in.route, "in place");
  EXPECT_TRUE(in.no_route.empty());
  EXPECT_TRUE(in.route_note.empty());
  dear.problem = "the in-place route needs op(A), op(B) and sub(C) on the same tiles";
  EXPECT_EQ(choose_take_over_route(TakeOverMode::InPlace, copy_route(), dear).no_route, dear.problem);

  const Prices copy = choose_take_over_route(TakeOverMode::Copy, copy_route(), in_place(0.0, 0.0));
  EXPECT_EQ(copy.route, "copy");
  EXPECT_DOUBLE_EQ(copy.heterogeneous_s, 10.0);
  EXPECT_TRUE(copy.route_note.empty());
}

TEST(RouteChoice, VerboseReasonNamesTheRouteAndBothPrices) {
  const DecisionInput in = two_unequal_ranks();
  const Decision taken =
      decide_by_prices(in, choose_take_over_route(TakeOverMode::Auto, copy_route(), in_place(0.25, 0.5)));
  EXPECT_EQ(taken.route, Route::Heterogeneous);
  EXPECT_DOUBLE_EQ(taken.first_touch_s, 0.5);
  EXPECT_NE(taken.reason.find("; in place: predicted " + seconds_text(in_place_steps_s(1.0) + 0.75) +
                              ", copy 10 s"),
            std::string::npos)
      << taken.reason;

  InPlaceTerms dear = in_place(0.25, 0.5);
  dear.steps_factor = 2.0;
  const Decision copy = decide_by_prices(in, choose_take_over_route(TakeOverMode::Auto, copy_route(), dear));
  EXPECT_EQ(copy.route, Route::Heterogeneous);
  EXPECT_NE(copy.reason.find("; copy: predicted 10 s, in place "), std::string::npos) << copy.reason;

  // A forced route says only its name, as before the in-place route was priced apart.
  const Decision forced =
      decide_by_prices(in, choose_take_over_route(TakeOverMode::InPlace, copy_route(), in_place(0.25, 0.5)));
  EXPECT_EQ(forced.reason.substr(forced.reason.size() - 10), "; in place") << forced.reason;
}

}  // namespace
}  // namespace hetscal::runtime
