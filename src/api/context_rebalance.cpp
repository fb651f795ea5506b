// Native API: a context's matrices rebalanced when the speeds change (hetscal_context_rebalance,
// hetscal_rebalanced_elements, and the automatic rebalancing of api/kept_balanced.hpp, which
// takes the same path). Cartesian layouts keep their grid and move only the panel
// lines Beaumont2000's migrations reassign (api/rebalanced_layout.hpp); pattern layouts are
// planned afresh. Either way mpi::redistribute sends only the elements whose owner changed
// and copies the others within their process.
#include "api/context_rebalance.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/hetero_matrix.hpp"
#include "api/rebalanced_layout.hpp"
#include "core/adaptation/speed_tracking.hpp"
#include "core/common/error.hpp"
#include "hetscal/hetscal.h"
#include "mpi/agree_on_speeds.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/redistribute.hpp"
#include "runtime/context_state.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::api {
namespace {

// A status found on some process, the same on every one (the highest code wins).
int agreed_status(MPI_Comm comm, int status) {
  int agreed = status;
  mpi::check_mpi(MPI_Allreduce(&status, &agreed, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce of a status");
  return agreed;
}

// The speeds to rebalance for, the same on every process: the caller's (agreed), or the
// estimates the shim's adaptation holds for the context's BLACS grid.
// @throws InvalidArgument on every process when they differ, a value is not > 0, or nothing
//         has been learnt yet.
std::vector<double> target_speeds(const Context& context, const double* new_speeds) {
  if (new_speeds) {
    const std::size_t ranks = static_cast<std::size_t>(context.grid.num_ranks());
    return mpi::agree_on_speeds(context.grid.comm,
                                std::vector<double>(new_speeds, new_speeds + ranks))
        .speeds();
  }
  const runtime::ContextState& state = runtime::context_state(context.blacs_context);
  if (!state.speeds.tracker)
    throw InvalidArgument("hetscal: no speeds learnt yet on this BLACS grid (no call adapted)");
  return state.speeds.tracker->estimates();
}

// The context's layout for the new speeds, and the one planned from scratch for comparison.
struct Replanned {
  RebalancedLayout rebalanced;
  std::optional<ContextLayout> fresh;  ///< none when no fresh layout fits
  runtime::MachineFigures machine;
};

// A fresh plan replaces the kept structure only when the time model predicts it faster by
// more than the adaptation's re-planning threshold (core::TrackingRule): e.g. when the old
// grid left out a rank that is now fast, or holds one that is now too slow to be worth it.
bool fresh_pays(const Context& context, const core::Platform& platform, const ContextLayout& kept,
                const ContextLayout& fresh) {
  const core::Problem problem = context.request.problem();
  const double fresh_s = runtime::predicted_compute_seconds(platform, problem, fresh.candidate);
  try {
    const double kept_s = runtime::predicted_compute_seconds(platform, problem, kept.candidate);
    return fresh_s * (1.0 + core::TrackingRule{}.replan_threshold) < kept_s;
  } catch (const InvalidArgument&) {  // the model cannot price the kept grid: take the fresh one
    return true;
  }
}

// Deterministic: every process computes the same. @throws InvalidArgument / Error when a
// pattern context's fresh layout does not fit (it has no other).
Replanned replan(const Context& context, const std::vector<double>& speeds) {
  Replanned replanned;
  replanned.machine = runtime::measure_machine(context.grid.comm, speeds);
  try {
    replanned.fresh = plan_context_layout(context.request, speeds, replanned.machine.platform());
  } catch (const Error&) {
    if (!context.layout.cartesian()) throw;
  }
  if (context.layout.cartesian()) {
    replanned.rebalanced = rebalance_cartesian(context.layout, speeds);
    if (!replanned.fresh ||
        !fresh_pays(context, replanned.machine.platform(), replanned.rebalanced.layout,
                    *replanned.fresh))
      return replanned;
  }
  replanned.rebalanced = RebalancedLayout{*replanned.fresh};
  return replanned;
}

// Tile boundaries of both splits of one dimension, merged: the pieces on which both
// layouts give every element the same owner.
std::vector<std::int64_t> merged_bounds(const layout::TileSplit& a, const layout::TileSplit& b) {
  std::set<std::int64_t> bounds{a.extent()};
  for (std::int64_t t = 0; t < a.count(); ++t) bounds.insert(a.offset(t));
  for (std::int64_t t = 0; t < b.count(); ++t) bounds.insert(b.offset(t));
  return {bounds.begin(), bounds.end()};
}

// Elements of a rows×cols matrix whose owner differs between two layouts.
long long elements_changing_owner(const ContextLayout& from, const ContextLayout& to,
                                  std::int64_t rows, std::int64_t cols) {
  const auto a = from.distribution(rows, cols), b = to.distribution(rows, cols);
  const std::vector<std::int64_t> rb = merged_bounds(a->rows(), b->rows()),
                                  cb = merged_bounds(a->cols(), b->cols());
  long long changed = 0;
  for (std::size_t j = 0; j + 1 < cb.size(); ++j) {
    for (std::size_t i = 0; i + 1 < rb.size(); ++i) {
      const layout::GlobalTile ta{a->rows().tile_of(rb[i]), a->cols().tile_of(cb[j])};
      const layout::GlobalTile tb{b->rows().tile_of(rb[i]), b->cols().tile_of(cb[j])};
      if (a->owner(ta) != b->owner(tb)) changed += (rb[i + 1] - rb[i]) * (cb[j + 1] - cb[j]);
    }
  }
  return changed;
}

std::int64_t rows_of(const KeptMatrix& x) { return x.desc[field::kM - 1]; }
std::int64_t cols_of(const KeptMatrix& x) { return x.desc[field::kN - 1]; }

// What can be wrong with one matrix; when processes find different problems, the highest
// value is the one every process reports.
enum class MatrixProblem { None = 0, Capacity = 1, Array = 2, Descriptor = 3 };

// The problem and the matrix (0-based) as one number, so that one reduction agrees both.
long long problem_code(MatrixProblem problem, std::size_t index) {
  return (static_cast<long long>(problem) << 32) + static_cast<long long>(index);
}

std::string problem_text(long long code) {
  const std::string matrix = "matrix " + std::to_string((code & 0xffffffffLL) + 1);
  switch (static_cast<MatrixProblem>(code >> 32)) {
    case MatrixProblem::Descriptor:
      return matrix + "'s descriptor is not a hetscal descriptor of the context";
    case MatrixProblem::Array:
      return matrix + "'s array is missing or is another matrix's too";
    case MatrixProblem::Capacity:
      return matrix + "'s capacity is short on some process (hetscal_rebalanced_elements)";
    case MatrixProblem::None:
      break;
  }
  return "";
}

// The first problem of the matrices on this process (0: none): hetscal descriptors of
// `context`, distinct arrays holding the current local part and room for the one in `next`.
long long local_problem(const Context& context, const ContextLayout& next,
                        const std::vector<KeptMatrix>& matrices) {
  std::set<const double*> arrays;
  for (std::size_t k = 0; k < matrices.size(); ++k) {
    const KeptMatrix& x = matrices[k];
    Context* own = nullptr;
    if (!x.desc || check_hetero_descriptor(x.desc, 1, &own) != 0 || own != &context)
      return problem_code(MatrixProblem::Descriptor, k);
    const HeteroMatrix old = hetero_matrix(context, x.desc);
    const HeteroMatrix renewed = hetero_matrix(next, context.grid.my_rank, rows_of(x), cols_of(x));
    const long long needed =
        std::max(old.storage->local_elements(), renewed.storage->local_elements());
    if (needed == 0) continue;  // this process holds none of it, before or after
    if (!x.array || !arrays.insert(x.array).second) return problem_code(MatrixProblem::Array, k);
    if (x.capacity < needed) return problem_code(MatrixProblem::Capacity, k);
  }
  return 0;
}

// The matrices checked on every process for the move into `next`, the outcome agreed.
RebalanceOutcome checked_matrices(const Context& context, const ContextLayout& next,
                                  const std::vector<KeptMatrix>& matrices) {
  long long problem = local_problem(context, next, matrices);
  mpi::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &problem, 1, MPI_LONG_LONG, MPI_MAX, context.grid.comm),
                 "MPI_Allreduce");
  if (problem == 0) return {};
  return {HETSCAL_ERR_ARGUMENT, problem_text(problem)};
}

// Copies of the old local parts (the sources of the move, since each array is rewritten in
// place). @return false when this process lacks the memory.
bool copy_old_parts(const Context& context, const std::vector<KeptMatrix>& operands,
                    std::vector<std::vector<double>>& copies) {
  try {
    for (const KeptMatrix& x : operands) {
      const std::int64_t n = hetero_matrix(context, x.desc).storage->local_elements();
      copies.emplace_back(x.array, x.array + n);  // n = 0 where the array may be NULL
    }
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

// Moves every matrix from the context's layout into `next` in one round of messages and
// points the descriptors at the new local arrays (LLD). Fills the report's volumes.
void move_operands(const Context& context, const ContextLayout& next,
                   const std::vector<KeptMatrix>& operands, std::vector<std::vector<double>>& copies,
                   hetscal_rebalance_report& report) {
  std::vector<HeteroMatrix> olds, news;
  std::vector<mpi::MatrixMove> moves;
  for (const KeptMatrix& x : operands) {
    olds.push_back(hetero_matrix(context, x.desc));
    news.push_back(hetero_matrix(next, context.grid.my_rank, rows_of(x), cols_of(x)));
    moves.push_back({olds.back().distribution.get(), olds.back().storage.get(),
                     news.back().distribution.get(), news.back().storage.get(), mpi::Op::None});
  }
  const mpi::RedistributionPlan plan(context.grid.comm, moves);
  std::vector<const double*> sources;
  std::vector<double*> targets;
  for (std::size_t k = 0; k < operands.size(); ++k) {
    sources.push_back(copies[k].empty() ? nullptr : copies[k].data());
    targets.push_back(operands[k].array);
  }
  mpi::redistribute<double>(plan, sources, targets);
  long long volumes[2] = {plan.total_send(), plan.total_local()};
  mpi::check_mpi(MPI_Allreduce(MPI_IN_PLACE, volumes, 2, MPI_LONG_LONG, MPI_SUM, context.grid.comm),
                 "MPI_Allreduce of the moved volumes");
  report.moved_elements = volumes[0];
  report.kept_elements = volumes[1];
  for (std::size_t k = 0; k < operands.size(); ++k) {  // patterns keep LLD (unused)
    operands[k].desc[field::kMb - 1] = operands[k].desc[field::kNb - 1] =
        static_cast<int>(next.tile());  // a pattern planned afresh may take another tile
    if (const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(news[k].storage.get()))
      operands[k].desc[field::kLld - 1] = static_cast<int>(array->ld());
  }
}

// The report's figures that do not depend on the move: the plan's and the totals.
hetscal_rebalance_report planned_report(const Context& context, const Replanned& replanned,
                                        const std::vector<KeptMatrix>& matrices) {
  hetscal_rebalance_report report{};
  report.kept_structure = replanned.rebalanced.kept_structure ? 1 : 0;
  report.column_migrations = static_cast<int>(replanned.rebalanced.column_migrations);
  report.row_migrations = static_cast<int>(replanned.rebalanced.row_migrations);
  report.fresh_elements = replanned.fresh ? 0 : -1;
  for (const KeptMatrix& x : matrices) {
    report.total_elements += static_cast<long long>(rows_of(x)) * cols_of(x);
    if (replanned.fresh)
      report.fresh_elements +=
          elements_changing_owner(context.layout, *replanned.fresh, rows_of(x), cols_of(x));
  }
  return report;
}

}  // namespace

RebalanceOutcome check_kept_matrices(const Context& context,
                                     const std::vector<KeptMatrix>& matrices) {
  return checked_matrices(context, context.layout, matrices);
}

RebalanceOutcome rebalance_context(Context& context, const std::vector<double>& speeds,
                                   const std::vector<KeptMatrix>& matrices,
                                   hetscal_rebalance_report& out) {
  std::optional<Replanned> replanned;
  try {
    replanned = replan(context, speeds);
  } catch (const Error&) {  // InvalidArgument included: the same on every process
    return {HETSCAL_ERR_NO_PLAN, "no layout of the context fits these speeds"};
  }
  const ContextLayout& next = replanned->rebalanced.layout;
  RebalanceOutcome outcome = checked_matrices(context, next, matrices);
  if (outcome.status != HETSCAL_SUCCESS) return outcome;
  std::vector<std::vector<double>> copies;
  if (agreed_status(context.grid.comm, copy_old_parts(context, matrices, copies)
                                           ? HETSCAL_SUCCESS
                                           : HETSCAL_ERR_INTERNAL) != HETSCAL_SUCCESS)
    return {HETSCAL_ERR_INTERNAL, "no memory for a copy of the old local parts on some process"};
  hetscal_rebalance_report report = planned_report(context, *replanned, matrices);
  move_operands(context, next, matrices, copies, report);
  context.speeds = speeds;
  context.resources.machine = std::move(replanned->machine);
  context.layout = next;
  context.resources.plans.clear();  // its layouts were made for the old speeds
  out = report;
  return outcome;
}

std::vector<KeptMatrix> kept_matrices(int nmatrices, double* const* arrays,
                                      const long long* capacities, int* const* descs) {
  std::vector<KeptMatrix> matrices;
  for (int k = 0; k < nmatrices; ++k) matrices.push_back({arrays[k], capacities[k], descs[k]});
  return matrices;
}

namespace {

int rebalance(hetscal_context_t ctx, const double* new_speeds, int nmatrices, double* const* arrays,
              const long long* capacities, int* const* descs, hetscal_rebalance_report* out) {
  Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  if (!out || nmatrices < 0 || (nmatrices > 0 && (!arrays || !capacities || !descs)))
    return HETSCAL_ERR_ARGUMENT;
  std::vector<double> speeds;
  try {
    speeds = target_speeds(*context, new_speeds);
  } catch (const InvalidArgument&) {
    return HETSCAL_ERR_SPEEDS;
  }
  return rebalance_context(*context, speeds, kept_matrices(nmatrices, arrays, capacities, descs), *out)
      .status;
}

long long rebalanced_elements(hetscal_context_t ctx, const double* new_speeds, int m, int n) {
  Context* context = find_context(ctx);
  if (!context || m < 0 || n < 0) return -1;
  try {
    const std::vector<double> speeds = target_speeds(*context, new_speeds);
    const ContextLayout next = replan(*context, speeds).rebalanced.layout;
    return hetero_matrix(next, context->grid.my_rank, m, n).storage->local_elements();
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace
}  // namespace hetscal::api

extern "C" int hetscal_context_rebalance(hetscal_context_t ctx, const double* new_speeds,
                                         int nmatrices, double* const* arrays,
                                         const long long* capacities, int* const* descs,
                                         hetscal_rebalance_report* report) {
  try {
    return hetscal::api::rebalance(ctx, new_speeds, nmatrices, arrays, capacities, descs, report);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
}

extern "C" long long hetscal_rebalanced_elements(hetscal_context_t ctx, const double* new_speeds,
                                                 int m, int n) {
  return hetscal::api::rebalanced_elements(ctx, new_speeds, m, n);
}
