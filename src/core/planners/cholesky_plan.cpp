#include "core/planners/cholesky_plan.hpp"

#include <algorithm>
#include <functional>
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

/// A pattern made when first asked for (nullopt: its family has none), shared by the
/// candidates of its tile sizes, as LazyGridPlan is by a grid shape's.
class LazyPattern {
 public:
  explicit LazyPattern(std::function<std::optional<Pattern>()> make) : make_(std::move(make)) {}
  const std::optional<Pattern>& get() {
    if (make_) {
      pattern_ = make_();
      make_ = nullptr;
    }
    return pattern_;
  }

 private:
  std::function<std::optional<Pattern>()> make_;  ///< empty once made
  std::optional<Pattern> pattern_;
};

/// What a listing names a pattern candidate by before building it (sketch_of): its size is
/// known only once built.
Candidate pattern_sketch(std::string label, std::size_t tile) {
  Candidate sketch;
  sketch.kind = CandidateKind::Pattern;
  sketch.label = std::move(label);
  sketch.tile = tile;
  return sketch;
}

bool is_pattern_kind(CholeskyLayoutKind kind) {
  return kind == CholeskyLayoutKind::G2dbc || kind == CholeskyLayoutKind::Gcrm ||
         kind == CholeskyLayoutKind::HeteroSymmetric;
}

/// cholesky_cost of a built pattern candidate, from its owner table: its diagonal cells went
/// to nodes of their colrow (pattern_candidate), so the colrows count the pattern's nodes.
double cholesky_cost_of(const Candidate& candidate) {
  const std::vector<std::size_t> processors = candidate.processors();  // increasing
  std::vector<int> owners;
  owners.reserve(candidate.owner.size());
  for (std::size_t x : candidate.owner)
    owners.push_back(static_cast<int>(std::lower_bound(processors.begin(), processors.end(), x) - processors.begin()));
  return cholesky_cost(Pattern(static_cast<int>(candidate.rows), static_cast<int>(candidate.cols),
                               static_cast<int>(processors.size()), std::move(owners)));
}

/// The priced pattern candidates' T (their patterns are made only when priced) and the choice's.
void fill_pattern_costs(CholeskyChoice& choice) {
  for (CholeskyCandidate& c : choice.priced)
    if (is_pattern_kind(c.kind) && !c.prediction.candidate.owner.empty())
      c.pattern_cost = cholesky_cost_of(c.prediction.candidate);
  if (is_pattern_kind(choice.kind)) choice.pattern_cost = cholesky_cost_of(choice.candidate);
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

  /// G-2DBC, GCR&M and the heterogeneous symmetric pattern on the fastest k, deferred as the
  /// grids are: a pattern (GCR&M's search is most of a listing at a hundred processors) is
  /// made only by the pricers whose slice holds one of its tile sizes, or for the winner.
  void add_patterns(const std::vector<std::size_t>& fastest) {
    const int k = static_cast<int>(fastest.size());
    if (k < 2) return;
    if (wants(CholeskyLayoutKind::G2dbc) && g2dbc_parameters(k).c != 0)
      add_pattern(CholeskyLayoutKind::G2dbc, [k] { return std::optional<Pattern>(g2dbc_pattern(k)); }, fastest);
    if (wants(CholeskyLayoutKind::Gcrm) && fastest.size() <= kMaxGcrmProcessors) add_gcrm(k, fastest);
    if (wants(CholeskyLayoutKind::HeteroSymmetric) && speeds_differ(platform_, fastest) && fits_symmetric_pattern(k)) {
      const HeteroSymmetricOptions options = options_.hetero_symmetric;
      const auto speeds = std::make_shared<const Speeds>(speeds_of(platform_, fastest));
      add_pattern(CholeskyLayoutKind::HeteroSymmetric,
                  [=] { return std::optional<Pattern>(best_hetero_symmetric(*speeds, options).pattern); }, fastest);
    }
  }

 private:
  /// True when a symmetric pattern of at most max_size a side has a cell for each of k
  /// processors (beyond 4,096 processors by default it has not: the other families remain).
  bool fits_symmetric_pattern(int k) const {
    const long long side = options_.hetero_symmetric.max_size;
    return side * side >= k;
  }

  /// Whether a pattern listed exists (`make` gives one), or is known only once made.
  enum class Existence { Known, KnownOnceMade };

  /// The best GCR&M pattern for k, if some size gives a balanceable one (at large k none may).
  /// The table (pattern_gcrm_table.hpp) says whether one does; where it does not know, the
  /// listed candidates may turn out not to be candidates (DeferredCandidate::late_steps_bound).
  void add_gcrm(int k, const std::vector<std::size_t>& fastest) {
    const GcrmSearchOptions options = options_.gcrm;
    const std::optional<TabledGcrm> tabled = gcrm_table_entry(k, options);
    if (tabled && tabled->size == 0) return;
    add_pattern(CholeskyLayoutKind::Gcrm,
                [=]() -> std::optional<Pattern> {
                  try {
                    return best_gcrm(k, options).pattern;
                  } catch (const InvalidArgument&) {
                    return std::nullopt;
                  }
                },
                fastest, tabled ? Existence::Known : Existence::KnownOnceMade);
  }

  /// Lists the pattern `make` builds on `fastest` at every tile size, deferred; the tile sizes
  /// share one LazyPattern. Known only once made, a pattern that turns out to be none makes
  /// them non-candidates (made by the pricers whose slice holds one, to learn it).
  void add_pattern(CholeskyLayoutKind kind, std::function<std::optional<Pattern>()> make,
                   const std::vector<std::size_t>& fastest, Existence existence = Existence::Known) {
    const auto pattern = std::make_shared<LazyPattern>(std::move(make));
    const auto processors = std::make_shared<const std::vector<std::size_t>>(fastest);
    const std::string label = label_of(kind, fastest.size(), 0);
    const double speed = summed_speed(platform_, fastest);
    for (std::size_t nb : tiles()) {
      DeferredCandidate deferred{[=] { return pattern_candidate(label, nb, *pattern->get(), *processors); }, speed};
      if (existence == Existence::KnownOnceMade)
        deferred.late_steps_bound = [=] { return pattern->get() ? std::optional<double>(0.0) : std::nullopt; };
      add_deferred(kind, pattern_sketch(label, nb), std::move(deferred));
    }
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
  CholeskyChoice choice = build_price_and_choose<CholeskyLayoutKind>(
      platform, [&] { return cholesky_plan_candidates(platform, n, caller, options); }, options.search);
  fill_pattern_costs(choice);
  return choice;
}

}  // namespace hetscal::core
