#include "runtime/geqrf_route.hpp"

#include "kernels/scalar.hpp"
#include "runtime/geqrf_plan.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome geqrf_route(const GeqrfCall<T>& call) {
  return route_factorization<T>(core::Routine::QR, call.m, call.n, call, &ContextState::qr_layouts,
                                choose_qr_layout, run_planned_geqrf<T>);
}

#define HETSCAL_INSTANTIATE_GEQRF_ROUTE(T) \
  template FactorizationOutcome geqrf_route<T>(const GeqrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEQRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GEQRF_ROUTE

}  // namespace hetscal::runtime
