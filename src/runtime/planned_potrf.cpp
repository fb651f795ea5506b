#include "runtime/planned_potrf.hpp"

#include <complex>

#include "kernels/cholesky.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned_potrf(const mpi::ContextInfo& context, const CholeskyLayout& plan,
                                  const PotrfCall<T>& call, Workspace& workspace) {
  const bool lower = call.uplo == kernels::Uplo::Lower;
  std::vector<TakeOverOperand<T>> operands(1);
  operands[0] = {call.a.data, caller_view(context, call.a, call.n, call.n), plan.a.get(),
                 Role::InOut, mpi::Op::None, lower ? mpi::Part::Lower : mpi::Part::Upper};
  return take_over<T>(context.comm, context.my_rank, std::move(operands), workspace,
                      [&](PlannedOperands<T>& x) {
                        // INFO is at most N, which the caller passed as an int.
                        return static_cast<int>(kernels::cholesky<T>(call.uplo, x[0], context.comm));
                      });
}

#define HETSCAL_INSTANTIATE_PLANNED_POTRF(T)                                                    \
  template TakeOverOutcome run_planned_potrf<T>(const mpi::ContextInfo&, const CholeskyLayout&, \
                                                const PotrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_POTRF)
#undef HETSCAL_INSTANTIATE_PLANNED_POTRF

}  // namespace hetscal::runtime
