#pragma once
/// @file in_place_factorization_route.hpp
/// One call of a factorization that has an in-place route (PxPOTRF: in_place_potrf.hpp,
/// PxGETRF: in_place_getrf.hpp, PxGEQRF: in_place_geqrf.hpp), as route() drives it: the factorizations' shared part
/// (facts, plan, the copy route; factorization_route.hpp) and the in-place route priced apart
/// (in_place_pricing.hpp): its steps priced by the time model on the in-place layout itself,
/// its surplus's moves, its own first touch. Under auto the cheaper route that fits is taken.
#include <cstdint>
#include <memory>
#include <optional>

#include "core/time_models/time_model_steps.hpp"
#include "runtime/factorization_route.hpp"
#include "runtime/in_place_moves.hpp"
#include "runtime/in_place_pricing.hpp"
#include "runtime/planned_call.hpp"

namespace hetscal::runtime {

/// @tparam InPlace the routine's in-place route (constructed from the context, the call and
///   the agreed speeds; surplus(), candidate(), run(workspace)).
template <typename T, typename Call, typename Layout, typename InPlace>
class InPlaceFactorizationRoute {
 public:
  /// @param surplus_trips how many times the surplus's volume moves: 1 for a triangle moved
  ///   in and the same triangle back (one whole matrix's volume, as the model prices the
  ///   copy's moves, core/time_models/time_model.cpp), 2 for a whole matrix in and back.
  InPlaceFactorizationRoute(core::Routine routine, const ContextState& state, const Call& call, std::int64_t m,
                            std::int64_t n, double surplus_trips)
      : call_(call), shared_(routine, state, call, m, n, InPlaceRoute::Available), surplus_trips_(surplus_trips) {}

  RoutedCall facts() const { return shared_.facts(); }
  std::shared_ptr<const Layout> plan(ContextState& state) const { return shared_.plan(state); }

  Prices price(ContextState& state, const Layout& plan) const {
    const Prices copy = shared_.price(state, plan);
    const MachineFigures& machine = machine_figures(state);
    return choose_take_over_route(
        state, copy, operand_bytes<T>(*state.context, {call_.a.desc}), in_place_,
        [&] { in_place_.emplace(*state.context, call_, state.speeds.values); },
        [&](const InPlace& in_place, InPlaceTerms& terms) {
          const core::Platform platform = machine.platform_for<T>();  // allocates: in the agreed stage
          const SurplusElements elements = in_place.surplus();
          terms.moves_s = surplus_trips_ * core::redistribution_time(platform.network, elements.held,
                                                                    elements.planned, elements.kept);
          terms.steps_s = predicted_compute_seconds(platform, shared_.problem(), in_place.candidate());
        });
  }

  TakeOverOutcome run(ContextState& state, const Layout& plan) const {
    if (in_place_) return in_place_->run(state.resources.workspace);
    return shared_.run(state, plan);
  }

 private:
  const Call& call_;
  FactorizationRoute<T, Call, Layout> shared_;
  double surplus_trips_;
  /// The in-place route, when price() chose it.
  mutable std::optional<InPlace> in_place_;
};

/// Decides, runs and reports one factorization call of `routine`, planned as a Layout, by
/// its copy route or its in-place route. Collective over the call's context.
/// @param m,n sub(A)'s rows and columns (Cholesky: N, N); @param surplus_trips as
///        InPlaceFactorizationRoute's.
/// @pre the call passed its routine's argument checks on every rank; M, N >= 1.
/// @return Computed (sub(A) holds the factors, info ScaLAPACK's INFO), Forward (sub(A)
///         untouched: call ScaLAPACK) or FailedAfterWrite (sub(A) lost).
template <typename Layout, typename InPlace, typename T, template <typename> class Call>
FactorizationOutcome route_in_place_factorization(core::Routine routine, const Call<T>& call, std::int64_t m,
                                                  std::int64_t n, double surplus_trips) {
  ContextState& state = context_state(call.a.desc.context);
  // As facts() gives them: N for a Cholesky, M×N for the others.
  const bool cholesky = routine == core::Routine::Cholesky;
  const CallSizes sizes{{routine, scalar_type_of<T>()}, {cholesky ? n : m, n, 0}, cholesky ? 1u : 2u};
  const TakeOverOutcome outcome = route(state, sizes, [&] {
    return InPlaceFactorizationRoute<T, Call<T>, Layout, InPlace>(routine, state, call, m, n, surplus_trips);
  });
  return {outcome.status, outcome.computed() ? outcome.info : 0};
}

}  // namespace hetscal::runtime
