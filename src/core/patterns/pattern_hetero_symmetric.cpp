#include "core/patterns/pattern_hetero_symmetric.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

#include "core/common/error.hpp"
#include "core/patterns/bipartite_matching.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_hetero.hpp"

namespace hetscal::core {
namespace {

/// The state of one run (file comment of the header, steps 1–3).
class SymmetricBuilder {
 public:
  SymmetricBuilder(const Speeds& speeds, int size, std::uint64_t seed)
      : P_(static_cast<int>(speeds.size())),
        r_(size),
        rng_(seed),
        quota_(apportion(speeds.speeds(), static_cast<std::int64_t>(size) * size)),
        holds_(static_cast<std::size_t>(P_) * size, 0),
        colrows_(static_cast<std::size_t>(P_)),
        usage_(static_cast<std::size_t>(size), 0),
        covered_(static_cast<std::size_t>(size) * size, 0),
        owner_(static_cast<std::size_t>(size) * size, Pattern::kUnassigned) {
    ordered_ = std::all_of(quota_.begin(), quota_.end(), [](std::int64_t q) { return q > 0; });
    for (int p = 0; p < P_; ++p) {
      if (quota_[static_cast<std::size_t>(p)] > 0) ++short_of_room_;
      if (ordered_) least_room_[{0, quota_[static_cast<std::size_t>(p)]}].push_back(p);
    }
    std::vector<int> by_speed(static_cast<std::size_t>(P_));
    std::iota(by_speed.begin(), by_speed.end(), 0);
    std::stable_sort(by_speed.begin(), by_speed.end(),
                     [&](int a, int b) { return speeds.speed(a) > speeds.speed(b); });
    for (int t = 0; t < r_; ++t) add_colrow(by_speed[static_cast<std::size_t>(t % P_)], t);
  }

  Pattern run() {
    while (uncovered_ > 0 || !every_node_has_room()) {
      const int node = node_with_least_room();
      add_colrow(node, best_colrow(node));
    }
    while (!match_cells()) {
    }
    return Pattern(r_, r_, P_, owner_);
  }

 private:
  std::size_t cell(int i, int j) const { return static_cast<std::size_t>(i) * r_ + j; }
  bool holds(int node, int colrow) const { return holds_[static_cast<std::size_t>(node) * r_ + colrow]; }
  std::int64_t room(int node) const {
    const auto a = static_cast<std::int64_t>(colrows_[static_cast<std::size_t>(node)].size());
    return a * a;
  }
  int pick(const std::vector<int>& ties) { return ties[rng_() % ties.size()]; }

  void add_colrow(int node, int t) {
    if (holds(node, t)) return;
    const std::int64_t room_before = room(node);
    holds_[static_cast<std::size_t>(node) * r_ + t] = 1;
    colrows_[static_cast<std::size_t>(node)].push_back(t);
    ++usage_[static_cast<std::size_t>(t)];
    for (int other : colrows_[static_cast<std::size_t>(node)]) {
      for (std::size_t c : {cell(t, other), cell(other, t)}) {
        if (!covered_[c]) covered_[c] = 1, --uncovered_;
      }
    }
    room_grew(node, room_before);
  }

  /// The node's room grew from `before`: keeps short_of_room_ and least_room_ up to date.
  void room_grew(int node, std::int64_t before) {
    const std::int64_t quota = quota_[static_cast<std::size_t>(node)], after = room(node);
    if (before < quota && after >= quota) --short_of_room_;
    if (!ordered_) return;
    const std::int64_t whole = static_cast<std::int64_t>(r_) * r_;  // a node holding every colrow
    if (before < whole) {
      const auto group = least_room_.find({before, quota});
      std::vector<int>& nodes = group->second;
      nodes.erase(std::lower_bound(nodes.begin(), nodes.end(), node));
      if (nodes.empty()) least_room_.erase(group);
    }
    if (after < whole) {
      std::vector<int>& nodes = least_room_[{after, quota}];
      nodes.insert(std::lower_bound(nodes.begin(), nodes.end(), node), node);
    }
  }

  bool every_node_has_room() const { return short_of_room_ == 0; }

  /// Least |A_p|²/quota_p (compared exactly by cross-multiplying), ties random: with every
  /// quota positive the ratio is a total order, so the ties are least_room_'s first group
  /// (a scan of all P nodes per colrow was most of a run at a thousand nodes).
  int node_with_least_room() {
    if (!ordered_) return scan_least_room();
    return pick(least_room_.begin()->second);
  }

  /// node_with_least_room by a scan of every node, ties in index order (a zero quota makes
  /// the cross-multiplied comparison no order: the scan decides as it always did).
  int scan_least_room() {
    std::vector<int> ties;
    for (int p = 0; p < P_; ++p) {
      if (static_cast<std::size_t>(room(p)) >= static_cast<std::size_t>(r_) * r_) continue;
      if (ties.empty()) { ties.push_back(p); continue; }
      const int q = ties.front();
      const std::int64_t lhs = room(p) * quota_[static_cast<std::size_t>(q)];
      const std::int64_t rhs = room(q) * quota_[static_cast<std::size_t>(p)];
      if (lhs < rhs) ties.assign(1, p);
      else if (lhs == rhs) ties.push_back(p);
    }
    return pick(ties);
  }

  /// Most newly covered cells, then least used colrow, then random (GCR&M's line 8).
  int best_colrow(int node) {
    int best_gain = -1, best_usage = 0;
    std::vector<int> ties;
    for (int t = 0; t < r_; ++t) {
      if (holds(node, t)) continue;
      int gain = covered_[cell(t, t)] ? 0 : 1;
      for (int other : colrows_[static_cast<std::size_t>(node)]) gain += covered_[cell(t, other)] ? 0 : 2;
      const int use = usage_[static_cast<std::size_t>(t)];
      if (gain > best_gain || (gain == best_gain && use < best_usage)) {
        best_gain = gain, best_usage = use;
        ties.clear();
      }
      if (gain == best_gain && use == best_usage) ties.push_back(t);
    }
    return pick(ties);
  }

  /// Per colrow, the nodes holding it, increasing: a cell's candidate owners are found among
  /// its row's few holders instead of among all P nodes (r²·P tests were most of a run at a
  /// thousand nodes), and met in the same order, so the matching is the same.
  std::vector<std::vector<int>> holders_of_colrows() const {
    std::vector<std::vector<int>> holders(static_cast<std::size_t>(r_));
    for (int p = 0; p < P_; ++p)
      for (int t : colrows_[static_cast<std::size_t>(p)]) holders[static_cast<std::size_t>(t)].push_back(p);
    return holders;
  }

  /// Matches every cell to a quota slot of a node holding its row and column. Returns false,
  /// after giving the unmatched cells' colrows to nodes with free slots, if some stay open.
  bool match_cells() {
    SlotBipartiteGraph graph(r_ * r_, std::vector<int>(quota_.begin(), quota_.end()));
    const std::vector<std::vector<int>> holders = holders_of_colrows();
    for (int i = 0; i < r_; ++i)
      for (int j = 0; j < r_; ++j)
        for (int p : holders[static_cast<std::size_t>(i)])
          if (holds(p, j)) graph.add_edge(static_cast<int>(cell(i, j)), p);
    const std::vector<int> partner = graph.maximum_matching();
    std::vector<int> first_slot(static_cast<std::size_t>(P_) + 1);
    for (int p = 0; p <= P_; ++p) first_slot[static_cast<std::size_t>(p)] = graph.first_slot(p);
    std::vector<std::int64_t> free_slots(quota_);
    std::vector<std::size_t> open;
    for (std::size_t c = 0; c < partner.size(); ++c) {
      if (partner[c] == BipartiteGraph::kUnmatched) { open.push_back(c); continue; }
      const auto node = std::upper_bound(first_slot.begin(), first_slot.end(), partner[c]) - first_slot.begin() - 1;
      owner_[c] = static_cast<int>(node);
      --free_slots[static_cast<std::size_t>(node)];
    }
    for (std::size_t c : open) {
      const auto node = static_cast<int>(std::max_element(free_slots.begin(), free_slots.end()) - free_slots.begin());
      --free_slots[static_cast<std::size_t>(node)];
      add_colrow(node, static_cast<int>(c) / r_);
      add_colrow(node, static_cast<int>(c) % r_);
    }
    return open.empty();
  }

  const int P_, r_;
  std::mt19937_64 rng_;
  std::vector<std::int64_t> quota_;
  std::vector<char> holds_;                ///< [node*r + colrow]
  std::vector<std::vector<int>> colrows_;  ///< A_p
  std::vector<int> usage_;                 ///< nodes holding each colrow
  std::vector<char> covered_;              ///< [i*r + j]: some node holds i and j
  std::int64_t uncovered_ = static_cast<std::int64_t>(r_) * r_;
  std::vector<int> owner_;
  std::int64_t short_of_room_ = 0;  ///< nodes with |A_p|² < quota_p
  /// A room against a quota, ordered by |A_p|²/quota_p, exactly (equal ratios are one key).
  struct RoomRatio {
    std::int64_t room, quota;
    bool operator<(const RoomRatio& o) const { return room * o.quota < o.room * quota; }
  };
  bool ordered_ = false;  ///< every quota > 0
  /// By increasing ratio, the nodes that do not hold every colrow, increasing (when ordered_).
  std::map<RoomRatio, std::vector<int>> least_room_;
};

void require_at_least(int value, int least, const char* what) {
  if (value >= least) return;
  std::ostringstream msg;
  msg << "heterogeneous symmetric pattern: " << what << " = " << value << " must be >= " << least;
  throw InvalidArgument(msg.str());
}

int smallest_size(const Speeds& speeds, const HeteroSymmetricOptions& options) {
  const auto& s = speeds.speeds();
  const double slowest = *std::min_element(s.begin(), s.end());
  double relative_total = 0.0;  // Σ s/min s, safe for huge speeds
  for (double v : s) relative_total += v / slowest;
  const double cells = options.min_cells_per_node * relative_total;
  const double root = std::ceil(std::sqrt(std::min(cells, 1.0e12)));
  const int by_nodes = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(s.size()))));
  return std::min(options.max_size, std::max({2, by_nodes, static_cast<int>(root)}));
}

}  // namespace

Pattern hetero_symmetric_pattern(const Speeds& speeds, int size, std::uint64_t seed) {
  require_at_least(size, 1, "pattern size r");
  const auto P = static_cast<std::int64_t>(speeds.size());
  if (static_cast<std::int64_t>(size) * size < P) {
    std::ostringstream msg;
    msg << "heterogeneous symmetric pattern: " << size << " x " << size << " cells for " << P
        << " nodes; every node needs a cell";
    throw InvalidArgument(msg.str());
  }
  return SymmetricBuilder(speeds, size, seed).run();
}

HeteroSymmetricResult best_hetero_symmetric(const Speeds& speeds, const HeteroSymmetricOptions& options) {
  require_at_least(options.min_cells_per_node, 1, "min_cells_per_node");
  require_at_least(options.extra_sizes, 0, "extra_sizes");
  require_at_least(options.seeds_per_size, 1, "seeds_per_size");
  require_at_least(options.max_size * options.max_size, static_cast<int>(speeds.size()), "max_size²");
  const int first = smallest_size(speeds, options);
  const int last = std::min(options.max_size, first + options.extra_sizes);
  std::mt19937_64 seeds(options.seed);
  HeteroSymmetricResult best{Pattern(1, 1, 1, {0}), 0.0, 0};
  for (int r = first; r <= last; ++r) {
    for (int run = 0; run < options.seeds_per_size; ++run) {
      Pattern candidate = hetero_symmetric_pattern(speeds, r, seeds());
      const double cost = cholesky_cost(candidate);
      if (best.size == 0 || cost < best.cost) best = {std::move(candidate), cost, r};
    }
  }
  return best;
}

}  // namespace hetscal::core
