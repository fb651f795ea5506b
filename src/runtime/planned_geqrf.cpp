#include "runtime/planned_geqrf.hpp"

#include <algorithm>
#include <vector>

#include "kernels/qr.hpp"
#include "kernels/scalar.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GeqrfCall<T>& call, Workspace& workspace) {
  TakeOverOutcome refused;
  std::optional<TakeOver<T>> take_over = agreed_take_over<T>(context.comm, context.my_rank, workspace, refused, [&] {
    return std::vector<TakeOverOperand<T>>{{call.a.data, caller_view(context, call.a, call.m, call.n), plan.a.get(),
                                            Role::InOut, mpi::Op::None, mpi::Part::Whole}};
  });
  if (!take_over) return refused;
  // τ is allocated in the agreed set-up, so a rank short of memory forwards them all.
  std::vector<T> tau;
  if (!take_over->move_in() ||
      !take_over->set_up(try_resize(tau, static_cast<std::size_t>(std::min(call.m, call.n))))) {
    return take_over->outcome();
  }
  std::string failure;
  try {
    kernels::qr<T>(take_over->planned(0), tau.data(), context.comm, plan.options);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // PDGEQRF has no failure INFO: every matrix has a QR factorization.
  const TakeOverOutcome outcome = take_over->move_out(failure, 0);
  // τ is the same on every rank; writing it is local and cannot fail once checked.
  if (outcome.computed()) {
    write_scalapack_tau(context, call.a.desc, call.a.ja, call.m, call.n, tau.data(), call.tau);
  }
  return outcome;
}

#define HETSCAL_INSTANTIATE_PLANNED_GEQRF(T)                                              \
  template TakeOverOutcome run_planned<T>(const mpi::ContextInfo&, const LuLayout&, \
                                                const GeqrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GEQRF)
#undef HETSCAL_INSTANTIATE_PLANNED_GEQRF

}  // namespace hetscal::runtime
