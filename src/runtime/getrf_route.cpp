#include "runtime/getrf_route.hpp"

#include <optional>

#include "kernels/scalar.hpp"
#include "runtime/in_place_getrf.hpp"
#include "runtime/in_place_pricing.hpp"

namespace hetscal::runtime {
namespace {

// One PxGETRF call, as route() drives it: the factorizations' shared part (facts, plan, the
// copy route), and the in-place route when HETSCAL_TAKE_OVER asks for it
// (in_place_pricing.hpp), as PxPOTRF's (potrf_route.cpp).
template <typename T>
class GetrfRoute {
 public:
  GetrfRoute(const ContextState& state, const GetrfCall<T>& call)
      : call_(call), shared_(core::Routine::LU, state, call, call.m, call.n) {}

  RoutedCall facts() const { return shared_.facts(); }
  std::shared_ptr<const LuLayout> plan(ContextState& state) const { return shared_.plan(state); }

  Prices price(ContextState& state, const LuLayout& plan) const {
    return choose_take_over_route(state, shared_.price(state, plan), operand_bytes<T>(*state.context, {call_.a.desc}),
                                  in_place_,
                                  [&] { in_place_.emplace(*state.context, call_, state.speeds.values); });
  }

  TakeOverOutcome run(ContextState& state, const LuLayout& plan) const {
    if (in_place_) return in_place_->run(state.resources.workspace);
    return shared_.run(state, plan);
  }

 private:
  const GetrfCall<T>& call_;
  FactorizationRoute<T, GetrfCall<T>, LuLayout> shared_;
  /// The in-place route, when price() chose it.
  mutable std::optional<InPlaceGetrf<T>> in_place_;
};

}  // namespace

template <typename T>
FactorizationOutcome getrf_route(const GetrfCall<T>& call) {
  ContextState& state = context_state(call.a.desc[layout::field9::kCtxt - 1]);
  const TakeOverOutcome outcome = route(state, [&] { return GetrfRoute<T>(state, call); });
  return {outcome.status, outcome.computed() ? outcome.info : 0};
}

#define HETSCAL_INSTANTIATE_GETRF_ROUTE(T) \
  template FactorizationOutcome getrf_route<T>(const GetrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GETRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GETRF_ROUTE

}  // namespace hetscal::runtime
