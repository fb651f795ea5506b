#include "runtime/potrf_route.hpp"

#include <optional>

#include "core/time_models/time_model_steps.hpp"
#include "kernels/scalar.hpp"
#include "runtime/in_place_potrf.hpp"
#include "runtime/in_place_pricing.hpp"

namespace hetscal::runtime {
namespace {

// One PxPOTRF call, as route() drives it: the factorizations' shared part (facts, plan, the
// copy route), and the in-place route priced apart (in_place_pricing.hpp): its steps priced
// by the time model on the in-place layout, its surplus's moves, its own first touch.
template <typename T>
class PotrfRoute {
 public:
  PotrfRoute(const ContextState& state, const PotrfCall<T>& call)
      : call_(call), shared_(core::Routine::Cholesky, state, call, call.n, call.n, InPlaceRoute::Available) {}

  RoutedCall facts() const { return shared_.facts(); }
  std::shared_ptr<const CholeskyLayout> plan(ContextState& state) const { return shared_.plan(state); }

  Prices price(ContextState& state, const CholeskyLayout& plan) const {
    const Prices copy = shared_.price(state, plan);
    const MachineFigures& machine = machine_figures(state);
    return choose_take_over_route(
        state, copy, operand_bytes<T>(*state.context, {call_.a.desc}), in_place_,
        [&] { in_place_.emplace(*state.context, call_, state.speeds.values); },
        [&](const InPlacePotrf<T>& in_place, InPlaceTerms& terms) {
          const core::Platform platform = machine.platform_for<T>();  // allocates: in the agreed stage
          // One triangle in and the same triangle back: one whole matrix's volume, as the model
          // prices the copy's moves (core/time_models/time_model.cpp).
          const SurplusElements elements = in_place.surplus();
          terms.moves_s = core::redistribution_time(platform.network, elements.held, elements.planned, elements.kept);
          terms.steps_s = predicted_compute_seconds(platform, shared_.problem(), in_place.candidate());
        });
  }

  TakeOverOutcome run(ContextState& state, const CholeskyLayout& plan) const {
    if (in_place_) return in_place_->run(state.resources.workspace);
    return shared_.run(state, plan);
  }

 private:
  const PotrfCall<T>& call_;
  FactorizationRoute<T, PotrfCall<T>, CholeskyLayout> shared_;
  /// The in-place route, when price() chose it.
  mutable std::optional<InPlacePotrf<T>> in_place_;
};

}  // namespace

template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call) {
  ContextState& state = context_state(call.a.desc[layout::field9::kCtxt - 1]);
  const TakeOverOutcome outcome = route(state, [&] { return PotrfRoute<T>(state, call); });
  return {outcome.status, outcome.computed() ? outcome.info : 0};
}

#define HETSCAL_INSTANTIATE_POTRF_ROUTE(T) \
  template PotrfOutcome potrf_route<T>(const PotrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_POTRF_ROUTE)
#undef HETSCAL_INSTANTIATE_POTRF_ROUTE

}  // namespace hetscal::runtime
