#include "runtime/planned_gemm.hpp"

#include <complex>
#include <memory>

#include "kernels/gemm.hpp"
#include "kernels/move_op.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::runtime {
namespace {

bool transposed(kernels::Op op) { return op != kernels::Op::NoTrans; }

}  // namespace

template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const GemmLayout& plan,
                                 const GemmCall<T>& call, Workspace& workspace) {
  const std::int64_t m = call.m, n = call.n, k = call.k;
  const bool ta = transposed(call.op_a), tb = transposed(call.op_b);
  TakeOverOutcome refused;
  std::optional<TakeOver<T>> take_over = agreed_take_over<T>(context.comm, context.my_rank, workspace, refused, [&] {
    std::vector<TakeOverOperand<T>> operands(3);
    // A and B are only read (role In): the const_cast never leads to a write.
    operands[0] = {const_cast<T*>(call.a.data), caller_view(context, call.a, ta ? k : m, ta ? m : k),
                   plan.a.get(), Role::In, kernels::move_op<T>(call.op_a)};
    operands[1] = {const_cast<T*>(call.b.data), caller_view(context, call.b, tb ? n : k, tb ? k : n),
                   plan.b.get(), Role::In, kernels::move_op<T>(call.op_b)};
    operands[2] = {call.c.data, caller_view(context, call.c, m, n), plan.c.get(),
                   call.beta == T(0) ? Role::Out : Role::InOut, mpi::Op::None};
    return operands;
  });
  if (!take_over) return refused;
  if (!take_over->move_in() || !take_over->set_up("")) return take_over->outcome();
  std::string failure;
  try {
    const kernels::DistributedMatrix<T> a = take_over->planned(0), b = take_over->planned(1);
    kernels::DistributedMatrix<T> c = take_over->planned(2);
    kernels::gemm<T>(kernels::Op::NoTrans, kernels::Op::NoTrans, call.alpha,
                     {a.distribution, a.storage, a.data}, {b.distribution, b.storage, b.data},
                     call.beta, c, context.comm, plan.grid_communicators(context.comm));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return take_over->move_out(failure, 0);
}

#define HETSCAL_INSTANTIATE_PLANNED_GEMM(T)                                                \
  template TakeOverOutcome run_planned<T>(const mpi::ContextInfo&, const GemmLayout&, \
                                               const GemmCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GEMM)
#undef HETSCAL_INSTANTIATE_PLANNED_GEMM

}  // namespace hetscal::runtime
