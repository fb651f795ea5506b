#include "runtime/in_place_potrf.hpp"

#include <complex>
#include <optional>

#include "kernels/cholesky.hpp"
#include "kernels/scalar.hpp"
#include "runtime/in_place_sequence.hpp"

namespace hetscal::runtime {

namespace {

layout::StoredTiles triangle_of(kernels::Uplo uplo) {
  return uplo == kernels::Uplo::Lower ? layout::StoredTiles::LowerTriangle : layout::StoredTiles::UpperTriangle;
}

}  // namespace

template <typename T>
InPlacePotrf<T>::InPlacePotrf(const mpi::ContextInfo& context, const PotrfCall<T>& call,
                              const std::vector<double>& speeds)
    : InPlaceFactorization<T, PotrfCall<T>>(context, call, call.n, call.n, speeds, triangle_of(call.uplo)) {}

template <typename T>
double InPlacePotrf<T>::new_bytes(const Workspace& workspace) const {
  const double kernel =
      static_cast<double>(kernels::cholesky_workspace_bound(this->call_.n, this->a_.largest_tile())) * sizeof(T);
  return this->a_.overflow_growth(workspace) + kernel;
}

// The route's steps in the in-place sequence (in_place_sequence.hpp), and what they allocate.
template <typename T>
struct InPlacePotrf<T>::Steps {
  Steps(const InPlacePotrf& route_, Workspace& workspace_) : route(route_), workspace(workspace_) {}

  const InPlacePotrf& route;
  Workspace& workspace;
  SurplusBuffers<T> surplus;
  std::optional<kernels::PreparedCholesky<T>> factorization;

  void allocate() { route.a_.allocate(workspace, surplus); }
  void prepare() { factorization.emplace(route.call_.uplo, route.a_.planned(surplus), route.context_.comm); }
  void move_surplus(bool in) { route.a_.move_surplus(in, surplus); }
  std::int64_t factorize() { return factorization->run(); }
  void finish() {}
};

template <typename T>
TakeOverOutcome InPlacePotrf<T>::run(Workspace& workspace) const {
  Steps steps(*this, workspace);
  return run_in_place(this->context_.comm, steps);
}

#define HETSCAL_INSTANTIATE_IN_PLACE_POTRF(T) template class InPlacePotrf<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_POTRF)
#undef HETSCAL_INSTANTIATE_IN_PLACE_POTRF

}  // namespace hetscal::runtime
