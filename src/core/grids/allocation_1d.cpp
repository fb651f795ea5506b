#include "core/grids/allocation_1d.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <sstream>
#include <tuple>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"

namespace hetscal::core {
namespace {

void require_chunks(std::int64_t chunks, const char* what) {
  if (chunks < 0) {
    std::ostringstream msg;
    msg << what << " = " << chunks << "; it must be >= 0";
    throw InvalidArgument(msg.str());
  }
}

double finish_time(double cycle_time, std::int64_t count) {
  return cycle_time * static_cast<double>(count);
}

/// The processor that should receive the next chunk: argmin t_k·(c_k + 1) over the
/// processors below their cap (no cap when `caps` is empty); lowest index among equals.
/// Returns kNoSelection if every processor is at its cap.
std::size_t next_owner(const std::vector<double>& cycle_times,
                       const std::vector<std::int64_t>& counts,
                       const std::vector<std::int64_t>& caps) {
  std::size_t best = kNoSelection;
  double best_cost = 0.0;
  for (std::size_t k = 0; k < cycle_times.size(); ++k) {
    if (!caps.empty() && counts[k] >= caps[k]) continue;
    const double cost = finish_time(cycle_times[k], counts[k] + 1);
    if (best == kNoSelection || cost < best_cost) {
      best = k;
      best_cost = cost;
    }
  }
  return best;
}

double average_cost(const std::vector<double>& cycle_times,
                    const std::vector<std::int64_t>& counts) {
  double slowest = 0.0;
  std::int64_t total = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    slowest = std::max(slowest, finish_time(cycle_times[k], counts[k]));
    total += counts[k];
  }
  if (total == 0) return std::nan("");
  return slowest / static_cast<double>(total);
}

/// Hands out `length` more chunks one by one, each to argmin t_k·(c_k + 1) over the processors
/// below their cap (no cap when `caps` is empty), lowest index among equals, as next_owner
/// does; `counts` (c_k so far) is updated. Returns the owners in the order handed out.
/// A heap keyed by (cost, index) makes it O((length + p)·log p): scanning every processor per
/// chunk cost 16 million steps for one 1×1024 grid's 15,625 tile columns.
/// @pre the caps leave room for `length` chunks.
std::vector<std::size_t> hand_out(const std::vector<double>& cycle_times, std::int64_t length,
                                  std::vector<std::int64_t>& counts, const std::vector<std::int64_t>& caps) {
  using Offer = std::pair<double, std::size_t>;  // the cost of one more chunk, the processor
  std::vector<Offer> offers;
  for (std::size_t k = 0; k < cycle_times.size(); ++k)
    if (caps.empty() || counts[k] < caps[k]) offers.emplace_back(finish_time(cycle_times[k], counts[k] + 1), k);
  std::priority_queue<Offer, std::vector<Offer>, std::greater<Offer>> cheapest(std::greater<Offer>(),
                                                                               std::move(offers));
  std::vector<std::size_t> owners;
  owners.reserve(static_cast<std::size_t>(length));
  for (std::int64_t m = 0; m < length && !cheapest.empty(); ++m) {
    const std::size_t k = cheapest.top().second;
    cheapest.pop();
    owners.push_back(k);
    ++counts[k];
    if (caps.empty() || counts[k] < caps[k]) cheapest.emplace(finish_time(cycle_times[k], counts[k] + 1), k);
  }
  return owners;
}

/// The processors of one cycle-time that start from no chunk: the greedy hands them chunks
/// in passes, each in index order (a processor with one chunk fewer costs less, equals go by
/// index), and drops each at its cap.
struct EqualProcessors {
  double cycle_time = 0.0;
  std::vector<std::size_t> pass;  ///< still below their cap, increasing index
  std::vector<std::size_t> next;  ///< those served this pass that stay for the next
  std::size_t position = 0;       ///< pass[position] is the next to serve
  std::int64_t held = 0;          ///< chunks of the processors not yet served this pass
};

/// Owners of chunks 1…length in the order the greedy hands them out, from no chunk at all:
/// hand_out's order (argmin t_k·(c_k + 1), lowest index among equals), with a heap over the
/// distinct cycle-times instead of the processors, whose equals are served in passes. A
/// planner orders a thousand processors of three speeds over 15,625 tile columns per grid.
std::vector<std::size_t> greedy_sequence(const std::vector<double>& cycle_times,
                                         std::int64_t length,
                                         const std::vector<std::int64_t>& caps) {
  std::vector<EqualProcessors> groups;
  std::map<double, std::size_t> group_of;  // cycle-time -> its group
  for (std::size_t k = 0; k < cycle_times.size(); ++k) {
    if (!caps.empty() && caps[k] <= 0) continue;
    const auto [at, added] = group_of.emplace(cycle_times[k], groups.size());
    if (added) groups.push_back({cycle_times[k], {}, {}, 0, 0});
    groups[at->second].pass.push_back(k);
  }
  if (groups.size() == cycle_times.size()) {  // no two alike: hand_out's heap has less to keep
    std::vector<std::int64_t> counts(cycle_times.size(), 0);
    return hand_out(cycle_times, length, counts, caps);
  }
  using Offer = std::tuple<double, std::size_t, std::size_t>;  // cost, processor, group
  const auto offer = [&](std::size_t g) {
    const EqualProcessors& e = groups[g];
    return Offer{finish_time(e.cycle_time, e.held + 1), e.pass[e.position], g};
  };
  std::priority_queue<Offer, std::vector<Offer>, std::greater<Offer>> others;
  for (std::size_t g = 1; g < groups.size(); ++g) others.push(offer(g));
  // The cheapest offer is kept out of the heap: a group usually stays the cheapest through a
  // run of its pass (same cost, next index), and is then served without a heap operation.
  std::optional<Offer> cheapest;
  if (!groups.empty()) cheapest = offer(0);
  const auto take_cheapest = [&](std::optional<Offer> candidate) {
    if (candidate && (others.empty() || *candidate < others.top())) return candidate;
    if (candidate) others.push(*candidate);
    if (others.empty()) return std::optional<Offer>();
    const Offer top = others.top();
    others.pop();
    return std::optional<Offer>(top);
  };
  cheapest = take_cheapest(cheapest);
  std::vector<std::size_t> owners;
  owners.reserve(static_cast<std::size_t>(std::max<std::int64_t>(length, 0)));
  for (std::int64_t m = 0; m < length && cheapest; ++m) {
    const std::size_t g = std::get<2>(*cheapest);
    EqualProcessors& e = groups[g];
    const std::size_t k = e.pass[e.position++];
    owners.push_back(k);
    if (caps.empty() || e.held + 1 < caps[k]) e.next.push_back(k);
    if (e.position == e.pass.size()) {  // every one served: the next pass, one chunk more each
      e.pass.swap(e.next);
      e.next.clear();
      e.position = 0;
      ++e.held;
    }
    cheapest = take_cheapest(e.pass.empty() ? std::nullopt : std::optional<Offer>(offer(g)));
  }
  return owners;
}

}  // namespace

std::vector<std::int64_t> optimal_allocation(const std::vector<double>& cycle_times,
                                             std::int64_t chunks) {
  require_positive_finite(cycle_times, "cycle-times");
  require_chunks(chunks, "chunks");
  double total_speed = 0.0;
  for (double t : cycle_times) total_speed += 1.0 / t;

  // Initialisation: proportional shares rounded down. Rounding in floating point could in
  // principle push the sum above M; then the greedy alone (from zero) is used instead.
  std::vector<std::int64_t> counts(cycle_times.size());
  std::int64_t assigned = 0;
  for (std::size_t k = 0; k < cycle_times.size(); ++k) {
    const double share = static_cast<double>(chunks) * (1.0 / cycle_times[k]) / total_speed;
    counts[k] = static_cast<std::int64_t>(std::floor(share));
    assigned += counts[k];
  }
  if (assigned > chunks) {
    std::fill(counts.begin(), counts.end(), 0);
    assigned = 0;
  }
  hand_out(cycle_times, chunks - assigned, counts, {});
  return counts;
}

std::vector<IncrementalStep> incremental_allocation(const std::vector<double>& cycle_times,
                                                    std::int64_t chunks) {
  require_positive_finite(cycle_times, "cycle-times");
  require_chunks(chunks, "chunks");
  std::vector<IncrementalStep> rows;
  rows.reserve(static_cast<std::size_t>(chunks) + 1);
  IncrementalStep row;
  row.counts.assign(cycle_times.size(), 0);
  for (std::int64_t m = 0;; ++m) {
    row.chunks = m;
    row.average_cost = average_cost(cycle_times, row.counts);
    row.selected = m < chunks ? next_owner(cycle_times, row.counts, {}) : kNoSelection;
    rows.push_back(row);
    if (m == chunks) break;
    ++row.counts[row.selected];
  }
  return rows;
}

std::vector<std::size_t> lu_slice_order(const std::vector<double>& cycle_times,
                                        std::int64_t slice) {
  require_positive_finite(cycle_times, "cycle-times");
  require_chunks(slice, "slice");
  std::vector<std::size_t> owners = greedy_sequence(cycle_times, slice, {});
  std::reverse(owners.begin(), owners.end());
  return owners;
}

std::vector<std::size_t> lu_order_with_counts(const std::vector<double>& cycle_times,
                                              const std::vector<std::int64_t>& counts) {
  require_positive_finite(cycle_times, "cycle-times");
  if (counts.size() != cycle_times.size()) {
    std::ostringstream msg;
    msg << "counts: " << counts.size() << " values given for " << cycle_times.size()
        << " cycle-times";
    throw InvalidArgument(msg.str());
  }
  for (std::int64_t c : counts) require_chunks(c, "count");
  const std::int64_t length = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
  std::vector<std::size_t> owners = greedy_sequence(cycle_times, length, counts);
  std::reverse(owners.begin(), owners.end());
  return owners;
}

}  // namespace hetscal::core
