#include "core/time_models/update_bound.hpp"

#include <algorithm>
#include <vector>

#include "core/time_models/panel_chain_bound.hpp"
#include "core/time_models/step_sampling.hpp"

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the step models

double real(std::size_t v) { return static_cast<double>(v); }

/// The layout's distinct owners, increasing: a step's loads are zero elsewhere, and a
/// candidate on a few of thousands of processors need not walk them all each step.
std::vector<std::size_t> owners_of(const TileOwnership& layout) {
  std::vector<std::size_t> owners = layout.owner;
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  return owners;
}

/// The slowest owner's seconds for tiles[x] tiles of `flops_per_tile` flops.
double slowest_seconds(const Platform& platform, const std::vector<std::size_t>& owners,
                       const std::vector<double>& tiles, double flops_per_tile, double efficiency) {
  double slowest = 0.0;
  for (std::size_t x : owners)
    slowest = std::max(slowest, tiles[x] * flops_per_tile / (platform.processors[x].speed_flops * efficiency));
  return slowest;
}

/// The column messages of one step: LU's U(k, j) from the owner of tile (k, j) to every other
/// owner of a trailing tile of column j, QR's partial W from every other owner of a tile
/// (i >= k, j) to the owner of (k, j) (and W back, as many). Per sending (LU) or receiving
/// (QR) rank at row k: its tiles, and its most peers in one column class. The step models
/// merge one pair's messages of several column classes into one, so a rank pays at least its
/// tiles' bytes and one latency per peer of its busiest class.
class ColumnMessages {
 public:
  ColumnMessages(std::size_t processors, const std::vector<std::size_t>& owners)
      : owners_(owners), tiles_(processors), peers_(processors) {}

  void clear() {
    for (std::size_t x : owners_) tiles_[x] = peers_[x] = 0.0;
    total_tiles_ = most_peers_ = 0.0;
  }

  /// `peers` ranks exchange `columns` tiles each with `rank`.
  void add(std::size_t rank, double peers, double columns) {
    tiles_[rank] += peers * columns;
    peers_[rank] = std::max(peers_[rank], peers);
    total_tiles_ += peers * columns;
    most_peers_ = std::max(most_peers_, peers);
  }

  /// Seconds the phase takes at least: a shared bus carries every message, a switched network
  /// the row-k rank's own at least.
  double seconds(const Network& network, double tile_bytes) const {
    const double tile_seconds = tile_bytes / network.bandwidth_bytes_per_s;
    if (network.kind == NetworkKind::SharedBus) return total_tiles_ * tile_seconds + most_peers_ * network.latency_s;
    double busiest = 0.0;
    for (std::size_t x : owners_) busiest = std::max(busiest, tiles_[x] * tile_seconds + peers_[x] * network.latency_s);
    return busiest;
  }

 private:
  const std::vector<std::size_t>& owners_;  ///< the ranks that may exchange
  std::vector<double> tiles_, peers_;
  double total_tiles_ = 0.0, most_peers_ = 0.0;
};

/// The per-processor tiles of one step, as LuSteps and QrSteps count them, and their column
/// messages.
class StepLoads {
 public:
  StepLoads(const TileOwnership& layout, std::size_t processors)
      : layout_(layout), owners_(owners_of(layout)), rows_from_(layout.row_class, layout.rows),
        cols_from_(layout.col_class, layout.cols), update_(processors), solve_(processors),
        stamp_(processors, kUnstamped), messages_(processors, owners_) {}

  /// LU step k: trailing tiles (i, j), i, j > k, per owner (LuSteps::add_swaps_and_update),
  /// row block tiles (k, j), j > k, per owner and the U messages (LuSteps::add_row_block).
  void lu(std::size_t k) {
    clear();
    const auto trailing_rows = rows_from_.from(k + 1), trailing_cols = cols_from_.from(k + 1);
    for (std::size_t a = 0; a < layout_.rows; ++a)
      for (std::size_t b = 0; b < layout_.cols; ++b)
        update_[layout_.at(a, b)] += real(trailing_rows[a]) * real(trailing_cols[b]);
    const std::size_t row_k = layout_.row_class[k];
    for (std::size_t b = 0; b < layout_.cols; ++b) {
      if (trailing_cols[b] == 0) continue;
      const std::size_t solver = layout_.at(row_k, b);
      solve_[solver] += real(trailing_cols[b]);
      messages_.add(solver, real(column_peers(b, solver, trailing_rows)), real(trailing_cols[b]));
    }
  }

  /// QR step k: 4·(tiles (i, j), i >= k, j > k) + the tile columns it roots, per owner, in
  /// units of nb³ flops, and the partial W messages (QrSteps::add_reduction).
  void qr(std::size_t k) {
    clear();
    const auto panel_rows = rows_from_.from(k), trailing_cols = cols_from_.from(k + 1);
    const std::size_t row_k = layout_.row_class[k];
    std::vector<double>& roots = solve_;
    for (std::size_t b = 0; b < layout_.cols; ++b) {
      if (trailing_cols[b] == 0) continue;
      const double columns = real(trailing_cols[b]);
      const std::size_t root = layout_.at(row_k, b);
      roots[root] += columns;
      for (std::size_t a = 0; a < layout_.rows; ++a)
        if (panel_rows[a] > 0) update_[layout_.at(a, b)] += real(panel_rows[a]) * columns;
      messages_.add(root, real(column_peers(b, root, panel_rows)), columns);
    }
    for (std::size_t x : owners_) update_[x] = 4.0 * update_[x] + roots[x];
  }

  const std::vector<std::size_t>& owners() const { return owners_; }
  const std::vector<double>& update() const { return update_; }
  const std::vector<double>& solve() const { return solve_; }
  const ColumnMessages& messages() const { return messages_; }

 private:
  static constexpr std::size_t kUnstamped = static_cast<std::size_t>(-1);

  void clear() {
    for (std::size_t x : owners_) update_[x] = solve_[x] = 0.0;
    messages_.clear();
  }

  /// The distinct owners other than `rank` of column class b's tiles in the row classes with
  /// rows[a] > 0.
  std::size_t column_peers(std::size_t b, std::size_t rank, const std::vector<std::size_t>& rows) {
    ++stamp_value_;
    std::size_t peers = 0;
    for (std::size_t a = 0; a < layout_.rows; ++a) {
      const std::size_t x = layout_.at(a, b);
      if (rows[a] > 0 && x != rank && stamp_[x] != stamp_value_) stamp_[x] = stamp_value_, ++peers;
    }
    return peers;
  }

  const TileOwnership& layout_;
  const std::vector<std::size_t> owners_;
  SuffixClassCounts rows_from_, cols_from_;
  std::vector<double> update_, solve_;
  std::vector<std::size_t> stamp_;  ///< the column_peers call that last counted a rank
  std::size_t stamp_value_ = 0;
  ColumnMessages messages_;
};

/// On a grid (every cell of the owner table its own rank), a lower bound of step k's window
/// that never grows with k, so that one step can stand for the sampled steps before it: the
/// slowest rank's update (exact: each rank's trailing tiles only shrink), LU's TRSM at the
/// fastest rank of each column (the row block's rank changes with k), the column messages to
/// one rank fewer than the row classes still holding tiles (the rank at row k may hold none),
/// and QR's flops without the roots' Tᴴ·W.
class GridWindows {
 public:
  GridWindows(const Platform& platform, Routine routine, const TileOwnership& layout)
      : platform_(platform), routine_(routine), layout_(layout), rows_from_(layout.row_class, layout.rows),
        cols_from_(layout.col_class, layout.cols), fastest_in_column_(layout.cols, 0.0) {
    for (std::size_t a = 0; a < layout.rows; ++a)
      for (std::size_t b = 0; b < layout.cols; ++b)
        fastest_in_column_[b] = std::max(fastest_in_column_[b], platform.processors[layout.at(a, b)].speed_flops);
  }

  double at(std::size_t k, double cube, double tile_bytes, double efficiency) const {
    const bool lu = routine_ == Routine::LU;
    // LU's trailing tile rows (> k), QR's panel rows (>= k); the trailing tile columns (> k).
    const std::vector<std::size_t> rows = rows_from_.from(lu ? k + 1 : k), cols = cols_from_.from(k + 1);
    const double flops_per_tile = (lu ? 2.0 : 4.0) * cube;
    double update = 0.0, present = 0.0;
    for (std::size_t a = 0; a < layout_.rows; ++a) {
      if (rows[a] == 0) continue;
      present += 1.0;
      for (std::size_t b = 0; b < layout_.cols; ++b)
        update = std::max(update, real(rows[a]) * real(cols[b]) * flops_per_tile /
                                      (platform_.processors[layout_.at(a, b)].speed_flops * efficiency));
    }
    const double messages = column_messages(cols, std::max(present - 1.0, 0.0), tile_bytes);
    if (!lu) return std::max(update, 2.0 * messages);
    double solve = 0.0;
    for (std::size_t b = 0; b < layout_.cols; ++b)
      solve = std::max(solve, real(cols[b]) * cube / (fastest_in_column_[b] * efficiency));
    return messages + solve + update;
  }

 private:
  /// Each column class's rank at row k exchanging its tiles with `peers` others.
  double column_messages(const std::vector<std::size_t>& cols, double peers, double tile_bytes) const {
    const Network& network = platform_.network;
    const double tile_seconds = tile_bytes / network.bandwidth_bytes_per_s;
    double total = 0.0, busiest = 0.0;
    for (std::size_t b = 0; b < layout_.cols; ++b) {
      if (cols[b] == 0) continue;
      total += peers * real(cols[b]) * tile_seconds;
      busiest = std::max(busiest, peers * (real(cols[b]) * tile_seconds + network.latency_s));
    }
    if (network.kind == NetworkKind::SharedBus) return total > 0.0 ? total + peers * network.latency_s : 0.0;
    return busiest;
  }

  const Platform& platform_;
  Routine routine_;
  const TileOwnership& layout_;
  SuffixClassCounts rows_from_, cols_from_;
  std::vector<double> fastest_in_column_;
};

/// Sampled steps priced at once on a grid: each group's last step stands for the group.
constexpr std::size_t kGridGroup = 4;

/// Step k's update flops at perfect balance (StepWork::slowest_compute of the step models): LU
/// 2nb³ per trailing tile; QR 4nb³ per panel-row tile of a trailing column and nb³ per
/// trailing column.
double balanced_update_seconds(Routine routine, const TileOwnership& layout, std::size_t k, double cube,
                               double rate) {
  const double rows = real(layout.row_class.size()), cols = real(layout.col_class.size()), step = real(k);
  if (routine == Routine::LU) return 2.0 * (rows - step - 1.0) * (cols - step - 1.0) * cube / rate;
  return (4.0 * (rows - step) + 1.0) * (cols - step - 1.0) * cube / rate;
}

}  // namespace

std::vector<double> sampled_step_floors(const Platform& platform, Routine routine, const TileOwnership& layout,
                                        const std::vector<SampledStep>& samples) {
  const double nb = real(layout.tile), cube = nb * nb * nb, tile_bytes = nb * nb * kBytesPerElement;
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);
  std::vector<double> floors(samples.size(), 0.0);
  const std::vector<std::size_t> owners = owners_of(layout);
  double summed = 0.0;  // the owners' speeds
  for (std::size_t x : owners) summed += platform.processors[x].speed_flops;
  if (owners.size() != layout.owner.size()) {  // a pattern: flops at perfect balance
    const double rate = summed * efficiency;
    for (std::size_t s = 0; s < samples.size(); ++s)
      floors[s] = balanced_update_seconds(routine, layout, samples[s].step, cube, rate);
  } else {
    const GridWindows windows(platform, routine, layout);
    for (std::size_t first = 0; first < samples.size(); first += kGridGroup) {
      const std::size_t end = std::min(first + kGridGroup, samples.size());
      const double floor = windows.at(samples[end - 1].step, cube, tile_bytes, efficiency);
      std::fill(floors.begin() + static_cast<long>(first), floors.begin() + static_cast<long>(end), floor);
    }
  }
  // A step but the last also waits for the next panel (lookahead_steps.hpp).
  std::vector<std::size_t> next_panels;
  for (const SampledStep& sample : samples) next_panels.push_back(sample.step + 1);
  const std::vector<double> panels = panel_floors(platform, routine, layout, next_panels);
  for (std::size_t s = 0; s < samples.size(); ++s) floors[s] = std::max(floors[s], panels[s]);
  // The pricing adds the same terms in another order: a rounding's worth below.
  for (double& floor : floors) floor *= 1.0 - 1e-12;
  return floors;
}

double sampled_update_lower_bound(const Platform& platform, Routine routine, const TileOwnership& layout,
                                  double enough) {
  if (routine != Routine::LU && routine != Routine::QR) return 0.0;
  if (layout.tiles() == 0 || layout.col_class.empty()) return 0.0;
  const std::size_t steps = layout.tile_col_of(std::min(layout.row_extent(), layout.n) - 1) + 1;
  const double nb = real(layout.tile), cube = nb * nb * nb, tile_bytes = nb * nb * kBytesPerElement;
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);
  // The pricing adds the same terms in another order (with its panels between): a rounding's
  // worth below, so that a candidate on the edge is still priced.
  constexpr double kRoundingAllowance = 1.0 - 1e-12;
  const std::vector<SampledStep> samples = sampled_steps(steps, kSampledSteps);
  if (steps > 2 * kSampledSteps && owners_of(layout).size() == layout.owner.size()) {
    // A grid, its steps sampled: its windows' bound never grows with k, so a group of sampled
    // steps is worth at least its weight times the bound at its last step, a quarter of the
    // evaluations (a walked sequence is short: every step is evaluated, exactly).
    const GridWindows windows(platform, routine, layout);
    double seconds = 0.0;
    for (std::size_t first = 0; first < samples.size(); first += kGridGroup) {
      if (kRoundingAllowance * seconds > enough) break;
      const std::size_t last = std::min(first + kGridGroup, samples.size()) - 1;
      double weight = 0.0;
      for (std::size_t i = first; i <= last; ++i) weight += samples[i].weight;
      seconds += weight * windows.at(samples[last].step, cube, tile_bytes, efficiency);
    }
    return kRoundingAllowance * seconds;
  }
  StepLoads loads(layout, platform.size());
  double seconds = 0.0;
  // Every term is >= 0, so a partial sum is a bound already: the early, largest steps come
  // first, and most candidates a search bounds pass `enough` within a few of them.
  for (const SampledStep& sample : samples) {
    if (kRoundingAllowance * seconds > enough) break;
    if (routine == Routine::LU) {
      // The window: U messages (after the swaps), the row block's TRSM, the update.
      loads.lu(sample.step);
      seconds += sample.weight * (loads.messages().seconds(platform.network, tile_bytes) +
                                  slowest_seconds(platform, loads.owners(), loads.solve(), cube, efficiency) +
                                  slowest_seconds(platform, loads.owners(), loads.update(), 2.0 * cube, efficiency));
    } else {
      // The window: the flops, or the partial W there and back if they take longer.
      loads.qr(sample.step);
      seconds += sample.weight * std::max(slowest_seconds(platform, loads.owners(), loads.update(), cube, efficiency),
                                          2.0 * loads.messages().seconds(platform.network, tile_bytes));
    }
  }
  return kRoundingAllowance * seconds;
}

}  // namespace hetscal::core
