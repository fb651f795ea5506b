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
TakeOverOutcome run_planned_gemm(const mpi::ContextInfo& context, const GemmLayout& plan,
                                 const GemmCall<T>& call, Workspace& workspace) {
  const std::int64_t m = call.m, n = call.n, k = call.k;
  const bool ta = transposed(call.op_a), tb = transposed(call.op_b);
  std::vector<TakeOverOperand<T>> operands(3);
  // A and B are only read (role In): the const_cast never leads to a write.
  operands[0] = {const_cast<T*>(call.a.data), caller_view(context, call.a, ta ? k : m, ta ? m : k),
                 plan.a.get(), Role::In, kernels::move_op<T>(call.op_a)};
  operands[1] = {const_cast<T*>(call.b.data), caller_view(context, call.b, tb ? n : k, tb ? k : n),
                 plan.b.get(), Role::In, kernels::move_op<T>(call.op_b)};
  operands[2] = {call.c.data, caller_view(context, call.c, m, n), plan.c.get(),
                 call.beta == T(0) ? Role::Out : Role::InOut, mpi::Op::None};
  return take_over<T>(context.comm, context.my_rank, std::move(operands), workspace,
                      [&](PlannedOperands<T>& x) {
                        const mpi::GridCommunicators& grid = plan.grid_communicators(context.comm);
                        kernels::gemm<T>(kernels::Op::NoTrans, kernels::Op::NoTrans, call.alpha,
                                         {x[0].distribution, x[0].storage, x[0].data},
                                         {x[1].distribution, x[1].storage, x[1].data}, call.beta,
                                         x[2], context.comm, grid);
                        return 0;
                      });
}

#define HETSCAL_INSTANTIATE_PLANNED_GEMM(T)                                                \
  template TakeOverOutcome run_planned_gemm<T>(const mpi::ContextInfo&, const GemmLayout&, \
                                               const GemmCall<T>&, Workspace&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_PLANNED_GEMM)
#undef HETSCAL_INSTANTIATE_PLANNED_GEMM

}  // namespace hetscal::runtime
