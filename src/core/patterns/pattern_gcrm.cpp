#include "core/patterns/pattern_gcrm.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/common/error.hpp"
#include "core/patterns/bipartite_matching.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_gcrm_table.hpp"

namespace hetscal::core {
namespace {

/// Mixes a base seed with the run's coordinates (SplitMix64 finaliser), so runs differ.
std::uint64_t derive_seed(std::uint64_t base, std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = base + 0x9e3779b97f4a7c15ULL * (a * 0x100000001ULL + b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The state of one run of Algorithm 1.
class GreedyColRowMatching {
 public:
  GreedyColRowMatching(int num_nodes, int size, std::uint64_t seed)
      : P_(num_nodes),
        r_(size),
        rng_(seed),
        holds_(static_cast<std::size_t>(num_nodes) * size, 0),
        colrows_(num_nodes),
        usage_(size, 0),
        covered_(static_cast<std::size_t>(size) * size, 0),
        owner_(static_cast<std::size_t>(size) * size, Pattern::kUnassigned),
        cells_(num_nodes, 0) {}

  Pattern run() {
    assign_colrows();
    match_cells();
    return Pattern(r_, r_, P_, owner_);
  }

 private:
  bool holds(int node, int colrow) const {
    return holds_[static_cast<std::size_t>(node) * r_ + colrow];
  }
  std::size_t cell(int i, int j) const { return static_cast<std::size_t>(i) * r_ + j; }
  int pick(const std::vector<int>& ties) { return ties[rng_() % ties.size()]; }

  /// Adds colrow t to A[node] and marks the cells it newly covers.
  void add_colrow(int node, int t) {
    for (int other : colrows_[node]) {
      if (!covered_[cell(t, other)]) {
        covered_[cell(t, other)] = covered_[cell(other, t)] = 1;
        uncovered_pairs_ -= 1;
      }
    }
    holds_[static_cast<std::size_t>(node) * r_ + t] = 1;
    colrows_[node].push_back(t);
    ++usage_[t];
  }

  /// Phase 1 (lines 1–10).
  void assign_colrows() {
    uncovered_pairs_ = static_cast<std::int64_t>(r_) * (r_ - 1) / 2;
    for (int t = 0; t < r_; ++t) add_colrow(t % P_, t);
    while (uncovered_pairs_ > 0) {
      const int node = least_loaded_node();
      add_colrow(node, best_colrow(node));
    }
  }

  int least_loaded_node() {
    std::size_t fewest = static_cast<std::size_t>(r_) + 1;
    std::vector<int> ties;
    for (int p = 0; p < P_; ++p) {
      if (colrows_[p].size() < fewest) {
        fewest = colrows_[p].size();
        ties.clear();
      }
      if (colrows_[p].size() == fewest) ties.push_back(p);
    }
    return pick(ties);
  }

  /// Line 8: most newly covered cells, then least used colrow, then random.
  int best_colrow(int node) {
    int best_gain = -1;
    int best_usage = 0;
    std::vector<int> ties;
    for (int t = 0; t < r_; ++t) {
      if (holds(node, t)) continue;
      int gain = 0;
      for (int other : colrows_[node]) gain += covered_[cell(t, other)] ? 0 : 1;
      if (gain > best_gain || (gain == best_gain && usage_[t] < best_usage)) {
        best_gain = gain;
        best_usage = usage_[t];
        ties.clear();
      }
      if (gain == best_gain && usage_[t] == best_usage) ties.push_back(t);
    }
    return pick(ties);
  }

  /// Phase 2 (lines 11–14).
  void match_cells() {
    std::vector<std::pair<int, int>> open;
    for (int i = 0; i < r_; ++i) {
      for (int j = 0; j < r_; ++j) {
        if (i != j) open.emplace_back(i, j);
      }
    }
    const int copies = r_ * (r_ - 1) / P_;
    if (copies > 0) open = match(open, copies);
    open = match(open, 1);
    for (const auto& [i, j] : open) assign_to_neighbour(i, j);
  }

  /// Per colrow, the nodes holding it, increasing: a cell's covering nodes are found among its
  /// row's few holders instead of among all P nodes, and met in the same order.
  std::vector<std::vector<int>> holders_of_colrows() const {
    std::vector<std::vector<int>> holders(static_cast<std::size_t>(r_));
    for (int p = 0; p < P_; ++p)
      for (int t : colrows_[p]) holders[static_cast<std::size_t>(t)].push_back(p);
    return holders;
  }

  /// Matches `open` cells to `copies` slots per covering node; returns the cells left open.
  std::vector<std::pair<int, int>> match(const std::vector<std::pair<int, int>>& open, int copies) {
    SlotBipartiteGraph graph(static_cast<int>(open.size()), std::vector<int>(static_cast<std::size_t>(P_), copies));
    const std::vector<std::vector<int>> holders = holders_of_colrows();
    for (std::size_t k = 0; k < open.size(); ++k) {
      for (int p : holders[static_cast<std::size_t>(open[k].first)])
        if (holds(p, open[k].second)) graph.add_edge(static_cast<int>(k), p);
    }
    const std::vector<int> partner = graph.maximum_matching();
    std::vector<std::pair<int, int>> still_open;
    for (std::size_t k = 0; k < open.size(); ++k) {
      if (partner[k] == BipartiteGraph::kUnmatched) {
        still_open.push_back(open[k]);
      } else {
        give(open[k].first, open[k].second, partner[k] / copies);
      }
    }
    return still_open;
  }

  /// Line 14: the least-loaded node holding colrow i or j takes (i, j) and the other colrow.
  void assign_to_neighbour(int i, int j) {
    std::int64_t fewest = -1;
    std::vector<int> ties;
    for (int p = 0; p < P_; ++p) {
      if (!holds(p, i) && !holds(p, j)) continue;
      if (fewest < 0 || cells_[p] < fewest) {
        fewest = cells_[p];
        ties.clear();
      }
      if (cells_[p] == fewest) ties.push_back(p);
    }
    const int node = pick(ties);
    if (!holds(node, i)) add_colrow(node, i);
    if (!holds(node, j)) add_colrow(node, j);
    give(i, j, node);
  }

  void give(int i, int j, int node) {
    owner_[cell(i, j)] = node;
    ++cells_[node];
  }

  const int P_, r_;
  std::mt19937_64 rng_;
  std::vector<char> holds_;                ///< [node*r + colrow]: colrow in A[node]
  std::vector<std::vector<int>> colrows_;  ///< A[node]
  std::vector<int> usage_;                 ///< nodes holding each colrow
  std::vector<char> covered_;              ///< [i*r + j], symmetric
  std::int64_t uncovered_pairs_ = 0;
  std::vector<int> owner_;
  std::vector<std::int64_t> cells_;
};

void require_nodes(int num_nodes) {
  if (num_nodes < 1)
    throw InvalidArgument("GCR&M: P = " + std::to_string(num_nodes) + " must be >= 1");
}

}  // namespace

bool gcrm_size_is_balanceable(int num_nodes, int size) {
  require_nodes(num_nodes);
  if (size < 1)
    throw InvalidArgument("GCR&M: pattern size " + std::to_string(size) + " must be >= 1");
  const std::int64_t P = num_nodes;
  const std::int64_t r = size;
  const std::int64_t most_cells = (r * (r - 1) + P - 1) / P;
  return most_cells * P <= r * r;
}

Pattern gcrm_pattern(int num_nodes, int size, std::uint64_t seed) {
  require_nodes(num_nodes);
  if (size < 2)
    throw InvalidArgument("GCR&M: pattern size " + std::to_string(size) + " must be >= 2");
  return GreedyColRowMatching(num_nodes, size, seed).run();
}

namespace {

/// The largest size the search tries.
int largest_size(int num_nodes, const GcrmSearchOptions& options) {
  return static_cast<int>(std::floor(options.max_size_factor * std::sqrt(num_nodes)));
}

InvalidArgument no_pattern(int num_nodes, int largest) {
  return InvalidArgument("GCR&M: no balanceable pattern of size <= " + std::to_string(largest) +
                         " for P = " + std::to_string(num_nodes));
}

/// best_gcrm's search itself (the function below remembers its results).
GcrmResult search_best_gcrm(int num_nodes, const GcrmSearchOptions& options) {
  require_nodes(num_nodes);
  if (options.seeds_per_size < 1) {
    throw InvalidArgument("GCR&M: seeds_per_size " + std::to_string(options.seeds_per_size) +
                          " must be >= 1");
  }
  const int largest = largest_size(num_nodes, options);
  GcrmResult best{Pattern(1, 1, 1, {0}), 0.0, 0, 0};
  for (int r = 2; r <= largest; ++r) {
    if (static_cast<std::int64_t>(r) * (r - 1) < num_nodes ||
        !gcrm_size_is_balanceable(num_nodes, r))
      continue;
    for (int run = 0; run < options.seeds_per_size; ++run) {
      const std::uint64_t seed =
          derive_seed(options.seed, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(run));
      Pattern candidate = gcrm_pattern(num_nodes, r, seed);
      const double z = cholesky_cost(candidate);
      if ((best.size == 0 || z < best.cost) && is_balanceable(candidate)) {
        best = GcrmResult{std::move(candidate), z, r, seed, run};
      }
    }
  }
  if (best.size == 0) throw no_pattern(num_nodes, largest);
  return best;
}

/// The table's result (pattern_gcrm_table.hpp) where it holds one for these arguments.
std::optional<GcrmResult> tabled_result(int num_nodes, const GcrmSearchOptions& options) {
  const std::optional<TabledGcrm> entry = gcrm_table_entry(num_nodes, options);
  if (!entry) return std::nullopt;
  if (entry->size == 0) throw no_pattern(num_nodes, largest_size(num_nodes, options));
  const std::uint64_t seed = derive_seed(options.seed, static_cast<std::uint64_t>(entry->size),
                                         static_cast<std::uint64_t>(entry->run));
  Pattern pattern = gcrm_pattern(num_nodes, entry->size, seed);
  const double cost = cholesky_cost(pattern);
  return GcrmResult{std::move(pattern), cost, entry->size, seed, entry->run};
}

/// One search's outcome: its result, or the refusal it threw.
struct RememberedGcrm {
  std::optional<GcrmResult> result;
  std::string refusal;
};

}  // namespace

std::optional<TabledGcrm> gcrm_table_entry(int num_nodes, const GcrmSearchOptions& options) {
  const bool table_options = options.max_size_factor == kTabledGcrmSearch.max_size_factor &&
                             options.seeds_per_size == kTabledGcrmSearch.seeds_per_size &&
                             options.seed == kTabledGcrmSearch.seed;
  if (!options.tabled || !table_options) return std::nullopt;
  return tabled_gcrm(num_nodes);
}

GcrmResult best_gcrm(int num_nodes, const GcrmSearchOptions& options) {
  if (std::optional<GcrmResult> tabled = tabled_result(num_nodes, options)) return std::move(*tabled);
  if (!options.remember) return search_best_gcrm(num_nodes, options);
  // The search is deterministic in its arguments and takes most of a Cholesky planner's
  // listing at a hundred processors (100 seeds per size, a matching each), while the runtime
  // plans every new call shape on the same process counts: each search runs once a process.
  using Key = std::tuple<int, double, int, std::uint64_t>;
  static std::mutex mutex;
  static std::map<Key, RememberedGcrm> remembered;
  const Key key{num_nodes, options.max_size_factor, options.seeds_per_size, options.seed};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = remembered.find(key);
    if (found != remembered.end()) {
      if (!found->second.result) throw InvalidArgument(found->second.refusal);
      return *found->second.result;
    }
  }
  RememberedGcrm outcome;
  try {
    outcome.result = search_best_gcrm(num_nodes, options);
  } catch (const InvalidArgument& e) {
    outcome.refusal = e.what();
  }
  const std::lock_guard<std::mutex> lock(mutex);
  const RememberedGcrm& kept = remembered.emplace(key, std::move(outcome)).first->second;
  if (!kept.result) throw InvalidArgument(kept.refusal);
  return *kept.result;
}

}  // namespace hetscal::core
