#include "core/patterns/pattern_hetero.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "core/common/error.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"

namespace hetscal::core {
namespace {

constexpr int kLargestPatternSide = 4096;
constexpr std::int64_t kLargestPatternCells =
    std::int64_t{kLargestPatternSide} * kLargestPatternSide;
constexpr int kMaxColumnsPerStrip = 4;
/// Longest side of an explicitly sized pattern (the local search counts a line's cells in 16 bits).
constexpr int kLargestSearchedSide = 65535;

/// Start layout (step 3): nodes sorted by decreasing speed, cut into `groups` runs of
/// consecutive nodes; run j fills a strip whose boundaries may cut a column (the first
/// cum_j mod R rows of column ⌊cum_j/R⌋ go left), so a strip holds exactly its nodes' cells
/// and no node spills into the next strip. Inside a strip, cells are taken row by row in
/// boustrophedon order, each node taking its count in turn.
/// `order`: the nodes by decreasing speed (fastest_nodes_first).
std::vector<int> strip_layout(const std::vector<int>& order, const std::vector<std::int64_t>& counts,
                              int rows, int cols, int groups) {
  const int P = static_cast<int>(order.size());
  std::vector<int> first_rank(groups + 1);  // group g holds ranks [first_rank[g], first_rank[g+1])
  for (int g = 0; g <= groups; ++g)
    first_rank[g] = static_cast<int>(static_cast<std::int64_t>(g) * P / groups);

  // boundary(g, i): first column of strip g in row i.
  std::vector<std::int64_t> cumulative(groups + 1, 0);
  for (int g = 0; g < groups; ++g) {
    cumulative[g + 1] = cumulative[g];
    for (int rank = first_rank[g]; rank < first_rank[g + 1]; ++rank)
      cumulative[g + 1] += counts[order[rank]];
  }
  const auto boundary = [&](int g, int i) {
    return static_cast<int>(cumulative[g] / rows + (i < cumulative[g] % rows ? 1 : 0));
  };

  std::vector<int> owners(static_cast<std::size_t>(rows) * cols, -1);
  for (int g = 0; g < groups; ++g) {
    int rank = first_rank[g];
    std::int64_t left_for_node = 0;
    for (int i = 0; i < rows; ++i) {
      const int begin = boundary(g, i);
      const int width = boundary(g + 1, i) - begin;
      for (int step = 0; step < width; ++step) {
        const int j = begin + (i % 2 == 0 ? step : width - 1 - step);
        while (left_for_node == 0) left_for_node = counts[order[rank++]];
        owners[static_cast<std::size_t>(i) * cols + j] = order[rank - 1];
        --left_for_node;
      }
    }
  }
  return owners;
}

/// Row and column occupancy of a layout, with T's numerators kept up to date under swaps.
class SwapSearch {
 public:
  SwapSearch(std::vector<int> owners, int rows, int cols, int nodes)
      : rows_(rows),
        cols_(cols),
        nodes_(nodes),
        owners_(std::move(owners)),
        in_row_(static_cast<std::size_t>(rows) * nodes, 0),
        in_col_(static_cast<std::size_t>(cols) * nodes, 0),
        cells_of_(nodes) {
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        const int node = owner(i, j);
        position_.push_back(static_cast<int>(cells_of_[node].size()));
        cells_of_[node].push_back(i * cols + j);
        row_total_ += row(i, node)++ == 0 ? 1 : 0;
        col_total_ += col(j, node)++ == 0 ? 1 : 0;
      }
    }
  }

  /// T·R·C as an integer: Σx·C + Σy·R.
  std::int64_t scaled_cost() const { return row_total_ * cols_ + col_total_ * rows_; }
  const std::vector<int>& owners() const { return owners_; }

  /// Up to `sweeps` sweeps of R·C random swaps, each kept if it does not raise T; a sweep
  /// that lowers T by less than `stall_fraction` of it ends the search.
  void improve(int sweeps, double stall_fraction, std::mt19937_64& rng) {
    for (int sweep = 0; sweep < sweeps; ++sweep) {
      const std::int64_t before = scaled_cost();
      improve(static_cast<std::int64_t>(rows_) * cols_, rng);
      if (static_cast<double>(before - scaled_cost()) < stall_fraction * static_cast<double>(before)) return;
    }
  }

  /// `attempts` random swaps, each kept if it does not raise T.
  void improve(std::int64_t attempts, std::mt19937_64& rng) {
    const int cells = rows_ * cols_;
    for (std::int64_t t = 0; t < attempts; ++t) {
      const int first = static_cast<int>(rng() % cells);
      const int node = owners_[first];
      const auto& own = cells_of_[node];
      const int anchor = own[rng() % own.size()];
      const int second = rng() % 2 == 0 ? (anchor / cols_) * cols_ + static_cast<int>(rng() % cols_)
                                        : static_cast<int>(rng() % rows_) * cols_ + anchor % cols_;
      if (owners_[second] == node || swap_delta(first, second) > 0) continue;
      apply_swap(first, second);
    }
  }

 private:
  /// A node's cells in one row or column: at most a side (<= kLargestSearchedSide). Half the
  /// bytes of an int: the row table of 1,024 nodes (R×P, 1.2 MB as ints) is the search's
  /// working set, and the search ran 13 % faster on it.
  using Count = std::uint16_t;
  static_assert(kLargestSearchedSide <= std::numeric_limits<Count>::max(), "a side's cells must fit a Count");

  int owner(int i, int j) const { return owners_[static_cast<std::size_t>(i) * cols_ + j]; }
  Count& row(int i, int node) { return in_row_[static_cast<std::size_t>(i) * nodes_ + node]; }
  Count& col(int j, int node) { return in_col_[static_cast<std::size_t>(j) * nodes_ + node]; }

  /// Change of distinct-node count in one line when `leaving` gives a cell to `arriving`.
  static int line_delta(int leaving_count, int arriving_count) {
    return (leaving_count == 1 ? -1 : 0) + (arriving_count == 0 ? 1 : 0);
  }

  /// Change of scaled_cost() if the owners of cells `first` and `second` are exchanged.
  std::int64_t swap_delta(int first, int second) {
    const int a = owners_[first], b = owners_[second];
    const int i1 = first / cols_, j1 = first % cols_, i2 = second / cols_, j2 = second % cols_;
    std::int64_t rows_delta = 0, cols_delta = 0;
    if (i1 != i2)
      rows_delta = line_delta(row(i1, a), row(i1, b)) + line_delta(row(i2, b), row(i2, a));
    if (j1 != j2)
      cols_delta = line_delta(col(j1, a), col(j1, b)) + line_delta(col(j2, b), col(j2, a));
    return rows_delta * cols_ + cols_delta * rows_;
  }

  void move_cell(int cell, int from, int to) {
    const int i = cell / cols_, j = cell % cols_;
    row_total_ += (--row(i, from) == 0 ? -1 : 0) + (row(i, to)++ == 0 ? 1 : 0);
    col_total_ += (--col(j, from) == 0 ? -1 : 0) + (col(j, to)++ == 0 ? 1 : 0);
    auto& from_cells = cells_of_[from];  // swap-remove, keeping position_ in step
    const int last = from_cells.back();
    from_cells[position_[cell]] = last;
    position_[last] = position_[cell];
    from_cells.pop_back();
    position_[cell] = static_cast<int>(cells_of_[to].size());
    cells_of_[to].push_back(cell);
    owners_[cell] = to;
  }

  void apply_swap(int first, int second) {
    const int a = owners_[first], b = owners_[second];
    move_cell(first, a, b);
    move_cell(second, b, a);
  }

  int rows_, cols_, nodes_;
  std::vector<int> owners_;
  std::vector<Count> in_row_, in_col_;      ///< cells of each node per row / column
  std::vector<std::vector<int>> cells_of_;  ///< cells owned by each node
  std::vector<int> position_;               ///< index of a cell in its owner's list
  std::int64_t row_total_ = 0, col_total_ = 0;
};

void require_sweeps(const HeteroPatternOptions& options) {
  if (options.improvement_sweeps < 0) {
    throw InvalidArgument("hetero_pattern: improvement_sweeps " +
                          std::to_string(options.improvement_sweeps) + " must be >= 0");
  }
  if (options.max_attempts < 0) {
    throw InvalidArgument("hetero_pattern: max_attempts " + std::to_string(options.max_attempts) +
                          " must be >= 0");
  }
}

/// The sweeps of `cells` attempts each that fit in options.max_attempts, at most
/// options.improvement_sweeps.
int sweeps_within_budget(const HeteroPatternOptions& options, std::int64_t cells) {
  return static_cast<int>(std::min<std::int64_t>(options.improvement_sweeps, options.max_attempts / cells));
}

}  // namespace

std::vector<std::int64_t> apportion(const std::vector<double>& weights, std::int64_t total) {
  require_positive_finite(weights, "apportion weights");
  if (total < 0)
    throw InvalidArgument("apportion: total " + std::to_string(total) + " must be >= 0");
  // Weights relative to the largest: their sum cannot overflow (three weights of 1e308 made
  // it inf, every quota NaN, and the leftover loop below endless).
  const double largest = *std::max_element(weights.begin(), weights.end());
  double sum = 0.0;
  for (double w : weights) sum += w / largest;
  std::vector<std::int64_t> counts(weights.size());
  std::vector<double> remainder(weights.size());
  std::int64_t given = 0;
  for (std::size_t k = 0; k < weights.size(); ++k) {
    const double quota = static_cast<double>(total) * (weights[k] / largest) / sum;
    counts[k] = std::min(total, static_cast<std::int64_t>(std::floor(quota)));
    remainder[k] = quota - static_cast<double>(counts[k]);
    given += counts[k];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t k = 0; given < total; k = (k + 1) % order.size(), ++given) ++counts[order[k]];
  for (std::size_t k = order.size(); given > total && k-- > 0;) {  // rounding overshoot
    if (counts[order[k]] > 0) {
      --counts[order[k]];
      --given;
    }
  }
  return counts;
}

namespace {

/// A start layout and its cost T.
struct Start {
  int rows = 0, cols = 0;
  std::vector<int> owners;
  double cost = 0.0;
};

/// T·R·C of a layout (SwapSearch::scaled_cost) in O(R·C + P): distinct owners per line
/// counted with one stamp per node, where SwapSearch keeps R×P and C×P tables for its swaps
/// (5 MB for a start of 1,024 nodes, built for each of the hundred starts compared).
std::int64_t scaled_cost_of(const std::vector<int>& owners, int rows, int cols, int nodes) {
  std::vector<std::int64_t> stamp(static_cast<std::size_t>(nodes), -1);
  std::int64_t row_total = 0, col_total = 0;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      auto& seen = stamp[static_cast<std::size_t>(owners[static_cast<std::size_t>(i) * cols + j])];
      if (seen != i) row_total += 1;
      seen = i;
    }
  }
  std::fill(stamp.begin(), stamp.end(), -1);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      auto& seen = stamp[static_cast<std::size_t>(owners[static_cast<std::size_t>(i) * cols + j])];
      if (seen != j) col_total += 1;
      seen = j;
    }
  }
  return row_total * cols + col_total * rows;
}

/// The nodes by decreasing speed (ties: by index), the order strips are filled in: sorted once
/// per pattern rather than for each of the ~100 starts compared (1,024 nodes).
std::vector<int> fastest_nodes_first(const Speeds& speeds) {
  std::vector<int> order(speeds.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return speeds.speed(a) > speeds.speed(b); });
  return order;
}

/// The cheapest strip layout of a rows×cols pattern over group counts q with |q − √P| <= 2.
/// `order`: fastest_nodes_first(speeds).
Start best_start(const Speeds& speeds, const std::vector<int>& order, int rows, int cols) {
  const int P = static_cast<int>(speeds.size());
  const auto counts = apportion(speeds.speeds(), static_cast<std::int64_t>(rows) * cols);
  const int root = static_cast<int>(std::lround(std::sqrt(P)));
  Start best;
  for (int groups = std::max(1, root - 2); groups <= std::min(P, root + 2); ++groups) {
    std::vector<int> owners = strip_layout(order, counts, rows, cols, groups);
    const double cost =
        static_cast<double>(scaled_cost_of(owners, rows, cols, P)) / (static_cast<double>(rows) * cols);
    if (best.owners.empty() || cost < best.cost) best = Start{rows, cols, std::move(owners), cost};
  }
  return best;
}

/// Equal speeds: G-2DBC stacked vertically until every node owns min_cells cells (same T).
Start stacked_g2dbc(int num_nodes, int min_cells) {
  const Pattern g2dbc = g2dbc_pattern(num_nodes);
  const std::int64_t cells = g2dbc.cells_per_node().front();
  const auto copies = static_cast<int>((min_cells + cells - 1) / cells);
  Start start{g2dbc.rows() * copies, g2dbc.cols(), {}, lu_cost(g2dbc)};
  for (int copy = 0; copy < copies; ++copy) {
    start.owners.insert(start.owners.end(), g2dbc.owners().begin(), g2dbc.owners().end());
  }
  return start;
}

Pattern improved(Start start, int num_nodes, const HeteroPatternOptions& options) {
  const int sweeps = sweeps_within_budget(options, static_cast<std::int64_t>(start.rows) * start.cols);
  if (sweeps == 0) return Pattern(start.rows, start.cols, num_nodes, std::move(start.owners));  // no R×P tables
  SwapSearch search(std::move(start.owners), start.rows, start.cols, num_nodes);
  std::mt19937_64 rng(options.seed);
  search.improve(sweeps, options.stall_fraction, rng);
  return Pattern(start.rows, start.cols, num_nodes, search.owners());
}

}  // namespace

Pattern hetero_pattern(const Speeds& speeds, int rows, int cols,
                       const HeteroPatternOptions& options) {
  require_sweeps(options);
  if (rows < 1 || cols < 1 || rows > kLargestSearchedSide || cols > kLargestSearchedSide) {
    throw InvalidArgument("hetero_pattern: size " + std::to_string(rows) + "x" + std::to_string(cols) +
                          " must be at least 1x1 and at most " + std::to_string(kLargestSearchedSide) +
                          " on either side");
  }
  return improved(best_start(speeds, fastest_nodes_first(speeds), rows, cols), static_cast<int>(speeds.size()),
                  options);
}

double hetero_pattern_cells_needed(const Speeds& speeds, int min_cells_per_node) {
  if (min_cells_per_node < 1) {
    throw InvalidArgument("hetero_pattern: min_cells_per_node " +
                          std::to_string(min_cells_per_node) + " must be >= 1");
  }
  const auto& s = speeds.speeds();
  const double slowest = *std::min_element(s.begin(), s.end());
  double relative_total = 0.0;
  for (double speed : s) relative_total += speed / slowest;
  return min_cells_per_node * relative_total;
}

Pattern hetero_pattern(const Speeds& speeds, const HeteroPatternOptions& options) {
  require_sweeps(options);
  const double needed = hetero_pattern_cells_needed(speeds, options.min_cells_per_node);
  const auto& s = speeds.speeds();
  const double slowest = *std::min_element(s.begin(), s.end());
  if (needed > static_cast<double>(kLargestPatternCells)) {
    throw InvalidArgument("hetero_pattern: " + std::to_string(needed) +
                          " cells needed, more than 4096x4096; lower min_cells_per_node");
  }
  // Few columns and many rows keep the in-strip node boundaries (one extra node in a row
  // each) rare; try a few widths per strip count and the square, keep the cheapest start.
  const int P = static_cast<int>(speeds.size());
  const int root = static_cast<int>(std::lround(std::sqrt(P)));
  std::vector<int> widths{static_cast<int>(std::ceil(std::sqrt(needed)))};
  for (int groups = std::max(1, root - 2); groups <= root + 2; ++groups) {
    for (int per_group = 1; per_group <= kMaxColumnsPerStrip; ++per_group)
      widths.push_back(groups * per_group);
  }
  const std::vector<int> order = fastest_nodes_first(speeds);
  Start best;
  for (int cols : widths) {
    const auto rows = static_cast<int>(std::ceil(needed / cols));
    if (rows > kLargestPatternSide) continue;
    Start candidate = best_start(speeds, order, rows, cols);
    if (best.owners.empty() || candidate.cost < best.cost) best = std::move(candidate);
  }
  if (*std::max_element(s.begin(), s.end()) == slowest) {
    Start g2dbc = stacked_g2dbc(P, options.min_cells_per_node);
    if (g2dbc.cost <= best.cost) best = std::move(g2dbc);
  }
  return improved(std::move(best), P, options);
}

}  // namespace hetscal::core
