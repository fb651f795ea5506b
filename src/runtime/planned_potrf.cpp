#include "runtime/planned_potrf.hpp"

#include <complex>
#include <string>

#include "kernels/cholesky.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const CholeskyLayout& plan,
                                  const PotrfCall<T>& call, Workspace& workspace) {
  const bool lower = call.uplo == kernels::Uplo::Lower;
  TakeOverOutcome refused;
  std::optional<TakeOver<T>> take_over = agreed_take_over<T>(context.comm, context.my_rank, workspace, refused, [&] {
    return std::vector<TakeOverOperand<T>>{{call.a.data, caller_view(context, call.a, call.n, call.n), plan.a.get(),
                                            Role::InOut, mpi::Op::None, lower ? mpi::Part::Lower : mpi::Part::Upper}};
  });
  if (!take_over) return refused;
  if (!take_over->move_in() || !take_over->set_up("")) return take_over->outcome();
  std::string failure;
  int info = 0;
  try {
    // INFO is at most N, which the caller passed as an int.
    info = static_cast<int>(kernels::cholesky<T>(call.uplo, take_over->planned(0), context.comm));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!take_over->computed(failure, info)) return take_over->outcome();
  // A matrix that is not positive definite: what ScaLAPACK leaves in sub(A) then depends on
  // its own block size (the block columns before the failing one factored, the failing
  // block's diagonal block factored up to the failing minor, the rest updated but not
  // solved), which the planned layout's tiles do not follow. ScaLAPACK computes the call
  // again on the caller's data, untouched so far, so that sub(A) is exactly its partial
  // factor; only a failed factorization pays twice.
  const int minor = take_over->outcome().info;
  if (minor > 0) {
    return take_over->forward("the leading minor of order " + std::to_string(minor) +
                             " is not positive definite: ScaLAPACK leaves its own partial factor");
  }
  return take_over->write_back();
}

#define HETSCAL_INSTANTIATE_PLANNED_POTRF(T)                                                    \
  template TakeOverOutcome run_planned<T>(const mpi::ContextInfo&, const CholeskyLayout&, \
                                                const PotrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_POTRF)
#undef HETSCAL_INSTANTIATE_PLANNED_POTRF

}  // namespace hetscal::runtime
