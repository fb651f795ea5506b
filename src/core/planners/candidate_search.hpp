#pragma once
/// @file candidate_search.hpp
/// How the planners (lu_plan.hpp, cholesky_plan.hpp) search their candidates so that planning
/// stays cheap from 2 to thousands of processors, and still chooses what the full search
/// chooses:
///   - speed classes: processors of equal speed are interchangeable, so the process counts
///     that can matter are the class boundaries (all processors of speed >= s, for each
///     speed s), not every k; the search adds a geometric ladder of counts below P (small
///     problems want fewer processors) and, below each count, the largest with a near-square
///     grid and the one with the most grid shapes (a prime count has only 1×k);
///   - pruning: candidates are priced in order of a lower bound of their time (their update
///     flops alone at perfect balance over their processors' speeds), and one whose bound
///     exceeds the best time priced so far is not priced: it could not have won;
///   - slices: the listed candidates are dealt round-robin (in list order) over `count`
///     pricers; each bounds, orders and prices only its slice, and an `agree` function given
///     by the caller (one MPI MINLOC reduction in the runtime) returns the overall winner, so
///     that every pricer ends with the same choice whatever its slice. A listing costs each
///     pricer little (a sketch per candidate): what costs a grid plan to know (a heterogeneous
///     grid's shares, and the bound they give) is worked out only by the pricer whose slice
///     holds the candidate (DeferredCandidate::late_steps_bound), so that at thousands of ranks
///     a rank's share shrinks with P.
/// The full search (every k, every candidate priced) stays available as SearchOptions::exhaustive.
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Processors of one speed.
struct SpeedClass {
  double speed_flops = 0.0;
  std::size_t count = 0;
};

/// The platform's speed classes, fastest first (exact equality of speed_flops).
std::vector<SpeedClass> speed_classes(const Platform& platform);

/// The process counts a planner tries (the fastest k processors each), increasing, all within
/// 1 … planned_processor_count(platform, max_processors):
///   exhaustive: every k;
///   otherwise: every class boundary, every count up to kEveryCountUpTo and the rungs of a
///   geometric ladder (ratio kCountLadderRatio) above it, below the largest count, each with near_square_count of it and the
///   count with the most grid shapes between it / kCountLadderRatio and it. With more than kMaxClassBoundaries classes, the boundaries
///   with the largest speed drops are kept.
std::vector<std::size_t> searched_process_counts(const Platform& platform, std::size_t max_processors,
                                                 bool exhaustive);

/// Every process count up to this one is tried (they are cheap to price, and a small
/// problem's best count lies anywhere among them); above it, a geometric ladder.
inline constexpr std::size_t kEveryCountUpTo = 32;

/// Ratio of the geometric ladder of process counts above kEveryCountUpTo: the predicted time
/// is flat near the best count, so the nearest rung (or its near-square neighbour) loses little.
inline constexpr double kCountLadderRatio = 1.2;

/// Class boundaries kept at most (platforms whose every processor has its own speed).
inline constexpr std::size_t kMaxClassBoundaries = 32;

/// The largest k <= count that has a grid p×q = k with p <= q <= 2p (count itself when it has
/// one; ties: count itself). 1 for count 1.
std::size_t near_square_count(std::size_t count);

/// A lower bound of predict(platform, problem, candidate).total_s() for a candidate that
/// computes on hetscal's layout (not CandidateKind::CallerLayout, which returns 0): the
/// routine's update flops as the step models count them (whole tiles) at perfect balance over
/// the candidate's processors, at the kernel's best rate for its tile size.
double compute_lower_bound(const Platform& platform, const Problem& problem, const Candidate& candidate);

/// compute_lower_bound for a candidate of tile `tile` whose processors' speeds add up to
/// `speed_flops` (0: no bound, 0 is returned).
double compute_lower_bound(const Platform& platform, const Problem& problem, std::size_t tile, double speed_flops);

/// A candidate a planner lists before building it. At a thousand processors one rank prices a
/// few of thousands of candidates, and building each one's owner table and tile orders (N/nb
/// entries) was most of a rank's share. Its prediction holds a sketch (sketch_of: kind, label,
/// tile, grid size, no owner) until the search prices or chooses it and calls `build`.
struct DeferredCandidate {
  std::function<Candidate()> build;  ///< empty: the candidate is built already
  double speed_flops = 0.0;          ///< its processors' summed speed (compute_lower_bound)
  /// A lower bound of its steps' seconds known from the sketch (0: none), such as
  /// cartesian_panel_chain_lower_bound: it joins the compute bound in the pricing order, so
  /// that a candidate it rules out is never built.
  double steps_bound = 0.0;
  /// Where that bound costs a plan to know (a heterogeneous grid's shares): it is worked out
  /// here, only by the pricer whose slice holds the candidate (pricing_order), and replaces
  /// steps_bound. nullopt: the listed candidate turns out not to be one (a "/fast" variant
  /// whose panel columns each hold one speed is the candidate listed before it, which wins
  /// any tie), and it is never priced. Empty: steps_bound holds the bound.
  std::function<std::optional<double>()> late_steps_bound{};
};

/// The candidate without its owner table, shares and orders: what a listing needs to name it.
Candidate sketch_of(const Candidate& candidate);

/// Per candidate, how to build it; empty, or an empty `build`: the candidate is built already.
using DeferredCandidates = std::vector<DeferredCandidate>;

/// One pricer's best candidate: its total time and its index in the planner's list.
struct CandidatePick {
  /// +inf: none fits; kRefusedPick: the pricing refused the candidate (InvalidArgument);
  /// -inf: the pricing (or the planner before it) failed otherwise.
  double total_s = std::numeric_limits<double>::infinity();
  std::size_t index = 0;
};

/// CandidatePick::total_s of a pricing that refused its candidate.
inline constexpr double kRefusedPick = -std::numeric_limits<double>::max();

/// Where this pricer stands among those that share the search.
struct PricingSlice {
  std::size_t index = 0;  ///< this pricer's slice, < count
  std::size_t count = 1;  ///< pricers
  /// Returns the overall pick from this slice's (the smallest total_s, then the smallest
  /// index; negative when a pricer failed): collective over the pricers. Empty when count == 1.
  std::function<CandidatePick(const CandidatePick&)> agree;
};

struct SearchOptions {
  bool exhaustive = false;  ///< every process count, every candidate priced (today's full search)
  PricingSlice slice;
};

/// What one pricer did with its slice.
struct SlicePricing {
  CandidatePick pick;           ///< the slice's fastest that fits (-inf: a pricing failed)
  std::vector<bool> priced;     ///< per candidate: priced by this slice
  std::size_t pruned = 0;          ///< the slice's candidates skipped by their lower bound
  std::size_t not_candidates = 0;  ///< its listed non-candidates (late_steps_bound), never priced
};

/// One slice's candidates in the order they are priced: the list positions index, index +
/// count, … (those that are candidates), by increasing lower bound (ties: list order), the
/// larger of compute_lower_bound and, for a sketch, its DeferredCandidate::steps_bound (or
/// late_steps_bound); with exhaustive, list order and bounds of 0 (nothing is pruned) and no
/// coarse pass.
struct PricingOrder {
  std::vector<std::size_t> order;  ///< this slice's candidates, as priced
  std::vector<double> bound;       ///< per listed candidate (0 outside the slice)
  bool coarse_first = true;        ///< price long step sequences coarsely first (price_slice)
  /// Skip a candidate that cannot win (its bound above the best so far; before its steps, its
  /// moves as well, or it does not fit): not with exhaustive.
  bool pruning = true;
  /// With pruning, on every slice but the first: list position 0 (the caller's layout, where
  /// there is one, which every other candidate must beat), priced to prune against from the
  /// slice's start and left to the first slice to count and choose.
  std::optional<std::size_t> incumbent;
  std::size_t not_candidates = 0;  ///< the slice's listed non-candidates (late_steps_bound)
  /// With pruning: the first `probes` of `order` are one squarest grid per grid size, priced
  /// first (their best coarse total is then priced in full, for the later pricings to stop
  /// against).
  std::size_t probes = 0;
};

/// Steps per sequence of the coarse pass (step_sampling.hpp): a candidate whose full pricing
/// samples its steps (more than 2·kSampledSteps of them) is priced first on this many strata,
/// and again on kSampledSteps only when its coarse total is close enough to the best ones
/// (price_slice).
inline constexpr std::size_t kCoarseSampledSteps = 12;

/// How far a coarse total may lie from the full one (the relative error of kCoarseSampledSteps
/// strata on the step models, with room to spare: step_sampling_test.cpp measures it).
inline constexpr double kCoarseMargin = 0.10;

/// The pricing order of slice `index` of `count` (the whole list when count is 1).
/// @pre index < count.
PricingOrder pricing_order(const Platform& platform, const Problem& problem,
                           const std::vector<Prediction>& predictions, bool exhaustive,
                           const DeferredCandidates& deferred = {}, std::size_t index = 0,
                           std::size_t count = 1);

/// Prices the slice `order` holds (pricing_order), skipping those whose bound exceeds the
/// best priced so far in the slice (with an incumbent, its price counts from the start: it
/// is priced coarsely where its steps are sampled, and pruned against with kCoarseMargin, as
/// any coarse total), and, once their moves and memory are priced (predict_data), those that
/// do not fit or whose bound plus moves exceeds it (they keep no prediction).
/// With order.coarse_first, candidates whose step sequences are sampled are priced on
/// kCoarseSampledSteps strata first, then, in increasing coarse total, on kSampledSteps while
/// their coarse total is within kCoarseMargin of the best full total and within it twice of
/// the best coarse total (the others count as pruned and keep no prediction); a coarse total
/// more than the margin below the best full total is priced in full at once, so that the
/// ceiling follows the best. Every sampled pricing stops once its partial sum and the floors
/// of the steps still to come (sampled_step_floors) pass what it is compared with.
/// A pricing that throws ends the slice with a pick of -inf at that candidate; the exception
/// is rethrown by search_candidates.
/// A deferred candidate is built when the slice prices it (and sketched again if it is pruned).
/// @param predictions on return, the priced ones hold their prediction.
SlicePricing price_slice(const Platform& platform, const Problem& problem, std::vector<Prediction>& predictions,
                         const PricingOrder& order, const DeferredCandidates& deferred = {});

/// What search_candidates chose.
struct SearchResult {
  std::size_t chosen = 0;       ///< index of the winner in the candidate list
  double total_s = 0.0;         ///< its predicted time
  std::vector<bool> priced;     ///< per candidate: priced by this pricer
  std::size_t pruned = 0;       ///< this pricer's candidates skipped by their lower bound
  std::size_t not_candidates = 0;  ///< this pricer's listed non-candidates, never priced
};

/// Prices this slice of `predictions` (each holding its candidate, in the planner's order),
/// lowest bound first, skipping those whose bound exceeds the best priced so far (none when
/// options.exhaustive), then agrees on the winner: the fastest that fits in memory, the
/// earlier on ties, as choose() would among all of them.
/// @param predictions on return, the priced ones hold their prediction, and the winner its
///   built candidate on every pricer (deferred: built here if another pricer priced it).
/// @param deferred per candidate, how to build it (empty: all are built).
/// @throws InvalidArgument as predict (rethrown by its pricer; the others throw a
///   PeerRefused naming the candidate, or a PeerFailed when some pricer failed otherwise);
///   Error if no candidate fits in memory; InvalidArgument on a slice index >= count, or
///   count > 1 without agree.
SearchResult search_candidates(const Platform& platform, const Problem& problem,
                               std::vector<Prediction>& predictions, const SearchOptions& options,
                               const DeferredCandidates& deferred = {});

}  // namespace hetscal::core
