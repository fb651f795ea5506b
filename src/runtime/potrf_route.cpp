#include "runtime/potrf_route.hpp"

namespace hetscal::runtime {

template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call) {
  return route_factorization<T>(core::Routine::Cholesky, call.n, call.n, call,
                                &ContextState::cholesky_layouts, choose_cholesky_layout,
                                run_planned_potrf<T>);
}

template PotrfOutcome potrf_route<float>(const PotrfCall<float>&);
template PotrfOutcome potrf_route<double>(const PotrfCall<double>&);

}  // namespace hetscal::runtime
