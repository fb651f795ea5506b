#pragma once
/// @file route_choice.hpp
/// The in-place route priced apart from the copy route, and the choice between them
/// (HETSCAL_TAKE_OVER, issue 28 item 1). Pure: every input is global (agreed prices and
/// reductions), so every rank chooses alike without talking.
///
/// The in-place route computes the same call on the caller's grid, the tile lines its speeds
/// require moved (runtime/in_place_gemm.hpp). Its price is the copy route's, with the copy's
/// own terms replaced by the in-place route's:
///   in place = copy's steps × steps_factor × (1 + kInPlaceStepsMargin)
///            + the surplus's moves + the first touch of its new memory,
///   copy's steps = copy − the copy's moves − the copy's first touch.
/// The steps are the copy plan's, not priced again on the in-place layout: the time model
/// assumes A, B and C on one layout, while the in-place SUMMA reads A's and B's panels where
/// the caller keeps them. What the model does know of the in-place layout (its balance, the
/// kernel's rate at the caller's block) is in steps_factor; what it does not is bounded by
/// kInPlaceStepsMargin.
#include <string>

#include "runtime/config.hpp"
#include "runtime/decision.hpp"

namespace hetscal::runtime {

/// What the in-place SUMMA costs that the model does not price: its panels read from the
/// caller's strided arrays and sent by their caller owners, C's overflow updated by GEMMs of
/// its own beside the caller's array. Measured once (PDGEMM N = 8,000, 2 ranks 1x2, rank 1
/// slowed 3x): its compute stage 4-9 % slower than the copy's. Charged above the top of that
/// range, so that auto takes the in-place route for the moves and first touch it saves, not
/// for a compute the model would price too low.
inline constexpr double kInPlaceStepsMargin = 0.10;

/// The in-place route's own terms for one call; all global.
struct InPlaceTerms {
  /// "" or why the route cannot run the call (its layout's requirements, or memory).
  std::string problem;
  double moves_s = 0.0;            ///< the surplus of C moved in (when read) and out
  double first_touch_bytes = 0.0;  ///< the most any rank newly allocates (overflow, panels)
  double first_touch_s = 0.0;      ///< first_touch_bytes at the fresh-memory rate
  /// The in-place steps over the copy plan's, as far as the model knows them: the in-place
  /// layout's flop balance against the plan's, and the kernel's rate at the caller's block
  /// against the plan's tile. At least 1: the model chose the copy plan as the fastest it
  /// found, and the in-place layout is priced no faster.
  double steps_factor = 1.0;
};

/// The in-place route's prices from the copy route's (`copy`, as agreed_prices returns them):
/// forward_s kept, heterogeneous_s, moves_s and first touch the in-place route's, route
/// "in place", no_route its problem.
Prices in_place_prices(const Prices& copy, const InPlaceTerms& in_place);

/// The route a call takes, by HETSCAL_TAKE_OVER: under Copy the copy route (`copy`, unchanged);
/// under InPlace the in-place route (no_route: its problem, when it cannot run); under Auto
/// the route that fits and is cheaper (the copy route on a tie, whose compute the model prices
/// best), with route_note naming it and both prices, or the other's reason not to fit; neither
/// fits: no_route gives both reasons.
/// @param copy the copy route's prices; no_route non-empty when it does not fit.
Prices choose_take_over_route(TakeOverMode mode, const Prices& copy, const InPlaceTerms& in_place);

}  // namespace hetscal::runtime
