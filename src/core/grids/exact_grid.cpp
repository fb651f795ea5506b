#include "core/grids/exact_grid.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"
#include "core/grids/arrangements.hpp"

namespace hetscal::core {
namespace {

using Mask = std::uint32_t;
constexpr std::size_t kMaxSide = 32;
/// A constraint from an older layer within this relative margin of the tightest one
/// counts as a tie (see search_spanning_trees).
constexpr double kTieMargin = 1e-12;

Mask full_mask(std::size_t n) { return n == kMaxSide ? ~Mask{0} : (Mask{1} << n) - 1; }
bool has(Mask m, std::size_t k) { return (m >> k) & 1u; }

enum class Side : int { Rows = 0, Cols = 1 };
Side other(Side s) { return s == Side::Rows ? Side::Cols : Side::Rows; }

/// Appendix 7.2's Generate_tree_rec, with rows and columns playing symmetric roles: the
/// last layer reached (the frontier) lies on one side; the next layer is a non-empty
/// subset of the other side's unreached vertices whose tightest constraint comes from the
/// frontier. value_[side][k] holds r_i (Rows) or c_j (Cols) of the reached vertices.
class SpanningTreeSearch {
 public:
  explicit SpanningTreeSearch(const Arrangement& a) : a_(a) {
    value_[0].assign(a.rows, 0.0);
    value_[1].assign(a.cols, 0.0);
  }

  TreeSearchResult run() {
    value_[0][0] = 1.0;  // r_1 = 1
    grow(Side::Rows, Mask{1}, Mask{1}, Mask{0});
    return std::move(result_);
  }

 private:
  std::size_t size(Side s) const { return s == Side::Rows ? a_.rows : a_.cols; }
  double& value(Side s, std::size_t k) { return value_[static_cast<int>(s)][k]; }
  /// t of the edge between vertex f on side s and vertex u on the other side.
  double edge(Side s, std::size_t f, std::size_t u) const {
    return s == Side::Rows ? a_.t(f, u) : a_.t(u, f);
  }

  /// frontier ⊆ reached[s]; reached[] are the reached vertices of each side.
  void grow(Side s, Mask frontier, Mask reached_rows, Mask reached_cols) {
    const Side o = other(s);
    Mask reached[2] = {reached_rows, reached_cols};
    const Mask older = reached[static_cast<int>(s)] & ~frontier;
    const Mask unreached_same = full_mask(size(s)) & ~reached[static_cast<int>(s)];
    const Mask unreached_other = full_mask(size(o)) & ~reached[static_cast<int>(o)];

    std::array<double, kMaxSide> candidate{};
    Mask eligible = 0;
    for (std::size_t u = 0; u < size(o); ++u) {
      if (!has(unreached_other, u)) continue;
      double from_frontier = 0.0, from_older = 0.0;  // max over f of value(f)·t(f, u)
      for (std::size_t f = 0; f < size(s); ++f) {
        if (has(frontier, f)) from_frontier = std::max(from_frontier, value(s, f) * edge(s, f, u));
        else if (has(older, f)) from_older = std::max(from_older, value(s, f) * edge(s, f, u));
      }
      candidate[u] = 1.0 / std::max(from_frontier, from_older);
      if (from_frontier >= from_older * (1.0 - kTieMargin)) eligible |= Mask{1} << u;
    }

    if (unreached_same == 0) {  // last layer: it must reach every remaining vertex
      if (eligible != unreached_other) return;
      for (std::size_t u = 0; u < size(o); ++u)
        if (has(eligible, u)) value(o, u) = candidate[u];
      record_complete_tree();
      return;
    }
    for (Mask layer = eligible; layer != 0; layer = (layer - 1) & eligible) {
      for (std::size_t u = 0; u < size(o); ++u)
        if (has(layer, u)) value(o, u) = candidate[u];
      reached[static_cast<int>(o)] |= layer;
      grow(o, layer, reached[0], reached[1]);
      reached[static_cast<int>(o)] &= ~layer;
    }
  }

  void record_complete_tree() {
    ++result_.acceptable_trees;
    const double rows = std::accumulate(value_[0].begin(), value_[0].end(), 0.0);
    const double cols = std::accumulate(value_[1].begin(), value_[1].end(), 0.0);
    if (rows * cols > result_.work_per_time) {
      result_.work_per_time = rows * cols;
      result_.shares.r = value_[0];
      result_.shares.c = value_[1];
    }
  }

  const Arrangement& a_;
  std::vector<double> value_[2];
  TreeSearchResult result_;
};

void require_grid_shape(std::size_t p, std::size_t q) {
  if (p == 0 || q == 0 || p > kMaxSide || q > kMaxSide) {
    std::ostringstream msg;
    msg << "grid " << p << "x" << q << ": each dimension must be between 1 and " << kMaxSide;
    throw InvalidArgument(msg.str());
  }
}

/// Indices of the `count` smallest cycle-times, sorted by cycle-time (stable: lower index
/// first among equals).
std::vector<std::size_t> fastest_sorted(const std::vector<double>& cycle_times, std::size_t count) {
  std::vector<std::size_t> order(cycle_times.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return cycle_times[x] < cycle_times[y]; });
  order.resize(count);
  return order;
}

}  // namespace

void require_valid_arrangement(const Arrangement& a) {
  if (a.rows == 0 || a.cols == 0 || a.cycle_time.size() != a.rows * a.cols) {
    std::ostringstream msg;
    msg << "arrangement: " << a.rows << "x" << a.cols << " grid with " << a.cycle_time.size()
        << " cycle-times; a non-empty grid needs rows·cols of them";
    throw InvalidArgument(msg.str());
  }
  require_positive_finite(a.cycle_time, "arrangement cycle-times");
}

TreeSearchResult search_spanning_trees(const Arrangement& a) {
  require_valid_arrangement(a);
  require_grid_shape(a.rows, a.cols);
  return SpanningTreeSearch(a).run();
}

Shares optimal_shares(const Arrangement& a) { return search_spanning_trees(a).shares; }

ExactGridResult best_grid_exact(const std::vector<double>& cycle_times, std::size_t p,
                                std::size_t q) {
  require_positive_finite(cycle_times, "cycle-times");
  require_grid_shape(p, q);
  if (p + q > kMaxSide || p * q > cycle_times.size()) {
    std::ostringstream msg;
    msg << "grid " << p << "x" << q << " for " << cycle_times.size()
        << " processors: needs p·q <= processors and p + q <= " << kMaxSide;
    throw InvalidArgument(msg.str());
  }
  const std::vector<std::size_t> sorted = fastest_sorted(cycle_times, p * q);

  ExactGridResult best;
  Arrangement candidate{p, q, std::vector<double>(p * q), std::vector<std::size_t>(p * q)};
  for_each_nondecreasing_arrangement(p, q, [&](const std::vector<std::size_t>& rank_at) {
    for (std::size_t cell = 0; cell < p * q; ++cell) {
      candidate.processor[cell] = sorted[rank_at[cell]];
      candidate.cycle_time[cell] = cycle_times[candidate.processor[cell]];
    }
    TreeSearchResult found = SpanningTreeSearch(candidate).run();
    ++best.arrangements_searched;
    best.spanning_trees_visited += found.acceptable_trees;
    if (found.work_per_time > best.work_per_time) {
      best.work_per_time = found.work_per_time;
      best.shares = std::move(found.shares);
      best.arrangement = candidate;
    }
  });
  return best;
}

}  // namespace hetscal::core
