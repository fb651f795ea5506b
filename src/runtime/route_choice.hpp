#pragma once
/// @file route_choice.hpp
/// The in-place route priced apart from the copy route, and the choice between them
/// (HETSCAL_TAKE_OVER, issue 28 item 1). Pure: every input is global (agreed prices and
/// reductions), so every rank chooses alike without talking.
///
/// The in-place route computes the same call on the caller's grid, the tile lines its speeds
/// require moved (runtime/in_place_gemm.hpp, in_place_potrf.hpp). Its price is the copy
/// route's, with the copy's own terms replaced by the in-place route's:
///   in place = its steps × (1 + kInPlaceStepsMargin)
///            + the surplus's moves + the first touch of its new memory.
/// A factorization's steps are priced by the time model on the in-place layout itself
/// (InPlaceTerms::steps_s): one operand, on one layout, as the model assumes. A product's
/// are the copy plan's, copy − the copy's moves − the copy's first touch, times steps_factor:
/// the model assumes A, B and C on one layout, while the in-place SUMMA reads A's and B's
/// panels where the caller keeps them; what the model does know of the in-place layout (its
/// balance, the kernel's rate at the caller's block) is in steps_factor. What it does not
/// know of either is bounded by kInPlaceStepsMargin.
#include <optional>
#include <string>

#include "core/time_models/platform.hpp"
#include "runtime/config.hpp"
#include "runtime/decision.hpp"

namespace hetscal::runtime {

/// What an in-place kernel costs that the model does not price: the in-place SUMMA's panels
/// read from the caller's strided arrays and sent by their caller owners, the factorizations'
/// trailing tiles in two buffers (updated a block of memory at a time, kernels/tile_blocks.hpp),
/// their panels factored by the tiles' caller owners. Measured (N = 8,000, 2 ranks 1x2, rank 1
/// slowed 3x, quiet, the compute stage in place against the copy's): PDGEMM 15.5 s against
/// 15.4, PDPOTRF 2.73-2.75 against 2.73, PDGETRF 5.94 against 5.68 (+4.6 %), PDGEQRF 12.3
/// against 12.4. Charged at the top of that range, so that auto takes the in-place route for
/// the moves and first touch it saves, not for a compute the model would price too low.
/// (It was 10 % while the factorizations updated tile by tile: PDGETRF 6.84 s, PDGEQRF 13.9.)
inline constexpr double kInPlaceStepsMargin = 0.05;

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
  /// The in-place steps priced on the in-place layout itself (a factorization: the time
  /// model's steps of its routine on in_place_candidate), which replaces the copy plan's
  /// steps and steps_factor; unset: the copy plan's steps × steps_factor (a product).
  std::optional<double> steps_s;
};

/// Whether a routine has an in-place route besides its copy route (in_place_pricing.hpp).
enum class InPlaceRoute { None, Available };

/// The platform a factorization is planned on (`platform`, the machine's). With an in-place
/// route that `mode` allows, the memory does not bound the plan: the planner would refuse
/// every layout whose copy does not fit beside the operands (or keep the caller's, the only
/// one left) before the in-place route, which needs only its surplus, is priced. Each route's
/// memory is checked when it is priced instead, against what each rank may really allocate
/// (agreed_prices, in_place_terms). The price of it: where the fastest copy does not fit, a
/// slower one that would is not looked for; the in-place route, which takes much less, is.
core::Platform planning_platform(core::Platform platform, InPlaceRoute in_place, TakeOverMode mode);

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
