#include "core/planners/candidate_search.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "core/common/error.hpp"
#include "core/planners/factorization_plan.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/step_sampling.hpp"

namespace hetscal::core {
namespace {

double tiles_of(std::size_t extent, std::size_t tile) {
  return static_cast<double>((extent + tile - 1) / tile);
}

/// Σ_{k=0}^{S−1} (A − k)(B − k), in closed form.
double sum_of_products(double S, double A, double B) {
  return S * A * B - (A + B) * S * (S - 1.0) / 2.0 + (S - 1.0) * S * (2.0 * S - 1.0) / 6.0;
}

/// The update work of the routine's steps in units of nb³ flops, as the step models count it
/// (lu_steps.hpp, qr_steps.hpp, cholesky_steps.hpp, time_model_steps.hpp for GEMM): whole
/// trailing tiles, summed over the steps k < S = min(rows, cols) tiles, in closed form (a
/// search bounds thousands of candidates, and N/nb steps each would add up).
double update_units(const Problem& problem, std::size_t nb) {
  const double rows = tiles_of(problem.rows(), nb), cols = tiles_of(problem.n, nb);
  if (problem.routine == Routine::Gemm) return 2.0 * tiles_of(problem.inner(), nb) * rows * cols;
  const double steps = std::min(rows, cols);
  switch (problem.routine) {
    case Routine::LU: return 2.0 * sum_of_products(steps, rows - 1.0, cols - 1.0);  // GEMM 2nb³
    case Routine::QR: return 4.0 * sum_of_products(steps, rows, cols - 1.0);        // Vᴴ·A and the update
    case Routine::Cholesky:  // SYRK nb³ and GEMM 2nb³ on b tiles below: b + b(b − 1) = b²
      return sum_of_products(steps, rows - 1.0, rows - 1.0);
    case Routine::Gemm: break;
  }
  return 0.0;
}

/// Keeps the `most` boundaries with the largest speed drop to the next class (and the last).
std::vector<std::size_t> largest_drops(const std::vector<SpeedClass>& classes, std::size_t most) {
  std::vector<std::size_t> order(classes.size() - 1);  // boundary after class c
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return classes[a].speed_flops / classes[a + 1].speed_flops > classes[b].speed_flops / classes[b + 1].speed_flops;
  });
  order.resize(std::min(order.size(), most));
  std::sort(order.begin(), order.end());
  std::vector<std::size_t> boundaries;
  std::size_t c = 0, count = 0;
  for (std::size_t cut : order) {
    for (; c <= cut; ++c) count += classes[c].count;
    boundaries.push_back(count);
  }
  return boundaries;
}

std::size_t divisor_count(std::size_t k) {
  std::size_t count = 0;
  for (std::size_t d = 1; d * d <= k; ++d)
    if (k % d == 0) count += d * d == k ? 1 : 2;
  return count;
}

/// The count in [low, high] (low >= 1) with the most grid shapes p×q = k (ties: the largest).
std::size_t most_shapes_count(std::size_t low, std::size_t high) {
  std::size_t best = high, shapes = 0;
  for (std::size_t k = high; k >= std::max<std::size_t>(low, 1); --k) {
    const std::size_t d = divisor_count(k);
    if (d > shapes) {
      best = k;
      shapes = d;
    }
  }
  return best;
}

}  // namespace

std::vector<SpeedClass> speed_classes(const Platform& platform) {
  std::vector<SpeedClass> classes;
  for (std::size_t x : fastest_first(platform)) {
    const double speed = platform.processors[x].speed_flops;
    if (classes.empty() || classes.back().speed_flops != speed) classes.push_back({speed, 0});
    ++classes.back().count;
  }
  return classes;
}

std::size_t near_square_count(std::size_t count) {
  std::size_t best = std::min<std::size_t>(count, 1);
  for (std::size_t p = 1; p * p <= count; ++p) best = std::max(best, p * std::min(count / p, 2 * p));
  return best;
}

std::vector<std::size_t> searched_process_counts(const Platform& platform, std::size_t max_processors,
                                                 bool exhaustive) {
  require_valid(platform);
  const std::size_t most = planned_processor_count(platform, max_processors);
  std::set<std::size_t> counts;
  if (exhaustive) {
    for (std::size_t k = 1; k <= most; ++k) counts.insert(k);
    return {counts.begin(), counts.end()};
  }
  const auto classes = speed_classes(platform);
  std::vector<std::size_t> anchors = largest_drops(classes, kMaxClassBoundaries - 1);
  anchors.push_back(most);
  for (std::size_t k = 1; k < most;
       k = k < kEveryCountUpTo ? k + 1 : static_cast<std::size_t>(kCountLadderRatio * static_cast<double>(k)))
    anchors.push_back(k);
  for (std::size_t anchor : anchors) {
    const std::size_t k = std::min(anchor, most);
    counts.insert(k);
    counts.insert(near_square_count(k));
    counts.insert(most_shapes_count(static_cast<std::size_t>(static_cast<double>(k) / kCountLadderRatio), k));
  }
  return {counts.begin(), counts.end()};
}

double compute_lower_bound(const Platform& platform, const Problem& problem, const Candidate& candidate) {
  if (candidate.kind == CandidateKind::CallerLayout || candidate.tile == 0) return 0.0;
  double speed = 0.0;
  for (std::size_t x : candidate.processors())
    if (x < platform.size()) speed += platform.processors[x].speed_flops;
  return compute_lower_bound(platform, problem, candidate.tile, speed);
}

double compute_lower_bound(const Platform& platform, const Problem& problem, std::size_t tile, double speed_flops) {
  if (tile == 0 || speed_flops <= 0.0) return 0.0;
  const double nb = static_cast<double>(tile);
  // The kernel's best rate for this tile: grouped or tile by tile, whichever is faster.
  const double efficiency =
      platform.kernel.efficiency(nb) * std::max(1.0, platform.kernel.per_tile_calls);
  return update_units(problem, tile) * nb * nb * nb / (speed_flops * efficiency);
}

Candidate sketch_of(const Candidate& candidate) {
  Candidate sketch;
  sketch.kind = candidate.kind;
  sketch.label = candidate.label;
  sketch.tile = candidate.tile;
  sketch.rows = candidate.rows;
  sketch.cols = candidate.cols;
  sketch.panel_rank = candidate.panel_rank;
  return sketch;
}

namespace {

/// Candidate i's bound from its sketch or its build (nullopt: it is not a candidate).
std::optional<double> listed_bound(const Platform& platform, const Problem& problem,
                                   const std::vector<Prediction>& predictions, const DeferredCandidates& deferred,
                                   std::size_t i) {
  const Candidate& c = predictions[i].candidate;
  const bool sketch = i < deferred.size() && deferred[i].build && c.owner.empty();
  if (!sketch) return compute_lower_bound(platform, problem, c);
  const DeferredCandidate& d = deferred[i];
  const std::optional<double> steps = d.late_steps_bound ? d.late_steps_bound() : d.steps_bound;
  if (!steps) return std::nullopt;
  return std::max(compute_lower_bound(platform, problem, c.tile, d.speed_flops), *steps);
}

/// How far grid p×q is from square: max(p, q) / min(p, q).
double aspect(const Candidate& c) {
  return static_cast<double>(std::max(c.rows, c.cols)) / static_cast<double>(std::min(c.rows, c.cols));
}

/// Moves to the front of `order` (ordered by bound) one probe per grid size p·q: its squarest
/// grid, the first in bound order among equals. The bound order alone prices the candidates
/// with the most speed first, and where messages dominate (a slow network, thousands of
/// processors) those are the slowest of all: until a small grid is priced, the best total
/// stays far above the winner's and prunes nothing, and thousands of candidates were priced
/// step by step. A near-square grid on each process count is close to the best of its count,
/// so after the probes the best total is within the candidates' spread of the winner's and
/// the bounds prune. Only the order changes: the probes are priced and pruned as any other.
std::size_t probes_first(const std::vector<Prediction>& predictions, std::vector<std::size_t>& order) {
  std::map<std::size_t, std::size_t> probe_of_size;  // p·q -> position in order
  for (std::size_t at = 0; at < order.size(); ++at) {
    const Candidate& c = predictions[order[at]].candidate;
    if (c.kind != CandidateKind::Cartesian || c.rows == 0 || c.cols == 0) continue;
    const auto [it, added] = probe_of_size.emplace(c.rows * c.cols, at);
    if (!added && aspect(c) < aspect(predictions[order[it->second]].candidate)) it->second = at;
  }
  std::vector<bool> probe(order.size(), false);
  for (const auto& [size, at] : probe_of_size) probe[at] = true;
  std::vector<std::size_t> probes_then_rest;
  probes_then_rest.reserve(order.size());
  for (std::size_t at = 0; at < order.size(); ++at)
    if (probe[at]) probes_then_rest.push_back(order[at]);
  for (std::size_t at = 0; at < order.size(); ++at)
    if (!probe[at]) probes_then_rest.push_back(order[at]);
  order = std::move(probes_then_rest);
  return probe_of_size.size();
}

}  // namespace

PricingOrder pricing_order(const Platform& platform, const Problem& problem,
                           const std::vector<Prediction>& predictions, bool exhaustive,
                           const DeferredCandidates& deferred, std::size_t index, std::size_t count) {
  if (count == 0 || index >= count)
    throw InvalidArgument("pricing_order: slice " + std::to_string(index) + " of " + std::to_string(count));
  PricingOrder result;
  result.bound.assign(predictions.size(), 0.0);
  result.coarse_first = result.pruning = !exhaustive;
  for (std::size_t i = index; i < predictions.size(); i += count) {
    const std::optional<double> bound = listed_bound(platform, problem, predictions, deferred, i);
    if (!bound) {
      ++result.not_candidates;
      continue;
    }
    if (!exhaustive) result.bound[i] = *bound;
    result.order.push_back(i);
  }
  std::stable_sort(result.order.begin(), result.order.end(),
                   [&](std::size_t a, std::size_t b) { return result.bound[a] < result.bound[b]; });
  if (result.pruning) result.probes = probes_first(predictions, result.order);
  if (result.pruning && index != 0 && !predictions.empty() &&
      listed_bound(platform, problem, predictions, deferred, 0))
    result.incumbent = 0;
  return result;
}

namespace {

/// What a pricer that failed contributes to the agreement: a refusal (InvalidArgument, which
/// every pricer of the same candidate would meet alike) as kRefusedPick, anything else (memory)
/// as −∞, which wins over a refusal, so that every pricer learns the worse of the two.
double failed_pick_seconds(const std::exception& e) {
  return dynamic_cast<const InvalidArgument*>(&e) ? kRefusedPick : -std::numeric_limits<double>::infinity();
}

/// True when the candidate's full pricing samples its steps already (some step sequence is
/// longer than 2·kSampledSteps: the shortest side over the tile size), so that a coarse first
/// pass replaces an estimate by a cheaper estimate; shorter sequences are walked exactly, once.
bool sampled_coarsely(const Problem& problem, const Candidate& candidate) {
  if (candidate.tile == 0) return false;
  const std::size_t shortest = std::min({problem.rows(), problem.n, problem.inner()});
  return shortest / candidate.tile > 2 * kSampledSteps;
}

/// True when candidate i is still the sketch of a deferred candidate.
bool is_sketch(const DeferredCandidates& deferred, const std::vector<Prediction>& predictions, std::size_t i) {
  return i < deferred.size() && deferred[i].build && predictions[i].candidate.owner.empty();
}

/// One slice's pricing: the candidates in pricing order, the best full total so far.
class SlicePricer {
 public:
  SlicePricer(const Platform& platform, const Problem& problem, std::vector<Prediction>& predictions,
              const PricingOrder& order, const DeferredCandidates& deferred, std::exception_ptr& failure)
      : platform_(platform), problem_(problem), predictions_(predictions), order_(order), deferred_(deferred),
        failure_(failure) {
    slice_.priced.assign(predictions.size(), false);
  }

  /// Builds candidate i if it is deferred, then prices its moves and memory (predict_data);
  /// false if either threw (the slice ends).
  bool price_data(std::size_t i) {
    return guarded(i, [&] {
      build(i);
      if (!caller_) caller_ = caller_data(platform_, problem_);
      predictions_[i] = predict_data(platform_, problem_, predictions_[i].candidate, *caller_);
    });
  }

  /// Sets `steps_s` to step_time_lower_bound of candidate i (built first if deferred): what its
  /// steps cannot go below, computed no further than `limit` needs. False if that threw (the
  /// slice ends).
  bool bound_steps(std::size_t i, double limit, double& steps_s) {
    return guarded(i, [&] {
      build(i);
      steps_s = step_time_lower_bound(platform_, problem_, predictions_[i].candidate, limit);
    });
  }

  /// Candidate i without a prediction, and a sketch again if it was deferred (a slice keeps no
  /// owner table of what it dropped).
  void forget(std::size_t i) {
    Candidate& c = predictions_[i].candidate;
    const bool deferred = i < deferred_.size() && deferred_[i].build;
    predictions_[i] = Prediction{deferred ? sketch_of(c) : std::move(c), {}, 0.0, 0.0, 0};
  }

  /// Prices the order's incumbent (the first slice's candidate that every other slice prunes
  /// against from its start), coarsely where its steps are sampled: its total then counts as
  /// a coarse one, widened by kCoarseMargin as any other. It stays the first slice's to count
  /// and choose. False if its pricing threw (the slice ends).
  bool price_incumbent() {
    if (!order_.incumbent) return true;
    const std::size_t first = *order_.incumbent;
    const bool coarse = sampled_coarsely(problem_, predictions_[first].candidate);
    if (!price_data(first) || !price_steps(first, coarse ? kCoarseSampledSteps : kSampledSteps)) return false;
    if (predictions_[first].fits_memory()) (coarse ? best_coarse_ : incumbent_s_) = predictions_[first].total_s();
    forget(first);
    return true;
  }

  /// Prices candidate i's steps on `samples` strata, on top of price_data's; false if the
  /// pricing threw (the slice ends). With pruning, a sampled pricing may stop once its sum
  /// passes `stop` (PricingLimitScope): the candidate cannot be chosen then, and is left
  /// without a prediction, counted as pruned, with `beyond` set.
  bool price_steps(std::size_t i, std::size_t samples, double stop = std::numeric_limits<double>::infinity()) {
    bool beyond = false;
    return price_steps(i, samples, stop, beyond);
  }

  bool price_steps(std::size_t i, std::size_t samples, double stop, bool& beyond) {
    const StepSamplingScope scope(samples);
    // Only a search that prunes stops a pricing, and only a sampled one (long sequences):
    // shorter ones are cheap, and are reported whole.
    const bool may_stop = order_.pruning && sampled_coarsely(problem_, predictions_[i].candidate);
    const PricingLimitScope limit(may_stop ? stop - predictions_[i].time.redistribution
                                           : std::numeric_limits<double>::infinity());
    if (!guarded(i, [&] { add_step_times(platform_, problem_, predictions_[i]); })) return false;
    beyond = limit.stopped();
    if (beyond) {
      forget(i);
      ++slice_.pruned;
    }
    return true;
  }

  /// Sets `beaten` when candidate i cannot win whatever its steps cost, and leaves it without
  /// a prediction then:
  ///   - its steps alone cannot beat `limit` (step_time_lower_bound: the panel chain of LU and
  ///     QR, the update bound of Cholesky), checked before its moves are priced, because at
  ///     a thousand processors most candidates fall here and predict_data's owner tables and
  ///     joint counts were most of the search;
  ///   - it does not fit in memory, or its moves and the better of its two bounds exceed `limit`.
  /// Strictly above: a candidate that could tie the best (and come earlier) is still priced.
  /// With pruning off, only its data is priced. False if a pricing threw (the slice ends).
  bool beaten_before_its_steps(std::size_t i, double limit, bool& beaten) {
    beaten = false;
    double steps_s = 0.0;
    const bool bounded = order_.pruning && limit < std::numeric_limits<double>::infinity();
    if (bounded) {
      if (!bound_steps(i, limit, steps_s)) return false;
      beaten = steps_s > limit;
    }
    if (!beaten) {
      if (!price_data(i)) return false;
      const Prediction& p = predictions_[i];
      beaten = order_.pruning &&
               (!p.fits_memory() || std::max(order_.bound[i], steps_s) + p.time.redistribution > limit);
    }
    if (beaten) forget(i);
    return true;
  }

  /// Candidate i priced in full: the slice's pick if it is the fastest that fits.
  void keep_full(std::size_t i) {
    slice_.priced[i] = true;
    const Prediction& p = predictions_[i];
    CandidatePick& mine = slice_.pick;
    if (p.fits_memory() && (p.total_s() < mine.total_s || (p.total_s() == mine.total_s && i < mine.index)))
      mine = {p.total_s(), i};
  }

  /// Prices candidate i in full, stopping once it cannot beat the best full total: the
  /// slice's pick if it is the fastest that fits. False if the pricing threw.
  bool price_in_full(std::size_t i) {
    bool beyond = false;
    if (!price_steps(i, kSampledSteps, stop_full(), beyond)) return false;
    if (!beyond) keep_full(i);
    return true;
  }

  /// Once the probes are priced: their best coarse total in full (taken out of `coarse`), so
  /// that the coarse pricings after them can stop at coarse_ceiling(), which needs a full
  /// total. False if the pricing threw.
  bool price_best_coarse_in_full(std::vector<std::pair<double, std::size_t>>& coarse) {
    if (coarse.empty()) return true;
    const auto best = std::min_element(coarse.begin(), coarse.end(),
                                       [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::size_t i = best->second;
    coarse.erase(best);
    return price_in_full(i);
  }

  /// True when a coarse total lies so far below the best full total (by more than the
  /// margin) that pricing its candidate in full now lowers coarse_ceiling() at once: the
  /// coarse pricings after it then stop sooner, and fewer pass the bounds, where waiting
  /// for the end of the pass kept the ceiling of a much slower candidate all along (at 1,024
  /// processors, a 2DBC grid 60 % slower than the heterogeneous grids that followed).
  bool tightens_ceiling(double coarse_s) const { return coarse_s * (1.0 + kCoarseMargin) < best_full_s(); }

  /// Where a full pricing may stop: above the best full total it cannot win (a tie may).
  double stop_full() const { return best_full_s(); }

  /// The best full total known: the slice's pick, or the incumbent's.
  double best_full_s() const { return std::min(slice_.pick.total_s, incumbent_s_); }

  /// What the coarse totals may be compared with: the best full total, widened by the margin,
  /// or the best coarse total, widened by it twice (each lies within the margin of its full
  /// total, so a coarse total further above cannot be the faster in full). The second
  /// matters on a slice whose only price is the incumbent's coarse one: at 16,384
  /// processors a 16384×1 grid 29 % above it was then priced in full, most of a rank's share.
  double coarse_ceiling() const {
    return std::min(best_full_s() * (1.0 + kCoarseMargin), best_coarse_ * (1.0 + kCoarseMargin) * (1.0 + kCoarseMargin));
  }

  SlicePricing run() {
    slice_.not_candidates = order_.not_candidates;
    if (!price_incumbent()) return std::move(slice_);
    std::vector<std::pair<double, std::size_t>> coarse;  // (coarse total, candidate) that fit
    for (std::size_t at = 0; at < order_.order.size(); ++at) {
      if (at == order_.probes && !price_best_coarse_in_full(coarse)) return std::move(slice_);
      const std::size_t i = order_.order[at];
      const double limit = std::min(best_full_s(), best_coarse_ * (1.0 + kCoarseMargin));
      // Strictly above: a candidate that could tie the best (and come earlier) is still priced.
      if (order_.bound[i] > limit) {
        ++slice_.pruned;
        continue;
      }
      bool beaten = false;
      if (!beaten_before_its_steps(i, limit, beaten)) return std::move(slice_);
      if (beaten) {
        ++slice_.pruned;
        continue;
      }
      const bool two_passes = order_.coarse_first && sampled_coarsely(problem_, predictions_[i].candidate);
      // A coarse total above the ceiling would be dropped after the pass, a full one above
      // the best could not win: either pricing stops there.
      bool beyond = false;
      if (!price_steps(i, two_passes ? kCoarseSampledSteps : kSampledSteps,
                       two_passes ? coarse_ceiling() : stop_full(), beyond))
        return std::move(slice_);
      if (beyond) continue;
      if (!two_passes) {
        keep_full(i);
        continue;
      }
      const Prediction& p = predictions_[i];
      if (p.fits_memory()) {
        best_coarse_ = std::min(best_coarse_, p.total_s());
        if (at >= order_.probes && tightens_ceiling(p.total_s())) {
          if (!price_in_full(i)) return std::move(slice_);
        } else {
          coarse.emplace_back(p.total_s(), i);
        }
      } else {
        keep_full(i);  // memory is not sampled: it cannot be chosen whatever its time
      }
    }
    std::stable_sort(coarse.begin(), coarse.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [coarse_s, i] : coarse) {
      if (coarse_s > coarse_ceiling()) {  // and every later one: too slow to win
        forget(i);
        ++slice_.pruned;
        continue;
      }
      if (!price_in_full(i)) return std::move(slice_);
    }
    return std::move(slice_);
  }

 private:
  /// Candidate i built in full if it is still a deferred sketch.
  void build(std::size_t i) {
    if (is_sketch(deferred_, predictions_, i)) predictions_[i].candidate = deferred_[i].build();
  }

  /// Runs one pricing of candidate i; false, with the slice's pick set to the failure, if it threw.
  template <typename Pricing>
  bool guarded(std::size_t i, Pricing pricing) {
    try {
      pricing();
    } catch (const std::exception& e) {
      slice_.pick = {failed_pick_seconds(e), i};
      failure_ = std::current_exception();
      return false;  // every pricer learns of it from the agreement
    }
    return true;
  }

  const Platform& platform_;
  const Problem& problem_;
  std::vector<Prediction>& predictions_;
  const PricingOrder& order_;
  const DeferredCandidates& deferred_;
  std::exception_ptr& failure_;
  std::optional<CallerData> caller_;  ///< made on the first candidate priced
  SlicePricing slice_;
  double best_coarse_ = std::numeric_limits<double>::infinity();
  double incumbent_s_ = std::numeric_limits<double>::infinity();  ///< price_incumbent's total
};

/// price_slice, keeping the exception of a failed pricing for search_candidates.
SlicePricing price_slice_keeping(const Platform& platform, const Problem& problem,
                                 std::vector<Prediction>& predictions, const PricingOrder& order,
                                 const DeferredCandidates& deferred, std::exception_ptr& failure) {
  return SlicePricer(platform, problem, predictions, order, deferred, failure).run();
}

}  // namespace

SlicePricing price_slice(const Platform& platform, const Problem& problem, std::vector<Prediction>& predictions,
                         const PricingOrder& order, const DeferredCandidates& deferred) {
  std::exception_ptr failure;
  return price_slice_keeping(platform, problem, predictions, order, deferred, failure);
}

SearchResult search_candidates(const Platform& platform, const Problem& problem,
                               std::vector<Prediction>& predictions, const SearchOptions& options,
                               const DeferredCandidates& deferred) {
  const PricingSlice& slice = options.slice;
  if (slice.count == 0 || slice.index >= slice.count)
    throw InvalidArgument("search_candidates: slice " + std::to_string(slice.index) + " of " +
                          std::to_string(slice.count));
  if (slice.count > 1 && !slice.agree)
    throw InvalidArgument("search_candidates: " + std::to_string(slice.count) + " slices but no agreement");
  const std::size_t count = predictions.size();
  std::exception_ptr failure;
  SlicePricing mine;
  try {
    const PricingOrder order =
        pricing_order(platform, problem, predictions, options.exhaustive, deferred, slice.index, slice.count);
    mine = price_slice_keeping(platform, problem, predictions, order, deferred, failure);
  } catch (const std::exception& e) {  // a late bound that threw: the others learn of it
    mine.pick = {failed_pick_seconds(e), 0};
    mine.priced.assign(count, false);
    failure = std::current_exception();
  }
  const CandidatePick agreed = slice.count > 1 ? slice.agree(mine.pick) : mine.pick;
  if (agreed.total_s < 0.0) {  // a pricer failed
    if (failure && agreed.index == mine.pick.index && agreed.total_s == mine.pick.total_s)
      std::rethrow_exception(failure);
    const std::string what = "search_candidates: another pricer could not price candidate " + std::to_string(agreed.index);
    // A refusal is thrown as one on every pricer, so that each remembers it alike; the
    // failing pricer's own exception is the one to report (EchoedFailure).
    if (agreed.total_s == kRefusedPick) throw PeerRefused(what);
    throw PeerFailed(what);
  }
  if (!(agreed.total_s < std::numeric_limits<double>::infinity()) || agreed.index >= count) {
    std::ostringstream msg;
    msg << "choose: none of the " << count << " candidates fits in memory";
    throw Error(msg.str());
  }
  // Every pricer builds the winner alike (the builds are deterministic): the same plan everywhere.
  if (is_sketch(deferred, predictions, agreed.index))
    predictions[agreed.index].candidate = deferred[agreed.index].build();
  SearchResult result;
  result.chosen = agreed.index;
  result.total_s = agreed.total_s;
  result.priced = std::move(mine.priced);
  result.pruned = mine.pruned;
  result.not_candidates = mine.not_candidates;
  return result;
}

}  // namespace hetscal::core
