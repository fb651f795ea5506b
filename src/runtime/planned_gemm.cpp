#include "kernels/planned_gemm.hpp"

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/gemm.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/redistribute.hpp"

namespace hetscal::kernels {
namespace {

// A caller's sub(X) (rows×cols as stored, before op) on the caller's grid.
struct CallerView {
  std::unique_ptr<layout::BlockCyclicDistribution> distribution;
  std::unique_ptr<layout::CartesianLocalLayout> storage;
};

template <typename T>
CallerView caller_view(const mpi::ContextInfo& context, const CallerOperand<T>& operand,
                       std::int64_t rows, std::int64_t cols) {
  const layout::ProcessGrid grid(context.nprow, context.npcol, context.rank_table,
                                 context.num_ranks());
  CallerView view;
  view.distribution = std::make_unique<layout::BlockCyclicDistribution>(
      layout::Descriptor::parse(operand.desc),
      layout::SubmatrixExtent{operand.ia - 1, operand.ja - 1, rows, cols}, grid);
  view.storage = std::make_unique<layout::CartesianLocalLayout>(
      layout::caller_local_layout(*view.distribution, context.my_rank));
  return view;
}

// This rank's part of one planned matrix.
struct PlannedPart {
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<double> data;
};

PlannedPart planned_part(const layout::Distribution& d, int rank) {
  PlannedPart part;
  part.storage = layout::make_local_layout(d, rank);
  part.data.assign(static_cast<std::size_t>(part.storage->local_elements()), 0.0);
  return part;
}

mpi::Op move_op(Op op) { return op == Op::Trans ? mpi::Op::Transpose : mpi::Op::None; }

// Everything one call needs before any data moves: built locally on every rank, so that a
// failure (memory, above all) is known to all ranks before the first message.
struct Prepared {
  CallerView a, b, c;
  PlannedPart pa, pb, pc;
  std::unique_ptr<mpi::RedistributionPlan> in, out;
  std::vector<const double*> sources;
  std::vector<double*> targets;
};

std::unique_ptr<Prepared> prepare(const mpi::ContextInfo& context, const GemmLayout& plan,
                                  const GemmCall& call) {
  const bool trans_a = call.op_a == Op::Trans, trans_b = call.op_b == Op::Trans;
  auto p = std::make_unique<Prepared>();
  p->a = caller_view(context, call.a, trans_a ? call.k : call.m, trans_a ? call.m : call.k);
  p->b = caller_view(context, call.b, trans_b ? call.n : call.k, trans_b ? call.k : call.n);
  p->c = caller_view(context, call.c, call.m, call.n);
  const int me = context.my_rank;
  p->pa = planned_part(*plan.a, me);
  p->pb = planned_part(*plan.b, me);
  p->pc = planned_part(*plan.c, me);
  // In: op(A), op(B), and C unless beta = 0 (then C is never read: it may hold NaN).
  std::vector<mpi::MatrixMove> moves_in{{p->a.distribution.get(), p->a.storage.get(), plan.a.get(),
                                         p->pa.storage.get(), move_op(call.op_a)},
                                        {p->b.distribution.get(), p->b.storage.get(), plan.b.get(),
                                         p->pb.storage.get(), move_op(call.op_b)}};
  p->sources = {call.a.data, call.b.data};
  p->targets = {p->pa.data.data(), p->pb.data.data()};
  if (call.beta != 0.0) {
    moves_in.push_back({p->c.distribution.get(), p->c.storage.get(), plan.c.get(),
                        p->pc.storage.get(), mpi::Op::None});
    p->sources.push_back(call.c.data);
    p->targets.push_back(p->pc.data.data());
  }
  p->in = std::make_unique<mpi::RedistributionPlan>(context.comm, moves_in);
  p->out = std::make_unique<mpi::RedistributionPlan>(
      context.comm,
      std::vector<mpi::MatrixMove>{{plan.c.get(), p->pc.storage.get(), p->c.distribution.get(),
                                    p->c.storage.get(), mpi::Op::None}});
  return p;
}

}  // namespace

void run_planned_gemm(const mpi::ContextInfo& context, const GemmLayout& plan,
                      const GemmCall& call) {
  std::unique_ptr<Prepared> p;
  std::string failure;
  try {
    p = prepare(context, plan, call);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  int ready = failure.empty() ? 1 : 0, all_ready = 0;
  MPI_Allreduce(&ready, &all_ready, 1, MPI_INT, MPI_MIN, context.comm);
  if (!all_ready) {  // every rank throws here, before any data moved: all forward alike
    throw Error("a rank could not set up the planned GEMM" +
                (failure.empty() ? "" : ": " + failure));
  }
  mpi::redistribute<double>(*p->in, p->sources, p->targets);
  gemm<double>(Op::NoTrans, Op::NoTrans, call.alpha,
               {plan.a.get(), p->pa.storage.get(), p->pa.data.data()},
               {plan.b.get(), p->pb.storage.get(), p->pb.data.data()}, call.beta,
               {plan.c.get(), p->pc.storage.get(), p->pc.data.data()}, context.comm);
  mpi::redistribute<double>(*p->out, p->pc.data.data(), call.c.data);
}

}  // namespace hetscal::kernels
