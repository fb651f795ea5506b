#include "runtime/in_place_getrf.hpp"

#include <algorithm>
#include <complex>
#include <optional>

#include "kernels/scalar.hpp"
#include "runtime/in_place_sequence.hpp"
#include "runtime/scalapack_pivots.hpp"

namespace hetscal::runtime {

template <typename T>
InPlaceGetrf<T>::InPlaceGetrf(const mpi::ContextInfo& context, const GetrfCall<T>& call,
                              const std::vector<double>& speeds)
    : InPlaceFactorization<T, GetrfCall<T>>(context, call, call.m, call.n, speeds, layout::StoredTiles::All),
      options_{kernels::LuPanelRank::Fastest, speeds} {}

template <typename T>
double InPlaceGetrf<T>::new_bytes(const Workspace& workspace) const {
  const GetrfCall<T>& call = this->call_;
  const std::int64_t kernel =
      kernels::lu_workspace_bytes(this->a_.planned(SurplusBuffers<T>{}), this->context_.my_rank, options_);
  const std::int64_t pivots = std::min(call.m, call.n);
  return this->a_.overflow_growth(workspace) + static_cast<double>(kernel) +
         static_cast<double>(pivots) * sizeof(std::int64_t);
}

// The route's steps in the in-place sequence (in_place_sequence.hpp), and what they allocate.
template <typename T>
struct InPlaceGetrf<T>::Steps {
  Steps(const InPlaceGetrf& route_, Workspace& workspace_) : route(route_), workspace(workspace_) {}

  const InPlaceGetrf& route;
  Workspace& workspace;
  SurplusBuffers<T> surplus;
  std::vector<std::int64_t> pivots;
  std::optional<kernels::PreparedLu<T>> factorization;

  void allocate() {
    route.a_.allocate(workspace, surplus);
    pivots.resize(static_cast<std::size_t>(std::min(route.call_.m, route.call_.n)));
  }
  void prepare() { factorization.emplace(route.a_.planned(surplus), route.context_.comm, route.options_); }
  void move_surplus(bool in) { route.a_.move_surplus(in, surplus); }
  std::int64_t factorize() { return factorization->run(pivots.data()); }
  // Pivots are the same on every rank and within sub(A)'s rows (IA+M-1 fits in an int);
  // writing them is local.
  void finish() {
    const GetrfCall<T>& call = route.call_;
    check_lu_pivots(pivots.data(), call.m, call.n);
    write_scalapack_pivots(route.context_, call.a.desc, call.a.ia, call.a.ja, call.m, call.n, pivots.data(),
                           call.ipiv);
  }
};

template <typename T>
TakeOverOutcome InPlaceGetrf<T>::run(Workspace& workspace) const {
  Steps steps(*this, workspace);
  return run_in_place(this->context_.comm, steps);
}

#define HETSCAL_INSTANTIATE_IN_PLACE_GETRF(T) template class InPlaceGetrf<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_GETRF)
#undef HETSCAL_INSTANTIATE_IN_PLACE_GETRF

}  // namespace hetscal::runtime
