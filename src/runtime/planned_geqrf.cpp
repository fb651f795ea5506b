#include "runtime/planned_geqrf.hpp"

#include <algorithm>
#include <vector>

#include "kernels/qr.hpp"
#include "kernels/scalar.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned_geqrf(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GeqrfCall<T>& call, Workspace& workspace) {
  std::vector<TakeOverOperand<T>> operands(1);
  operands[0] = {call.a.data, caller_view(context, call.a, call.m, call.n), plan.a.get(),
                 Role::InOut, mpi::Op::None, mpi::Part::Whole};
  std::vector<T> tau;
  TakeOverOutcome outcome = take_over<T>(
      context.comm, context.my_rank, std::move(operands), workspace, [&](PlannedOperands<T>& x) {
        // Allocated in the agreed compute stage, so a rank short of memory forwards them all.
        tau.resize(static_cast<std::size_t>(std::min(call.m, call.n)));
        kernels::qr<T>(x[0], tau.data(), context.comm, plan.options);
        return 0;  // PDGEQRF has no failure INFO: every matrix has a QR factorization
      });
  // τ is the same on every rank; writing it is local and cannot fail once checked.
  if (outcome.computed()) {
    write_scalapack_tau(context, call.a.desc, call.a.ja, call.m, call.n, tau.data(), call.tau);
  }
  return outcome;
}

#define HETSCAL_INSTANTIATE_PLANNED_GEQRF(T)                                              \
  template TakeOverOutcome run_planned_geqrf<T>(const mpi::ContextInfo&, const LuLayout&, \
                                                const GeqrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GEQRF)
#undef HETSCAL_INSTANTIATE_PLANNED_GEQRF

}  // namespace hetscal::runtime
