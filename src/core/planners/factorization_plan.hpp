#pragma once
/// @file factorization_plan.hpp
/// What the factorisation planners (cholesky_plan.hpp, lu_plan.hpp) share: the tile sizes
/// they try, the process counts (the fastest k processors, every k for the grids, fewer for
/// the patterns), the grid shapes p×q = k, the 2DBC candidate, and the list of priced
/// candidates from which the fastest that fits in memory is chosen. Each planner adds its
/// own families (orders, patterns) and its own kinds.
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/speeds.hpp"
#include "core/grids/grid_planner.hpp"
#include "core/planners/candidate_search.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// A grid shape p×q.
struct GridShape {
  std::size_t rows = 0;
  std::size_t cols = 0;
};

/// The tile sizes a planner tries on a matrix whose smaller side is `extent`: those of
/// `listed` not above it, or the smallest listed one when all are; and of those, none that
/// runs below kEfficientTileRate of the kernel's peak (KernelRate::smallest_efficient_tile)
/// when one that runs faster is usable (issue 29: the planners never choose a tile the model
/// shows inefficient where the matrix allows a wider one).
/// @param planner named in messages ("choose_lu_plan").
/// @throws InvalidArgument naming the planner if the list is empty or holds a 0.
std::vector<std::size_t> usable_tile_sizes(const std::vector<std::size_t>& listed, std::size_t extent,
                                           const std::string& planner, const KernelRate& kernel = {});

/// The most processors a plan may use: min(P, max_processors), all P when max_processors = 0.
std::size_t planned_processor_count(const Platform& platform, std::size_t max_processors);

/// The process counts a planner builds candidates for: searched_process_counts
/// (candidate_search.hpp) and every pattern_process_counts, increasing.
std::vector<std::size_t> planned_process_counts(const Platform& platform, std::size_t max_processors,
                                                bool exhaustive);

/// The fastest k processors (fastest_first's order).
/// @pre k <= platform.size().
std::vector<std::size_t> fastest_processors(const Platform& platform, std::size_t k);

/// The process counts whose patterns are built: P' = planned_processor_count and every k < P'
/// such that the (k+1)-th fastest processor runs at less than half the k-th's speed.
std::vector<std::size_t> pattern_process_counts(const Platform& platform, std::size_t max_processors);

/// Every shape p×q = k, by increasing p.
std::vector<GridShape> grid_shapes(std::size_t k);

/// "<name> p" (q = 0) or "<name> pxq", short enough for format_predictions' columns.
std::string plan_label(const std::string& name, std::size_t p, std::size_t q);

/// 2DBC on `processors` placed row-major on a p×q grid, tile rows and columns in cyclic
/// order (the orders filled, as Cartesian distributions of the planners always have them).
/// @pre processors.size() == shape.rows · shape.cols.
Candidate block_cyclic_grid(std::string label, std::size_t tile, GridShape shape,
                            std::vector<std::size_t> processors);

/// The sketch of a Cartesian candidate on a p×q grid (sketch_of, candidate_search.hpp): what a
/// planner lists for a grid it builds only if the search prices or chooses it.
Candidate cartesian_sketch(std::string label, std::size_t tile, GridShape shape);

/// The summed speed of `processors` (platform indices).
double summed_speed(const Platform& platform, const std::vector<std::size_t>& processors);

/// True when some column of a rows×cols owner table (row-major platform processors) has
/// owners of different speeds.
bool columns_mix_speeds(const Platform& platform, std::size_t rows, std::size_t cols,
                        const std::vector<std::size_t>& owner);

/// 1/speed of every processor of the platform (the grid planner's cycle-times).
std::vector<double> cycle_times_of(const Platform& platform);

/// The speeds of `processors` (platform indices), in that order.
/// @throws InvalidArgument as Speeds::from_speeds (no processor).
Speeds speeds_of(const Platform& platform, const std::vector<std::size_t>& processors);

/// True when the processors' speeds are not all the same.
bool speeds_differ(const Platform& platform, const std::vector<std::size_t>& processors);

/// The grid planner's plan of one shape p×q (plan_grid_shape), made when first asked for: a
/// planner lists every shape, but only the pricer whose slice holds one of the shape's
/// candidates (or the winner's build) needs its plan. Its tiles and variants share it.
class LazyGridPlan {
 public:
  LazyGridPlan(std::shared_ptr<const std::vector<double>> cycle_times, std::shared_ptr<const SortedProcessors> sorted,
               GridShape shape)
      : cycle_times_(std::move(cycle_times)), sorted_(std::move(sorted)), shape_(shape) {}
  const GridChoice& get() {
    if (!plan_) plan_.emplace(plan_grid_shape(*cycle_times_, *sorted_, shape_.rows, shape_.cols));
    return *plan_;
  }

 private:
  std::shared_ptr<const std::vector<double>> cycle_times_;
  std::shared_ptr<const SortedProcessors> sorted_;
  GridShape shape_;
  std::optional<GridChoice> plan_;
};

/// One priced candidate of a planner whose families are `Kind`.
template <typename Kind>
struct PricedCandidate {
  Kind kind{};
  Prediction prediction;     ///< the candidate (owners, tile, orders) and its predicted time
  bool priced = false;       ///< false: pruned by its lower bound, or priced by another slice
  double pattern_cost = 0.0; ///< patterns and 2DBC: the routine's T (pattern_cost.hpp); 0 for the rest
  /// How to build the candidate while prediction.candidate is its sketch (candidate_search.hpp):
  /// the search builds those it prices and the winner; the others stay sketches.
  DeferredCandidate deferred;
};

/// The candidate in full: built now if the search left it a sketch (it was not priced here).
template <typename Kind>
Candidate built_candidate(const PricedCandidate<Kind>& c) {
  return c.deferred.build && c.prediction.candidate.owner.empty() ? c.deferred.build() : c.prediction.candidate;
}

/// What a planner decided, and everything it priced.
template <typename Kind>
struct PlanChoice {
  Kind kind{};
  Candidate candidate;                  ///< the chosen distribution
  std::size_t tile = 0;                 ///< nb
  std::vector<std::size_t> processors;  ///< platform processors that own tiles, increasing
  double predicted_s = 0.0;             ///< the model's total (redistribution included)
  double pattern_cost = 0.0;            ///< T of the chosen pattern or 2DBC; 0 for the rest
  std::vector<PricedCandidate<Kind>> priced;  ///< every candidate, in generation order
  std::size_t chosen = 0;                     ///< index of the choice in `priced`
  std::size_t pruned = 0;                     ///< candidates of this slice skipped by their bound
  std::size_t not_candidates = 0;             ///< listed, of this slice, found not to be candidates
};

/// Calls builder.add_grids(fastest) for the fastest k processors of every planned process
/// count k (planned_process_counts), and builder.add_patterns(fastest) where k is one of the
/// pattern_process_counts as well.
template <typename Builder>
void add_per_process_count(const Platform& platform, std::size_t max_processors, bool exhaustive,
                           Builder& builder) {
  const std::vector<std::size_t> pattern_counts = pattern_process_counts(platform, max_processors);
  const std::vector<std::size_t> order = fastest_first(platform);  // sorted once, not per count
  for (std::size_t k : planned_process_counts(platform, max_processors, exhaustive)) {
    const std::vector<std::size_t> fastest(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
    builder.add_grids(fastest);
    for (std::size_t pattern_count : pattern_counts)
      if (pattern_count == k) builder.add_patterns(fastest);
  }
}

/// A planner's problem and its candidates, before pricing (what price_and_choose takes).
template <typename Kind>
struct PlanCandidates {
  Problem problem;
  std::vector<PricedCandidate<Kind>> built;
};

/// The candidates a planner builds before pricing, with the kinds it was asked for and the
/// tile sizes it tries; each planner derives its own builder (families, orders, patterns).
template <typename Kind>
class CandidateList {
 public:
  CandidateList(std::vector<Kind> kinds, std::vector<std::size_t> tiles)
      : kinds_(std::move(kinds)), tiles_(std::move(tiles)) {}

  bool wants(Kind kind) const {
    for (Kind k : kinds_)
      if (k == kind) return true;
    return false;
  }
  const std::vector<std::size_t>& tiles() const { return tiles_; }

  void add(Kind kind, Candidate candidate, double pattern_cost = 0.0) {
    PricedCandidate<Kind> c;
    c.kind = kind;
    c.prediction.candidate = std::move(candidate);
    c.pattern_cost = pattern_cost;
    built_.push_back(std::move(c));
  }
  /// Lists a candidate to be built only if the search prices or chooses it: `sketch` names it
  /// (sketch_of), `deferred` builds it and gives its processors' speed.
  void add_deferred(Kind kind, Candidate sketch, DeferredCandidate deferred, double pattern_cost = 0.0) {
    add(kind, std::move(sketch), pattern_cost);
    built_.back().deferred = std::move(deferred);
  }
  std::vector<PricedCandidate<Kind>>& built() { return built_; }

 private:
  std::vector<Kind> kinds_;
  std::vector<std::size_t> tiles_;
  std::vector<PricedCandidate<Kind>> built_;
};

/// Prices the built candidates for `problem` as `search` says (search_candidates: pruned by
/// lower bound unless exhaustive, this slice only) and chooses the fastest that fits; every
/// slice ends with the same choice.
/// @param built the candidates, their predictions not yet filled in.
/// @throws InvalidArgument as predict; Error as search_candidates.
template <typename Kind>
PlanChoice<Kind> price_and_choose(const Platform& platform, const Problem& problem,
                                  std::vector<PricedCandidate<Kind>> built, const SearchOptions& search) {
  PlanChoice<Kind> choice;
  choice.priced = std::move(built);
  std::vector<Prediction> predictions;
  DeferredCandidates deferred;
  predictions.reserve(choice.priced.size());
  deferred.reserve(choice.priced.size());
  for (auto& c : choice.priced) {
    predictions.push_back(std::move(c.prediction));
    deferred.push_back(c.deferred);
  }
  const SearchResult result = search_candidates(platform, problem, predictions, search, deferred);
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    choice.priced[i].prediction = std::move(predictions[i]);
    choice.priced[i].priced = result.priced[i];
  }
  choice.chosen = result.chosen;
  choice.pruned = result.pruned;
  choice.not_candidates = result.not_candidates;
  const PricedCandidate<Kind>& chosen = choice.priced[choice.chosen];
  choice.kind = chosen.kind;
  choice.candidate = chosen.prediction.candidate;
  choice.tile = choice.candidate.tile;
  choice.processors = choice.candidate.processors();
  choice.predicted_s = result.total_s;
  choice.pattern_cost = chosen.pattern_cost;
  return choice;
}

/// Builds a planner's candidates with `build` (returning PlanCandidates<Kind>), then
/// price_and_choose. When the search is split, a `build` that throws still takes part in the
/// slice's agreement (as a failure, −∞) before the exception goes on, so that no pricer waits
/// for it.
template <typename Kind, typename Build>
PlanChoice<Kind> build_price_and_choose(const Platform& platform, Build build, const SearchOptions& search) {
  PlanCandidates<Kind> candidates;
  try {
    candidates = build();
  } catch (...) {
    if (search.slice.count > 1 && search.slice.agree)
      search.slice.agree({-std::numeric_limits<double>::infinity(), 0});
    throw;
  }
  return price_and_choose(platform, candidates.problem, std::move(candidates.built), search);
}

}  // namespace hetscal::core
