#include "runtime/potrf_route.hpp"

#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call) {
  return route_factorization<CholeskyLayout>(core::Routine::Cholesky, call, call.n, call.n);
}

#define HETSCAL_INSTANTIATE_POTRF_ROUTE(T) \
  template PotrfOutcome potrf_route<T>(const PotrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_POTRF_ROUTE)
#undef HETSCAL_INSTANTIATE_POTRF_ROUTE

}  // namespace hetscal::runtime
