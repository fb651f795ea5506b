#include "runtime/in_place_geqrf.hpp"

#include <algorithm>
#include <complex>
#include <optional>

#include "kernels/scalar.hpp"
#include "kernels/scalar_buffer.hpp"
#include "runtime/in_place_sequence.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::runtime {

template <typename T>
InPlaceGeqrf<T>::InPlaceGeqrf(const mpi::ContextInfo& context, const GeqrfCall<T>& call,
                              const std::vector<double>& speeds)
    : InPlaceFactorization<T, GeqrfCall<T>>(context, call, call.m, call.n, speeds,
                                            layout::StoredTiles::All),
      options_{kernels::LuPanelRank::Fastest, speeds} {}

template <typename T>
double InPlaceGeqrf<T>::new_bytes(const Workspace& workspace) const {
  const GeqrfCall<T>& call = this->call_;
  const std::int64_t kernel =
      kernels::qr_workspace_bytes(this->a_.planned(SurplusBuffers<T>{}), this->context_.my_rank, options_);
  const std::int64_t tau = std::min(call.m, call.n);
  return this->a_.overflow_growth(workspace) + static_cast<double>(kernel) + static_cast<double>(tau) * sizeof(T);
}

// The route's steps in the in-place sequence (in_place_sequence.hpp), and what they allocate.
template <typename T>
struct InPlaceGeqrf<T>::Steps {
  Steps(const InPlaceGeqrf& route_, Workspace& workspace_) : route(route_), workspace(workspace_) {}

  const InPlaceGeqrf& route;
  Workspace& workspace;
  SurplusBuffers<T> surplus;
  kernels::ScalarBuffer<T> tau;
  std::optional<kernels::PreparedQr<T>> factorization;

  void allocate() {
    route.a_.allocate(workspace, surplus);
    tau.resize(static_cast<std::size_t>(std::min(route.call_.m, route.call_.n)));
  }
  void prepare() {
    factorization.emplace(route.a_.planned(surplus), route.context_.comm, route.options_);
  }
  void move_surplus(bool in) { route.a_.move_surplus(in, surplus); }
  // PDGEQRF has no failure INFO: every matrix has a QR factorization.
  std::int64_t factorize() {
    factorization->run(tau.data());
    return 0;
  }
  // τ is the same on every rank; writing it is local.
  void finish() {
    const GeqrfCall<T>& call = route.call_;
    write_scalapack_tau(route.context_, call.a.desc, call.a.ja, call.m, call.n, tau.data(),
                        call.tau);
  }
};

template <typename T>
TakeOverOutcome InPlaceGeqrf<T>::run(Workspace& workspace) const {
  Steps steps(*this, workspace);
  return run_in_place(this->context_.comm, steps);
}

#define HETSCAL_INSTANTIATE_IN_PLACE_GEQRF(T) template class InPlaceGeqrf<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_GEQRF)
#undef HETSCAL_INSTANTIATE_IN_PLACE_GEQRF

}  // namespace hetscal::runtime
