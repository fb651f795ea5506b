#include "runtime/geqrf_route.hpp"

#include "runtime/geqrf_plan.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome geqrf_route(const GeqrfCall<T>& call) {
  return route_factorization<T>(core::Routine::QR, call.m, call.n, call, &ContextState::qr_layouts,
                                choose_qr_layout, run_planned_geqrf<T>);
}

template FactorizationOutcome geqrf_route<float>(const GeqrfCall<float>&);
template FactorizationOutcome geqrf_route<double>(const GeqrfCall<double>&);

}  // namespace hetscal::runtime
