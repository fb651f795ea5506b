#include "runtime/potrf_route.hpp"

#include "kernels/scalar.hpp"
#include "runtime/in_place_factorization_route.hpp"
#include "runtime/in_place_potrf.hpp"

namespace hetscal::runtime {

template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call) {
  // One triangle in and the same triangle back: the surplus's volume moves once.
  return route_in_place_factorization<CholeskyLayout, InPlacePotrf<T>>(core::Routine::Cholesky, call, call.n, call.n, 1.0);
}

#define HETSCAL_INSTANTIATE_POTRF_ROUTE(T) \
  template PotrfOutcome potrf_route<T>(const PotrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_POTRF_ROUTE)
#undef HETSCAL_INSTANTIATE_POTRF_ROUTE

}  // namespace hetscal::runtime
