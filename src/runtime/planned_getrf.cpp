#include "runtime/planned_getrf.hpp"

#include <algorithm>
#include <vector>

#include "kernels/lu.hpp"
#include "kernels/scalar.hpp"
#include "runtime/scalapack_pivots.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned_getrf(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GetrfCall<T>& call, Workspace& workspace) {
  std::vector<TakeOverOperand<T>> operands(1);
  operands[0] = {call.a.data, caller_view(context, call.a, call.m, call.n), plan.a.get(),
                 Role::InOut, mpi::Op::None, mpi::Part::Whole};
  std::vector<std::int64_t> pivots;
  TakeOverOutcome outcome = take_over<T>(
      context.comm, context.my_rank, std::move(operands), workspace, [&](PlannedOperands<T>& x) {
        // Allocated in the agreed compute stage, so a rank short of memory forwards them all.
        pivots.resize(static_cast<std::size_t>(std::min(call.m, call.n)));
        const std::int64_t info = kernels::lu<T>(x[0], pivots.data(), context.comm, plan.options);
        // Pivots that IPIV could not hold are found here, before anything is written.
        check_lu_pivots(pivots.data(), call.m, call.n);
        return static_cast<int>(info);  // at most min(M, N), which the caller passed as ints
      });
  // Pivots are the same on every rank; writing them is local and cannot fail.
  if (outcome.computed()) {
    write_scalapack_pivots(context, call.a.desc, call.a.ia, call.a.ja, call.m, call.n,
                           pivots.data(), call.ipiv);
  }
  return outcome;
}

#define HETSCAL_INSTANTIATE_PLANNED_GETRF(T)                                              \
  template TakeOverOutcome run_planned_getrf<T>(const mpi::ContextInfo&, const LuLayout&, \
                                                const GetrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GETRF)
#undef HETSCAL_INSTANTIATE_PLANNED_GETRF

}  // namespace hetscal::runtime
