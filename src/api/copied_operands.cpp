#include "api/copied_operands.hpp"

#include "mpi/agreement.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::api {
namespace detail {

runtime::Role role_of(Written written) {
  return written == Written::Nothing ? runtime::Role::In : runtime::Role::InOut;
}

mpi::Part part_of(Written written) {
  switch (written) {
    case Written::LowerTriangle: return mpi::Part::Lower;
    case Written::UpperTriangle: return mpi::Part::Upper;
    default: return mpi::Part::Whole;
  }
}

void refused(const runtime::TakeOverOutcome& outcome) {
  throw Error("hetscal: the call was not computed: " + outcome.reason);
}

}  // namespace detail

std::shared_ptr<const ContextLayout> planned_layout(const Context& context, core::Routine routine,
                                                    std::int64_t rows, std::int64_t cols,
                                                    const mpi::CallerMatrix& caller) {
  // The descriptor as describe_caller_matrix parsed it after the checks.
  const layout::BlockCyclicDistribution& sub_a = *caller.distribution;
  const auto ia = static_cast<int>(sub_a.submatrix().row + 1);
  const auto ja = static_cast<int>(sub_a.submatrix().col + 1);
  // Deterministic: every process plans the same layout or refuses alike (nullptr); memory is
  // not, so the planning is agreed (StageFailed on every process).
  std::shared_ptr<const ContextLayout> planned;
  mpi::run_agreed(context.grid.comm, "plan", [&] {
    try {
      planned = context.plan_factorization(routine, rows, cols,
                                           runtime::caller_layout(context.grid, sub_a.descriptor(), ia, ja));
    } catch (const Error&) {
      planned = nullptr;
    }
  });
  return planned;
}

}  // namespace hetscal::api
