#include "runtime/getrf_route.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome getrf_route(const GetrfCall<T>& call) {
  return route_factorization<T>(core::Routine::LU, call.m, call.n, call, &ContextState::lu_layouts,
                                choose_lu_layout, run_planned_getrf<T>);
}

template FactorizationOutcome getrf_route<float>(const GetrfCall<float>&);
template FactorizationOutcome getrf_route<double>(const GetrfCall<double>&);

}  // namespace hetscal::runtime
