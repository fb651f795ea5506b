#include "core/planners/lu_plan.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/common/error.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/planners/cholesky_ordering.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/panel_chain_bound.hpp"

namespace hetscal::core {
namespace {

/// Short labels for format_predictions' 18 columns: "hetero 3x3", "hetpattern 7".
std::string label_of(LuLayoutKind kind, std::size_t p, std::size_t q) {
  switch (kind) {
    case LuLayoutKind::HeterogeneousGrid: return plan_label("hetero", p, q);
    case LuLayoutKind::HeteroPattern: return plan_label("hetpattern", p, q);
    default: return plan_label(lu_layout_name(kind), p, q);
  }
}

/// What a grid's steps cost at least, from its tile, summed speed and shares: the chain of
/// its panels, or its updates at perfect balance and the column messages every step's
/// window holds (at a thousand processors on a slow network, the U or W messages of tall
/// grids rule out most candidates before they are built). LU's window runs the U messages
/// before the updates, so the two add up; QR's overlaps the W exchange with the flops
/// (qr_steps.cpp), so only the larger counts.
double grid_steps_bound(const Platform& platform, Routine routine, MatrixShape shape, std::size_t tile, double speed,
                        const std::vector<double>& row_shares, const std::vector<double>& col_shares) {
  Problem problem;
  problem.routine = routine;
  problem.m = shape.rows;
  problem.n = shape.cols;
  const double compute = compute_lower_bound(platform, problem, tile, speed);
  const double messages =
      cartesian_column_message_lower_bound(platform, routine, shape, tile, row_shares, col_shares.size());
  const double window = routine == Routine::LU ? compute + messages : std::max(compute, messages);
  return std::max(cartesian_panel_chain_lower_bound(platform, routine, shape, tile, col_shares), window);
}

/// The candidates of choose_lu_plan, before pricing.
class LuCandidateBuilder : public CandidateList<LuLayoutKind> {
 public:
  LuCandidateBuilder(Routine routine, const Platform& platform, MatrixShape shape, const LuPlanOptions& options,
                     const std::string& planner)
      : CandidateList(options.kinds, usable_tile_sizes(options.tile_sizes, std::min(shape.rows, shape.cols), planner, platform.kernel)),
        routine_(routine), platform_(platform), shape_(shape), options_(options),
        // The deferred candidates outlive the builder: they share what they need.
        shared_platform_(std::make_shared<const Platform>(platform)),
        cycle_times_(std::make_shared<const std::vector<double>>(cycle_times_of(platform))),
        sorted_(std::make_shared<const SortedProcessors>(sort_processors(*cycle_times_))) {}

  /// 2DBC on every shape p×q = k; the planner's heterogeneous grid with its tiles in LU
  /// order where the speeds differ (with equal speeds it is 2DBC again: built only when 2DBC
  /// itself is not wanted). Both deferred, their bounds too (late_steps_bound): a grid is
  /// planned and bounded only by the pricer whose slice holds it, and built only if priced.
  void add_grids(const std::vector<std::size_t>& fastest) {
    const bool differ = speeds_differ(platform_, fastest);
    const bool hetero = differ || !wants(LuLayoutKind::BlockCyclic);
    const auto processors = std::make_shared<const std::vector<std::size_t>>(fastest);
    const double speed = summed_speed(platform_, fastest);
    const auto platform = shared_platform_;
    const Routine routine = routine_;
    const MatrixShape matrix = shape_;
    for (const GridShape shape : grid_shapes(fastest.size())) {
      const std::size_t p = shape.rows, q = shape.cols;
      const bool may_mix = p > 1 && differ;  // one grid row, or one speed: every column holds one
      if (wants(LuLayoutKind::BlockCyclic)) {
        const double T = block_cyclic_cost(static_cast<int>(p), static_cast<int>(q), Factorization::LU);
        const std::string label = label_of(LuLayoutKind::BlockCyclic, p, q);
        for (std::size_t nb : tiles()) {
          DeferredCandidate deferred{[=] { return block_cyclic_grid(label, nb, shape, *processors); }, speed, 0.0,
                                     [=]() -> std::optional<double> {
                                       return grid_steps_bound(*platform, routine, matrix, nb, speed,
                                                               std::vector<double>(p, 1.0), std::vector<double>(q, 1.0));
                                     }};
          add_grid(LuLayoutKind::BlockCyclic, cartesian_sketch(label, nb, shape), std::move(deferred), T, may_mix,
                   [=] { return columns_mix_speeds(*platform, p, q, *processors); });
        }
      }
      if (wants(LuLayoutKind::HeterogeneousGrid) && hetero) {
        const auto plan = std::make_shared<LazyGridPlan>(cycle_times_, sorted_, shape);
        const std::string label = label_of(LuLayoutKind::HeterogeneousGrid, p, q);
        for (std::size_t nb : tiles()) {
          DeferredCandidate deferred{[=] {
                                       const GridChoice& grid = plan->get();
                                       return with_suffix_balanced_order(
                                           cartesian_candidate(label, nb, p, q, grid.arrangement.processor,
                                                               grid.shares.r, grid.shares.c),
                                           matrix);
                                     },
                                     speed, 0.0, [=]() -> std::optional<double> {
                                       const GridChoice& grid = plan->get();
                                       return grid_steps_bound(*platform, routine, matrix, nb, speed, grid.shares.r,
                                                               grid.shares.c);
                                     }};
          add_grid(LuLayoutKind::HeterogeneousGrid, cartesian_sketch(label, nb, shape), std::move(deferred), 0.0,
                   may_mix, [=] { return columns_mix_speeds(*platform, p, q, plan->get().arrangement.processor); });
        }
      }
    }
  }

  /// G-2DBC and, where the speeds differ (or G-2DBC is not wanted), the heterogeneous
  /// pattern on the fastest k.
  void add_patterns(const std::vector<std::size_t>& fastest) {
    const int k = static_cast<int>(fastest.size());
    if (k < 2) return;
    if (wants(LuLayoutKind::G2dbc) && g2dbc_parameters(k).c != 0) add_pattern(LuLayoutKind::G2dbc, g2dbc_pattern(k), fastest);
    if (!wants(LuLayoutKind::HeteroPattern) || (!speeds_differ(platform_, fastest) && wants(LuLayoutKind::G2dbc))) return;
    const Speeds speeds = speeds_of(platform_, fastest);
    if (hetero_pattern_cells_needed(speeds, options_.hetero_pattern.min_cells_per_node) > options_.max_pattern_cells) return;
    add_pattern(LuLayoutKind::HeteroPattern, hetero_pattern(speeds, options_.hetero_pattern), fastest);
  }

  /// Every candidate once more with its panels factorised by the fastest owner of a panel
  /// tile (label "…/fast"), where some column of its owner table has owners of different
  /// speeds (elsewhere that is the diagonal tile's owner again). A deferred grid's variant is
  /// listed where its columns may mix (more than one grid row, processors of different
  /// speeds), and turns out not to be a candidate (late_steps_bound) where they do not: its
  /// plan is not made to list it.
  void add_fastest_panel_variants() {
    const std::size_t count = built().size();
    for (std::size_t i = 0; i < count; ++i) {
      if (!columns_may_mix_[i]) continue;
      const LuCandidate c = built()[i];  // a copy: add() grows the list
      Candidate variant = c.prediction.candidate;  // the candidate, or its sketch
      variant.panel_rank = PanelRank::Fastest;
      variant.label += "/fast";
      if (!c.deferred.build) {
        if (columns_mix_[i]()) add(c.kind, std::move(variant), c.pattern_cost);
        continue;
      }
      DeferredCandidate deferred{[build = c.deferred.build] {
                                   Candidate built = build();
                                   built.panel_rank = PanelRank::Fastest;
                                   built.label += "/fast";
                                   return built;
                                 },
                                 c.deferred.speed_flops, c.deferred.steps_bound,
                                 [mixes = columns_mix_[i], bound = c.deferred.late_steps_bound,
                                  steps = c.deferred.steps_bound]() -> std::optional<double> {
                                   if (!mixes()) return std::nullopt;
                                   return bound ? bound() : steps;
                                 }};
      add_deferred(c.kind, std::move(variant), std::move(deferred), c.pattern_cost);
    }
  }

  void add_caller(const Problem& problem) {
    add(LuLayoutKind::CallerLayout, caller_layout_candidate(problem));
    columns_may_mix_.push_back(false);  // ScaLAPACK's own kernel factorises its panels
    columns_mix_.emplace_back([] { return false; });
  }

 private:
  using ColumnsMix = std::function<bool()>;

  void add_grid(LuLayoutKind kind, Candidate sketch, DeferredCandidate deferred, double T, bool may_mix,
                ColumnsMix columns_mix) {
    add_deferred(kind, std::move(sketch), std::move(deferred), T);
    columns_may_mix_.push_back(may_mix);
    columns_mix_.push_back(std::move(columns_mix));
  }

  void add_pattern(LuLayoutKind kind, const Pattern& pattern, const std::vector<std::size_t>& fastest) {
    const double T = lu_cost(pattern);
    for (std::size_t nb : tiles()) {
      add(kind, pattern_candidate(label_of(kind, fastest.size(), 0), nb, pattern, fastest), T);
      const Candidate& c = built().back().prediction.candidate;
      const bool mixes = columns_mix_speeds(platform_, c.rows, c.cols, c.owner);
      columns_may_mix_.push_back(mixes);
      columns_mix_.emplace_back([mixes] { return mixes; });
    }
  }

  Routine routine_;
  const Platform& platform_;
  MatrixShape shape_;
  const LuPlanOptions& options_;
  std::shared_ptr<const Platform> shared_platform_;
  std::shared_ptr<const std::vector<double>> cycle_times_;
  std::shared_ptr<const SortedProcessors> sorted_;  ///< cycle_times_ sorted once for every shape
  /// Per listed candidate: does a column of its owner table mix speeds (asked only where the
  /// answer is needed, for a deferred grid by the pricer of its "/fast" variant).
  std::vector<ColumnsMix> columns_mix_;
  std::vector<bool> columns_may_mix_;  ///< false where they cannot: no "/fast" variant listed
};

}  // namespace

const char* lu_layout_name(LuLayoutKind kind) {
  switch (kind) {
    case LuLayoutKind::CallerLayout: return "caller layout";
    case LuLayoutKind::BlockCyclic: return "2DBC";
    case LuLayoutKind::HeterogeneousGrid: return "hetero grid";
    case LuLayoutKind::G2dbc: return "G-2DBC";
    case LuLayoutKind::HeteroPattern: return "hetero pattern";
  }
  return "?";
}

namespace {

}  // namespace

PlanCandidates<LuLayoutKind> lu_plan_candidates(Routine routine, const Platform& platform, std::int64_t m,
                                                std::int64_t n, const CallerLayout& caller,
                                                const LuPlanOptions& options) {
  const std::string planner = routine == Routine::QR ? "choose_qr_plan" : "choose_lu_plan";
  require_valid(platform);
  if (m < 1 || n < 1)
    throw InvalidArgument(planner + ": an M x N = " + std::to_string(m) + " x " + std::to_string(n) +
                          " matrix; both must be >= 1");
  if (options.kinds.empty()) throw InvalidArgument(planner + ": no kind of distribution to price");
  PlanCandidates<LuLayoutKind> candidates;
  Problem& problem = candidates.problem;
  problem.routine = routine;
  problem.m = static_cast<std::size_t>(m);
  problem.n = static_cast<std::size_t>(n);
  problem.caller = caller;

  LuCandidateBuilder builder(routine, platform, {problem.m, problem.n}, options, planner);
  if (builder.wants(LuLayoutKind::CallerLayout)) builder.add_caller(problem);
  add_per_process_count(platform, options.max_processors, options.search.exhaustive, builder);
  builder.add_fastest_panel_variants();
  if (builder.built().empty())
    throw InvalidArgument(planner + ": none of the " + std::to_string(options.kinds.size()) +
                          " kinds of distribution asked for applies to " + std::to_string(platform.size()) +
                          " processors (G-2DBC and heterogeneous patterns need 2 or more)");
  candidates.built = std::move(builder.built());
  return candidates;
}

namespace {

/// The LU planner's candidates priced for `routine` (LU or QR): only the step model differs.
LuChoice choose_factorization_plan(Routine routine, const Platform& platform, std::int64_t m, std::int64_t n,
                                   const CallerLayout& caller, const LuPlanOptions& options) {
  return build_price_and_choose<LuLayoutKind>(
      platform, [&] { return lu_plan_candidates(routine, platform, m, n, caller, options); }, options.search);
}

}  // namespace

LuChoice choose_lu_plan(const Platform& platform, std::int64_t m, std::int64_t n, const CallerLayout& caller,
                        const LuPlanOptions& options) {
  return choose_factorization_plan(Routine::LU, platform, m, n, caller, options);
}

LuChoice choose_qr_plan(const Platform& platform, std::int64_t m, std::int64_t n, const CallerLayout& caller,
                        const LuPlanOptions& options) {
  return choose_factorization_plan(Routine::QR, platform, m, n, caller, options);
}

}  // namespace hetscal::core
