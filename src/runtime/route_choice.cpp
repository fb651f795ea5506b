#include "runtime/route_choice.hpp"

#include <algorithm>
#include <limits>

namespace hetscal::runtime {
namespace {

// "in place: predicted 14.6 s, copy 18.3 s"; the other's price is its reason not to run
// when it cannot.
std::string note(const Prices& taken, const Prices& other) {
  const std::string other_text =
      other.no_route.empty() ? other.route + " " + seconds_text(other.heterogeneous_s) : other.no_route;
  return taken.route + ": predicted " + seconds_text(taken.heterogeneous_s) + ", " + other_text;
}

// The in-place route's steps as the model knows them (route_choice.hpp): priced on its own
// layout, or the copy plan's (what remains of the copy's price once its own moves and first
// touch are taken out: compute, panels, SUMMA's broadcasts; never negative, whatever
// rounding) at steps_factor, never faster.
double in_place_steps_s(const Prices& copy, const InPlaceTerms& in_place) {
  if (in_place.steps_s) return *in_place.steps_s;
  const double copy_steps_s = std::max(0.0, copy.heterogeneous_s - copy.moves_s - copy.first_touch_s);
  return copy_steps_s * std::max(1.0, in_place.steps_factor);
}

}  // namespace

core::Platform planning_platform(core::Platform platform, InPlaceRoute in_place, TakeOverMode mode) {
  if (in_place == InPlaceRoute::None || mode == TakeOverMode::Copy) return platform;
  // The largest finite figure: every layout's needs are a fraction of it (the platform's
  // checks want memory finite and > 0).
  for (core::Processor& processor : platform.processors) processor.memory_bytes = std::numeric_limits<double>::max();
  return platform;
}

Prices in_place_prices(const Prices& copy, const InPlaceTerms& in_place) {
  Prices prices = copy;
  const double steps_s = in_place_steps_s(copy, in_place) * (1.0 + kInPlaceStepsMargin);
  prices.heterogeneous_s = steps_s + in_place.moves_s + in_place.first_touch_s;
  prices.moves_s = in_place.moves_s;
  prices.first_touch_s = in_place.first_touch_s;
  prices.first_touch_bytes = in_place.first_touch_bytes;
  prices.no_route = in_place.problem;
  prices.route = "in place";
  prices.route_note.clear();
  return prices;
}

Prices choose_take_over_route(TakeOverMode mode, const Prices& copy, const InPlaceTerms& in_place) {
  if (mode == TakeOverMode::Copy) return copy;
  Prices in_place_route = in_place_prices(copy, in_place);
  if (mode == TakeOverMode::InPlace) return in_place_route;
  const bool copy_fits = copy.no_route.empty(), in_place_fits = in_place_route.no_route.empty();
  if (!copy_fits && !in_place_fits) {
    Prices neither = copy;
    neither.no_route = copy.no_route + "; " + in_place_route.no_route;
    return neither;
  }
  if (in_place_fits && (!copy_fits || in_place_route.heterogeneous_s < copy.heterogeneous_s)) {
    in_place_route.route_note = note(in_place_route, copy);
    return in_place_route;
  }
  Prices copy_route = copy;
  copy_route.route_note = note(copy, in_place_route);
  return copy_route;
}

}  // namespace hetscal::runtime
