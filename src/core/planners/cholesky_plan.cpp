#include "core/planners/cholesky_plan.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "core/common/error.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/planners/cholesky_ordering.hpp"
#include "core/planners/model_candidates.hpp"

namespace hetscal::core {
namespace {

/// "<kind> p" or "<kind> pxq", short enough for core::format_predictions' 18 columns.
std::string label_of(CholeskyLayoutKind kind, std::size_t p, std::size_t q) {
  switch (kind) {
    case CholeskyLayoutKind::HeterogeneousGrid: return plan_label("hetero", p, q);
    case CholeskyLayoutKind::HeteroSymmetric: return plan_label("hetero sym", p, q);
    default: return plan_label(cholesky_layout_name(kind), p, q);
  }
}

/// The candidates of choose_cholesky_plan, before pricing.
class CandidateBuilder : public CandidateList<CholeskyLayoutKind> {
 public:
  CandidateBuilder(const Platform& platform, std::size_t n, const CholeskyPlanOptions& options)
      : CandidateList(options.kinds, usable_tile_sizes(options.tile_sizes, n, "choose_cholesky_plan", platform.kernel)),
        platform_(platform), n_(n), options_(options),
        cycle_times_(std::make_shared<const std::vector<double>>(cycle_times_of(platform))),
        sorted_(std::make_shared<const SortedProcessors>(sort_processors(*cycle_times_))) {}

  void add_caller(const Problem& problem) {
    add(CholeskyLayoutKind::CallerLayout, caller_layout_candidate(problem));
  }

  /// 2DBC and the planner's heterogeneous grid on every shape p×q = k, deferred: only the
  /// grids a search prices are built, and a shape's grid plan (plan_grid_shape) is made when
  /// the first of its tile sizes is: most shapes are never priced, and every rank lists them all.
  void add_grids(const std::vector<std::size_t>& fastest) {
    const auto processors = std::make_shared<const std::vector<std::size_t>>(fastest);
    const double speed = summed_speed(platform_, fastest);
    for (const GridShape shape : grid_shapes(fastest.size())) {
      const std::size_t p = shape.rows, q = shape.cols;
      if (wants(CholeskyLayoutKind::BlockCyclic)) {
        const double T = block_cyclic_cost(static_cast<int>(p), static_cast<int>(q), Factorization::Cholesky);
        const std::string label = label_of(CholeskyLayoutKind::BlockCyclic, p, q);
        for (std::size_t nb : tiles())
          add_deferred(CholeskyLayoutKind::BlockCyclic, cartesian_sketch(label, nb, shape),
                       {[=] { return block_cyclic_grid(label, nb, shape, *processors); }, speed}, T);
      }
      if (wants(CholeskyLayoutKind::HeterogeneousGrid) && fastest.size() > 1) {
        const auto plan = std::make_shared<LazyGridPlan>(cycle_times_, sorted_, shape);
        const std::string label = label_of(CholeskyLayoutKind::HeterogeneousGrid, p, q);
        const std::size_t n = n_;
        for (std::size_t nb : tiles())
          add_deferred(CholeskyLayoutKind::HeterogeneousGrid, cartesian_sketch(label + " ordered", nb, shape),
                       {[=] {
                          const GridChoice& grid = plan->get();
                          return with_cholesky_order(
                              cartesian_candidate(label, nb, p, q, grid.arrangement.processor, grid.shares.r, grid.shares.c),
                              n);
                        },
                        speed});
      }
    }
  }

  /// G-2DBC, GCR&M and the heterogeneous symmetric pattern on the fastest k.
  void add_patterns(const std::vector<std::size_t>& fastest) {
    const int k = static_cast<int>(fastest.size());
    if (k < 2) return;
    if (wants(CholeskyLayoutKind::G2dbc) && g2dbc_parameters(k).c != 0)
      add_pattern(CholeskyLayoutKind::G2dbc, g2dbc_pattern(k), fastest);
    if (wants(CholeskyLayoutKind::Gcrm) && fastest.size() <= kMaxGcrmProcessors) add_gcrm(k, fastest);
    if (wants(CholeskyLayoutKind::HeteroSymmetric) && speeds_differ(platform_, fastest) && fits_symmetric_pattern(k))
      add_pattern(CholeskyLayoutKind::HeteroSymmetric,
                  best_hetero_symmetric(speeds_of(platform_, fastest), options_.hetero_symmetric).pattern, fastest);
  }


 private:
  /// True when a symmetric pattern of at most max_size a side has a cell for each of k
  /// processors (beyond 4,096 processors by default it has not: the other families remain).
  bool fits_symmetric_pattern(int k) const {
    const long long side = options_.hetero_symmetric.max_size;
    return side * side >= k;
  }

  /// The best GCR&M pattern for k, if some size gives a balanceable one (at large k none may).
  void add_gcrm(int k, const std::vector<std::size_t>& fastest) {
    std::optional<GcrmResult> found;
    try {
      found.emplace(best_gcrm(k, options_.gcrm));
    } catch (const InvalidArgument&) {
      return;
    }
    add_pattern(CholeskyLayoutKind::Gcrm, found->pattern, fastest);
  }

  void add_pattern(CholeskyLayoutKind kind, const Pattern& pattern, const std::vector<std::size_t>& fastest) {
    const double T = cholesky_cost(pattern);
    for (std::size_t nb : tiles())
      add(kind, pattern_candidate(label_of(kind, fastest.size(), 0), nb, pattern, fastest), T);
  }

  const Platform& platform_;
  std::size_t n_;
  const CholeskyPlanOptions& options_;
  /// Shared with the deferred grids, which plan their shape when first built.
  std::shared_ptr<const std::vector<double>> cycle_times_;
  std::shared_ptr<const SortedProcessors> sorted_;  ///< cycle_times_ sorted once for every shape
};

}  // namespace

const char* cholesky_layout_name(CholeskyLayoutKind kind) {
  switch (kind) {
    case CholeskyLayoutKind::CallerLayout: return "caller layout";
    case CholeskyLayoutKind::BlockCyclic: return "2DBC";
    case CholeskyLayoutKind::HeterogeneousGrid: return "hetero grid";
    case CholeskyLayoutKind::G2dbc: return "G-2DBC";
    case CholeskyLayoutKind::Gcrm: return "GCR&M";
    case CholeskyLayoutKind::HeteroSymmetric: return "hetero symmetric";
  }
  return "?";
}

PlanCandidates<CholeskyLayoutKind> cholesky_plan_candidates(const Platform& platform, std::int64_t n,
                                                            const CallerLayout& caller,
                                                            const CholeskyPlanOptions& options) {
  require_valid(platform);
  if (n < 1) throw InvalidArgument("choose_cholesky_plan: N = " + std::to_string(n) + " must be >= 1");
  if (options.kinds.empty()) throw InvalidArgument("choose_cholesky_plan: no kind of distribution to price");
  PlanCandidates<CholeskyLayoutKind> candidates;
  Problem& problem = candidates.problem;
  problem.routine = Routine::Cholesky;
  problem.n = static_cast<std::size_t>(n);
  problem.caller = caller;

  CandidateBuilder builder(platform, problem.n, options);
  if (builder.wants(CholeskyLayoutKind::CallerLayout)) builder.add_caller(problem);
  add_per_process_count(platform, options.max_processors, options.search.exhaustive, builder);
  candidates.built = std::move(builder.built());
  return candidates;
}

CholeskyChoice choose_cholesky_plan(const Platform& platform, std::int64_t n, const CallerLayout& caller,
                                    const CholeskyPlanOptions& options) {
  return build_price_and_choose<CholeskyLayoutKind>(
      platform, [&] { return cholesky_plan_candidates(platform, n, caller, options); }, options.search);
}

}  // namespace hetscal::core
