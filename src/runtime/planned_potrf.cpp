#include "runtime/planned_potrf.hpp"

#include <complex>

#include "kernels/cholesky.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const CholeskyLayout& plan,
                                  const PotrfCall<T>& call, Workspace& workspace) {
  const bool lower = call.uplo == kernels::Uplo::Lower;
  TakeOver<T> take_over(context.comm, context.my_rank,
                        {{call.a.data, caller_view(context, call.a, call.n, call.n), plan.a.get(),
                          Role::InOut, mpi::Op::None, lower ? mpi::Part::Lower : mpi::Part::Upper}},
                        workspace);
  if (!take_over.move_in() || !take_over.set_up("")) return take_over.outcome();
  std::string failure;
  int info = 0;
  try {
    // INFO is at most N, which the caller passed as an int.
    info = static_cast<int>(kernels::cholesky<T>(call.uplo, take_over.planned(0), context.comm));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return take_over.move_out(failure, info);
}

#define HETSCAL_INSTANTIATE_PLANNED_POTRF(T)                                                    \
  template TakeOverOutcome run_planned<T>(const mpi::ContextInfo&, const CholeskyLayout&, \
                                                const PotrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_POTRF)
#undef HETSCAL_INSTANTIATE_PLANNED_POTRF

}  // namespace hetscal::runtime
