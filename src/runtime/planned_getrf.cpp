#include "runtime/planned_getrf.hpp"

#include <algorithm>
#include <vector>

#include "kernels/lu.hpp"
#include "kernels/scalar.hpp"
#include "runtime/scalapack_pivots.hpp"

namespace hetscal::runtime {

template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GetrfCall<T>& call, Workspace& workspace) {
  TakeOverOutcome refused;
  std::optional<TakeOver<T>> take_over = agreed_take_over<T>(context.comm, context.my_rank, workspace, refused, [&] {
    return std::vector<TakeOverOperand<T>>{{call.a.data, caller_view(context, call.a, call.m, call.n), plan.a.get(),
                                            Role::InOut, mpi::Op::None, mpi::Part::Whole}};
  });
  if (!take_over) return refused;
  // The pivots are allocated in the agreed set-up, so a rank short of memory forwards them all.
  std::vector<std::int64_t> pivots;
  if (!take_over->move_in() ||
      !take_over->set_up(try_resize(pivots, static_cast<std::size_t>(std::min(call.m, call.n))))) {
    return take_over->outcome();
  }
  std::string failure;
  int info = 0;
  try {
    // INFO is at most min(M, N), which the caller passed as ints.
    info = static_cast<int>(kernels::lu<T>(take_over->planned(0), pivots.data(), context.comm, plan.options));
    // Pivots that IPIV could not hold are found here, before anything is written.
    check_lu_pivots(pivots.data(), call.m, call.n);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  const TakeOverOutcome outcome = take_over->move_out(failure, info);
  // Pivots are the same on every rank; writing them is local and cannot fail.
  if (outcome.computed()) {
    write_scalapack_pivots(context, call.a.desc, call.a.ia, call.a.ja, call.m, call.n,
                           pivots.data(), call.ipiv);
  }
  return outcome;
}

#define HETSCAL_INSTANTIATE_PLANNED_GETRF(T)                                              \
  template TakeOverOutcome run_planned<T>(const mpi::ContextInfo&, const LuLayout&, \
                                                const GetrfCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GETRF)
#undef HETSCAL_INSTANTIATE_PLANNED_GETRF

}  // namespace hetscal::runtime
