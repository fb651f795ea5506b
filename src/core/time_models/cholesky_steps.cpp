#include "core/time_models/cholesky_steps.hpp"

#include <algorithm>
#include <sstream>

#include "core/common/error.hpp"
#include "core/time_models/step_sampling.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the rest of the model

double real(std::size_t v) { return static_cast<double>(v); }

void require_square_layout(const TileOwnership& layout, std::size_t processors) {
  std::ostringstream msg;
  if (layout.row_class.size() != layout.col_class.size())
    msg << "Cholesky steps: " << layout.row_class.size() << " tile rows but "
        << layout.col_class.size() << " tile columns; the matrix must be square";
  else if (!has_diagonal_tiles(layout))
    msg << "Cholesky steps: tiles " << layout.row_block() << " x " << layout.tile
        << " with offsets " << layout.row_offset << ", " << layout.col_offset
        << " do not put diagonal blocks on tiles (i, i)";
  for (std::size_t owner : layout.owner)
    if (msg.tellp() == 0 && owner >= processors)
      msg << "Cholesky steps: the layout names processor " << owner << " of " << processors;
  if (msg.tellp() != 0) throw InvalidArgument(msg.str());
}

}  // namespace

bool has_diagonal_tiles(const TileOwnership& layout) {
  return layout.row_block() == layout.tile && layout.row_offset == layout.col_offset;
}

CholeskySteps::CholeskySteps(const TileOwnership& layout, std::size_t processors, bool grouped)
    : layout_(layout), processors_(processors), tiles_(layout.col_class.size()), grouped_(grouped) {
  require_square_layout(layout, processors);
  const std::size_t pairs = layout.rows * layout.cols;
  diagonal_count_.assign(pairs, 0.0);
  below_count_.assign(pairs, 0.0);
  group_tiles_.assign(pairs, 0.0);
  full_colrow_.resize(pairs);
  full_colrow_known_.assign(pairs, 0);
  owner_stamp_.assign(processors, 0);
  row_stamp_.assign(layout.rows, 0);
  // Step 0's trailing triangle: tiles (i, j) with 1 <= j <= i, counted per class pair.
  std::vector<double> rows_below(layout.rows, 0.0);
  if (layout.rows > layout.cols) {
    count_trailing_by_rows();
    for (std::size_t i = 1; i < tiles_; ++i) rows_below[layout.row_class[i]] += 1.0;
  } else {
    // From the last column back, with the tile rows below column j per row class:
    // O(K · row classes).
    for (std::size_t j = tiles_; j-- > 1;) {
      const std::size_t b = layout.col_class[j];
      diagonal_count_[layout.row_class[j] * layout.cols + b] += 1.0;
      double* column = &below_count_[b * layout.rows];  // contiguous in a: the loop vectorises
      for (std::size_t a = 0; a < layout.rows; ++a) column[a] += rows_below[a];
      rows_below[layout.row_class[j]] += 1.0;
    }
  }
  // rows_below now counts the tile rows i >= 1; column 1, the first to drop, needs i > 1.
  rows_after_dropped_ = std::move(rows_below);
  if (tiles_ > 1) rows_after_dropped_[layout.row_class[1]] -= 1.0;
  row_classes_after_.assign(tiles_ + 1, 0);
  std::vector<char> seen(layout.rows, 0);
  for (std::size_t i = tiles_; i-- > 0;) {
    row_classes_after_[i] = row_classes_after_[i + 1] + (seen[layout.row_class[i]] ? 0 : 1);
    seen[layout.row_class[i]] = 1;
  }
  row_classes_used_ = row_classes_after_[0];
  row_used_ = seen;
  col_used_.assign(layout.cols, 0);
  for (std::size_t b : layout.col_class) col_classes_used_ += col_used_[b] ? 0 : 1, col_used_[b] = 1;
  distinct_owners_ = has_distinct_owners(layout);
  if (grouped_ && distinct_owners_) {
    last_row_.assign(layout.rows, tiles_);
    first_col_after_.assign(layout.cols, tiles_);
    for (std::size_t i = 0; i < tiles_; ++i) last_row_[layout.row_class[i]] = i;
    row_reaches_.assign(pairs, 0.0);
    col_reaches_.assign(pairs, 0.0);
    row_tiles_.assign(layout.rows, 0.0);
    col_tiles_.assign(layout.cols, 0.0);
  }
}

void CholeskySteps::list_lines_of_owners() {
  rows_of_.assign(processors_, {});
  cols_of_.assign(processors_, {});
  std::vector<std::size_t> last_row(processors_, layout_.rows), last_col(processors_, layout_.cols);
  for (std::size_t a = 0; a < layout_.rows; ++a)
    for (std::size_t c = 0; c < layout_.cols; ++c) {
      if (!row_used_[a] || !col_used_[c]) continue;
      const std::size_t x = layout_.at(a, c);
      if (last_row[x] != a) last_row[x] = a, rows_of_[x].push_back(a);
    }
  for (std::size_t c = 0; c < layout_.cols; ++c)
    for (std::size_t a = 0; a < layout_.rows; ++a) {
      if (!row_used_[a] || !col_used_[c]) continue;
      const std::size_t x = layout_.at(a, c);
      if (last_col[x] != c) last_col[x] = c, cols_of_[x].push_back(c);
    }
  row_tiles_.assign(layout_.rows, 0.0);
  col_tiles_.assign(layout_.cols, 0.0);
}

// A full colrow of pair (a, c) reaches the owners of row class a and of column class c: x
// receives it unless x is its sender. So x receives Σ_{a ∈ rows(x)} T_a + Σ_{c ∈ cols(x)} T_c
// − Σ_{a ∈ rows(x), c ∈ cols(x)} t(a, c) (inclusion–exclusion), less the tiles it sends, with
// t the step's grouped tiles of a pair and T their sums per row and per column class.
void CholeskySteps::add_grouped_receivers(CholeskyStepLoad& load, std::size_t panel_class) {
  if (rows_of_.empty()) list_lines_of_owners();
  for (std::size_t key : group_pairs_) {
    row_tiles_[key / layout_.cols] += group_tiles_[key];
    col_tiles_[key % layout_.cols] += group_tiles_[key];
  }
  load.aggregated_received.assign(processors_, 0.0);
  for (std::size_t x = 0; x < processors_; ++x) {
    double tiles = 0.0;
    for (std::size_t a : rows_of_[x]) tiles += row_tiles_[a];
    for (std::size_t c : cols_of_[x]) tiles += col_tiles_[c];
    for (std::size_t a : rows_of_[x])
      for (std::size_t c : cols_of_[x]) tiles -= group_tiles_[a * layout_.cols + c];
    load.aggregated_received[x] = tiles;
  }
  // The sender of every pair of row class a, at(a, panel_class), is one of its owners.
  for (std::size_t a = 0; a < layout_.rows; ++a) {
    load.aggregated_received[layout_.at(a, panel_class)] -= row_tiles_[a];
    row_tiles_[a] = 0.0;
  }
  std::fill(col_tiles_.begin(), col_tiles_.end(), 0.0);
}

// With distinct owners, the processor x of cell (a, b) is in colrow i's group when its row
// reaches x (row class a, and column class b among tile columns k+1 … i: i >= f_b, f_b the
// first of b after k) or its column does (column class b, and row class a among tile rows
// i … K−1: i <= l_a, the last of a); both hold exactly for the diagonal tiles (i, i) of cell
// (a, b). The sender of a colrow of row class a is the owner of (a, panel class): x sends, and
// does not receive, the colrows of row class a that its row reaches when b is the panel's class.
void CholeskySteps::count_colrow_receivers(CholeskyStepLoad& load, std::size_t k) {
  const std::size_t cols = layout_.cols;
  std::fill(row_reaches_.begin(), row_reaches_.end(), 0.0);
  std::fill(col_reaches_.begin(), col_reaches_.end(), 0.0);
  std::fill(first_col_after_.begin(), first_col_after_.end(), tiles_);
  // Down the column: col_tiles_[b] counts tile columns k+1 … i of class b; at l_a, the
  // colrows of column class b that reach row class a.
  std::fill(col_tiles_.begin(), col_tiles_.end(), 0.0);
  for (std::size_t i = k + 1; i < tiles_; ++i) {
    const std::size_t b = layout_.col_class[i], a = layout_.row_class[i];
    col_tiles_[b] += 1.0;
    if (first_col_after_[b] == tiles_) first_col_after_[b] = i;
    if (last_row_[a] == i) std::copy(col_tiles_.begin(), col_tiles_.end(), col_reaches_.begin() + static_cast<long>(a * cols));
  }
  // Up from the last row: row_tiles_[a] counts tile rows i … K−1 of class a; at f_b, the
  // colrows of row class a that reach column class b.
  std::fill(row_tiles_.begin(), row_tiles_.end(), 0.0);
  for (std::size_t i = tiles_; i-- > k + 1;) {
    row_tiles_[layout_.row_class[i]] += 1.0;
    const std::size_t b = layout_.col_class[i];
    if (first_col_after_[b] != i) continue;
    for (std::size_t a = 0; a < layout_.rows; ++a) row_reaches_[a * cols + b] = row_tiles_[a];
  }
  std::fill(col_tiles_.begin(), col_tiles_.end(), 0.0);
  std::fill(row_tiles_.begin(), row_tiles_.end(), 0.0);
  const std::size_t panel_class = layout_.col_class[k];
  load.aggregated_received.assign(processors_, 0.0);
  for (std::size_t a = 0; a < layout_.rows; ++a)
    for (std::size_t b = 0; b < cols; ++b) {
      const std::size_t key = a * cols + b;
      const double sent = b == panel_class ? row_reaches_[key] : 0.0;
      load.aggregated_received[layout_.at(a, b)] = row_reaches_[key] + col_reaches_[key] - diagonal_count_[key] - sent;
    }
}

void CholeskySteps::count_trailing_by_rows() {
  // Tile row by tile row, with the tile columns 1 … i − 1 per column class: O(K · column classes).
  std::vector<double> columns_before(layout_.cols, 0.0);
  for (std::size_t i = 1; i < tiles_; ++i) {
    const std::size_t a = layout_.row_class[i];
    for (std::size_t b = 0; b < layout_.cols; ++b) below_count_[b * layout_.rows + a] += columns_before[b];
    diagonal_count_[a * layout_.cols + layout_.col_class[i]] += 1.0;
    columns_before[layout_.col_class[i]] += 1.0;
  }
}

void CholeskySteps::drop_columns_through(std::size_t k) {
  // Column by column: O(row classes) each. Together: O(column classes) each, then
  // O(row classes · column classes) once, cheaper for a long skip over a tall owner table.
  const std::size_t skipped = k - dropped_through_, rows = layout_.rows, cols = layout_.cols;
  if (rows <= cols || skipped * (rows - cols) <= rows * cols) {
    while (dropped_through_ < k) drop_column(dropped_through_ + 1);
    return;
  }
  // Tile columns first … k leave together: their tiles in tile rows up to k row by row, with the
  // columns dropped before each per column class, then those below k per class pair at once.
  const std::size_t first = dropped_through_ + 1;
  std::vector<double>& dropped = dropped_columns_;
  dropped.assign(layout_.cols, 0.0);
  for (std::size_t t = first; t <= k; ++t) {
    const std::size_t a = layout_.row_class[t], b = layout_.col_class[t];
    if (t > first)
      for (std::size_t c = 0; c < layout_.cols; ++c) below_count_[c * layout_.rows + a] -= dropped[c];
    diagonal_count_[a * layout_.cols + b] -= 1.0;
    dropped[b] += 1.0;
    if (t + 1 < tiles_) rows_after_dropped_[layout_.row_class[t + 1]] -= 1.0;
  }
  dropped_through_ = k;
  // rows_after_dropped_ counts the tile rows below k + 1; below k is one more.
  if (k + 1 < tiles_) rows_after_dropped_[layout_.row_class[k + 1]] += 1.0;
  for (std::size_t c = 0; c < layout_.cols; ++c) {
    if (dropped[c] == 0.0) continue;
    double* column = &below_count_[c * layout_.rows];
    for (std::size_t a = 0; a < layout_.rows; ++a) column[a] -= rows_after_dropped_[a] * dropped[c];
  }
  if (k + 1 < tiles_) rows_after_dropped_[layout_.row_class[k + 1]] -= 1.0;
}

void CholeskySteps::drop_column(std::size_t j) {
  const std::size_t b = layout_.col_class[j];
  diagonal_count_[layout_.row_class[j] * layout_.cols + b] -= 1.0;
  double* column = &below_count_[b * layout_.rows];
  for (std::size_t a = 0; a < layout_.rows; ++a) column[a] -= rows_after_dropped_[a];
  dropped_through_ = j;
  if (j + 1 < tiles_) rows_after_dropped_[layout_.row_class[j + 1]] -= 1.0;  // now the rows below j + 1
}

const std::vector<std::size_t>& CholeskySteps::colrow_owners(std::size_t i,
                                                             const std::vector<char>& cols_seen,
                                                             std::size_t cols_seen_count) {
  const std::size_t a = layout_.row_class[i], b = layout_.col_class[i];
  const bool full =
      cols_seen_count == col_classes_used_ && row_classes_after_[i] == row_classes_used_;
  const std::size_t key = a * layout_.cols + b;
  if (full && full_colrow_known_[key]) return full_colrow_[key];
  ++stamp_;
  scratch_owners_.clear();
  const auto add = [&](std::size_t x) {
    if (owner_stamp_[x] != stamp_) owner_stamp_[x] = stamp_, scratch_owners_.push_back(x);
  };
  // Row i of the trailing triangle: the column classes of tile columns k+1 … i.
  for (std::size_t c = 0; c < layout_.cols; ++c)
    if (cols_seen[c]) add(layout_.at(a, c));
  // Column i: the row classes of tile rows i … K−1, scanned until all of them are found.
  std::size_t found = 0;
  for (std::size_t r = i; r < tiles_ && found < row_classes_after_[i]; ++r) {
    const std::size_t row = layout_.row_class[r];
    if (row_stamp_[row] == stamp_) continue;
    row_stamp_[row] = stamp_;
    ++found;
    add(layout_.at(row, b));
  }
  if (!full) return scratch_owners_;
  full_colrow_[key] = scratch_owners_;
  full_colrow_known_[key] = 1;
  return full_colrow_[key];
}

void CholeskySteps::add_broadcast(CholeskyStepLoad& load, std::size_t sender,
                                  const std::vector<std::size_t>& owners) {
  TileBroadcast b{sender, load.receivers.size(), 0};
  for (std::size_t x : owners)
    if (x != sender) load.receivers.push_back(x), ++b.count;
  load.broadcasts.push_back(b);
}

CholeskyStepLoad CholeskySteps::step(std::size_t k) {
  CholeskyStepLoad load;
  step(k, load);
  return load;
}

void CholeskySteps::step(std::size_t k, CholeskyStepLoad& load) {
  if (k < next_step_ || k >= tiles_) {
    std::ostringstream msg;
    msg << "Cholesky steps: step " << k << " asked, expected step " << next_step_ << " or later of "
        << tiles_;
    throw InvalidArgument(msg.str());
  }
  next_step_ = k + 1;
  if (dropped_through_ < k) drop_columns_through(k);
  const auto owner_of = [&](std::size_t i, std::size_t j) {
    return layout_.at(layout_.row_class[i], layout_.col_class[j]);
  };

  load.diagonal_owner = owner_of(k, k);
  load.broadcasts.clear();
  load.receivers.clear();
  load.aggregated_received.clear();
  load.trsm_tiles.assign(processors_, 0.0);
  load.syrk_tiles.assign(processors_, 0.0);
  load.gemm_tiles.assign(processors_, 0.0);
  for (std::size_t a = 0; a < layout_.rows; ++a)
    for (std::size_t b = 0; b < layout_.cols; ++b) {
      load.syrk_tiles[layout_.at(a, b)] += diagonal_count_[a * layout_.cols + b];
      load.gemm_tiles[layout_.at(a, b)] += below_count_[b * layout_.rows + a];
    }

  add_panel_solves(load, k);
  add_broadcast(load, load.diagonal_owner, scratch_owners_);
  add_colrow_broadcasts(load, k);
}

// Panel k's tiles below the diagonal: those of row class a are cell (a, panel class)'s, as
// many as its tile rows below k (counted per class, not walked: a step of a large platform
// would walk thousands). Their owners, the receivers of L(k, k), go to scratch_owners_ in the
// order their rows first come below k, as a walk down the column lists them.
void CholeskySteps::add_panel_solves(CholeskyStepLoad& load, std::size_t k) {
  const std::size_t panel_class = layout_.col_class[k];
  for (std::size_t a = 0; a < layout_.rows; ++a) {
    // rows_after_dropped_ counts the tile rows below k + 1 (step() dropped columns through k).
    const double rows = rows_after_dropped_[a] + (k + 1 < tiles_ && layout_.row_class[k + 1] == a ? 1.0 : 0.0);
    if (rows > 0.0) load.trsm_tiles[layout_.at(a, panel_class)] += rows;
  }
  ++stamp_;
  scratch_owners_.clear();
  const std::size_t present = k + 1 < tiles_ ? row_classes_after_[k + 1] : 0;
  for (std::size_t i = k + 1, found = 0; i < tiles_ && found < present; ++i) {
    const std::size_t row = layout_.row_class[i];
    if (row_stamp_[row] == stamp_) continue;
    row_stamp_[row] = stamp_;
    ++found;
    const std::size_t x = layout_.at(row, panel_class);
    if (owner_stamp_[x] != stamp_) owner_stamp_[x] = stamp_, scratch_owners_.push_back(x);
  }
}

std::size_t CholeskySteps::add_full_colrows(std::size_t first, const std::vector<char>& cols_seen,
                                           std::size_t cols_seen_count, bool counted) {
  const std::size_t cols = layout_.cols;
  std::size_t i = first;
  for (; i < tiles_ && row_classes_after_[i] == row_classes_used_; ++i) {
    const std::size_t key = layout_.row_class[i] * cols + layout_.col_class[i];
    if (group_tiles_[key] == 0.0) group_pairs_.push_back(key);
    group_tiles_[key] += 1.0;
    // Not counted: its group is listed once per pair (colrow_owners keeps it).
    if (!counted && !full_colrow_known_[key]) colrow_owners(i, cols_seen, cols_seen_count);
  }
  return i;
}

void CholeskySteps::add_colrow_broadcasts(CholeskyStepLoad& load, std::size_t k) {
  const std::size_t panel_class = layout_.col_class[k];
  const bool counted = grouped_ && distinct_owners_;
  std::vector<char> cols_seen(layout_.cols, 0);
  std::size_t cols_seen_count = 0;
  group_pairs_.clear();
  for (std::size_t i = k + 1; i < tiles_; ++i) {
    const std::size_t c = layout_.col_class[i];
    if (!cols_seen[c]) cols_seen[c] = 1, ++cols_seen_count;
    const std::size_t a = layout_.row_class[i];
    const bool full = cols_seen_count == col_classes_used_ && row_classes_after_[i] == row_classes_used_;
    if (grouped_ && full) {
      // The same sender and receivers as every full colrow of its pair; and every colrow from
      // here to the last full one (whose rows below reach every row class) is full too: most
      // of a step, counted per pair in a loop of its own.
      i = add_full_colrows(i, cols_seen, cols_seen_count, counted) - 1;
      continue;
    }
    if (counted) {
      // Its row's owners and its column's share only the owner of (a, c); with the sender,
      // whose column class joins the row's, the group is as many as the classes reached.
      const std::size_t row_reach = cols_seen_count + (cols_seen[panel_class] ? 0 : 1);
      const std::size_t group = row_reach + row_classes_after_[i] - 1;
      load.broadcasts.push_back({layout_.at(a, panel_class), TileBroadcast::kAggregated, group - 1, 1.0});
      continue;
    }
    add_broadcast(load, layout_.at(a, panel_class), colrow_owners(i, cols_seen, cols_seen_count));
  }
  if (counted) count_colrow_receivers(load, k);
  if (group_pairs_.empty()) return;
  if (!counted) add_grouped_receivers(load, panel_class);
  // With distinct owners a full colrow's group is its row's owners and its column's, which
  // share one: every row class and every column class less one.
  const std::size_t counted_group = row_classes_used_ + col_classes_used_ - 1;
  for (std::size_t key : group_pairs_) {
    // Its sender owns cell (a, panel_class) of row class a, which the colrow reaches.
    const std::size_t sender = layout_.at(key / layout_.cols, panel_class);
    const std::size_t group = counted ? counted_group : full_colrow_[key].size();
    load.broadcasts.push_back({sender, TileBroadcast::kAggregated, group - 1, group_tiles_[key]});
    group_tiles_[key] = 0.0;
  }
}

namespace {

/// Seconds of one step's two communication phases: L(k,k) to the panel's other owners (before
/// their TRSM), then every L(i,k) to its colrow together; and each processor's own share.
struct StepMessages {
  double diagonal = 0.0, colrow = 0.0;
  std::vector<double> own;  ///< per processor: its broadcasts' trees and the tiles it receives
};

/// broadcast_time of one tile per group size, worked out once: a step broadcasts thousands of
/// tiles to a few group sizes.
class TreeSeconds {
 public:
  TreeSeconds(const Network& network, double tile_bytes) : network_(network), tile_bytes_(tile_bytes) {}
  double operator()(std::size_t group) {
    if (group >= seconds_.size()) seconds_.resize(group + 1, -1.0);
    double& s = seconds_[group];
    if (s < 0.0) s = broadcast_time(network_, group, tile_bytes_);
    return s;
  }

 private:
  const Network& network_;
  double tile_bytes_;
  std::vector<double> seconds_;  ///< by group size; < 0: not yet known
};

StepMessages step_messages(const Network& network, const CholeskyStepLoad& load, double tile_bytes,
                           std::vector<double>& received, TreeSeconds& tree_s) {
  StepMessages m;
  m.own.assign(received.size(), 0.0);
  const double message_s = network.message_time(tile_bytes);
  for (std::size_t b = 0; b < load.broadcasts.size(); ++b) {
    const TileBroadcast& tile = load.broadcasts[b];
    m.own[tile.sender] += tile.times * tree_s(tile.count + 1);
    if (tile.first == TileBroadcast::kAggregated) continue;
    for (std::size_t r = tile.first; r < tile.first + tile.count; ++r) m.own[load.receivers[r]] += tile.times * message_s;
  }
  for (std::size_t x = 0; x < load.aggregated_received.size(); ++x)
    m.own[x] += load.aggregated_received[x] * message_s;
  BroadcastPhase diagonal_phase(network), colrow_phase(network);
  const TileBroadcast& diagonal_tile = load.broadcasts.front();
  diagonal_phase.broadcast(diagonal_tile.sender, diagonal_tile.count + 1, tile_bytes);
  for (std::size_t r = 0; r < diagonal_tile.count; ++r)
    diagonal_phase.receive(load.receivers[r], tile_bytes);
  if (load.aggregated_received.empty()) {
    std::fill(received.begin(), received.end(), 0.0);
  } else {
    std::copy(load.aggregated_received.begin(), load.aggregated_received.end(), received.begin());
  }
  for (std::size_t b = 1; b < load.broadcasts.size(); ++b) {
    const TileBroadcast& tile = load.broadcasts[b];
    colrow_phase.broadcasts_of(tile.sender, tile.times * tree_s(tile.count + 1));
    if (tile.first == TileBroadcast::kAggregated) continue;
    for (std::size_t r = tile.first; r < tile.first + tile.count; ++r) received[load.receivers[r]] += tile.times;
  }
  for (std::size_t x = 0; x < received.size(); ++x)
    if (received[x] > 0.0) colrow_phase.receive(x, tile_bytes, received[x]);
  m.diagonal = diagonal_phase.time();
  m.colrow = colrow_phase.time();
  return m;
}

/// The schedule of kernels::cholesky, one clock per processor (file comment of the header).
class CriticalPath {
 public:
  CriticalPath(const Platform& platform, const TileOwnership& layout)
      : layout_(layout),
        tile_s_(platform.size()),
        clock_(platform.size(), 0.0),
        column_done_(platform.size(), 0.0),
        busy_(platform.size(), 0.0),
        column_tiles_(platform.size(), 0.0) {
    const double nb = real(layout.tile);
    const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);
    for (std::size_t x = 0; x < tile_s_.size(); ++x)
      tile_s_[x] = nb * nb * nb / (platform.processors[x].speed_flops * efficiency);
  }

  /// Step k's panel: its owners solve their tiles once both their share of column k and the
  /// factor are there (a rank updates around a factor that is late), then the panel travels.
  /// @return when panel k is at every rank that needs it.
  /// `weight`: the steps this one stands for (step_sampling.hpp), each duration counted so often.
  double solve_panel(const CholeskyStepLoad& load, const StepMessages& messages, double weight) {
    double ready = factor_done_;
    for (std::size_t x = 0; x < clock_.size(); ++x) {
      if (load.trsm_tiles[x] <= 0.0) continue;
      const double arrival = factor_done_ + (x == load.diagonal_owner ? 0.0 : weight * messages.diagonal);
      const double trsm = weight * load.trsm_tiles[x] * tile_s_[x];
      ready = std::max(ready, std::max(column_done_[x], arrival) + trsm);
      clock_[x] = std::max(clock_[x], arrival) + trsm;
    }
    return ready + weight * messages.colrow;
  }

  /// Step k's trailing update, from panel k (at every rank at `panel_ready`): diagonal tile
  /// k+1 first, factorised by its owner at once, then the rest of logical column k+1, then
  /// the rest of the trailing triangle. Each processor's own sends and receives of step k
  /// take its time too: MPI moves a single-threaded rank's messages only while it is inside
  /// MPI, so the lookahead hides when a panel travels, not what its messages cost the ranks.
  void update(std::size_t k, const CholeskyStepLoad& load, double panel_ready,
              const StepMessages& messages, double weight) {
    const std::size_t next = k + 1;
    const std::size_t diagonal_owner = owner(next, next);
    std::fill(column_tiles_.begin(), column_tiles_.end(), 0.0);
    column_tiles_[diagonal_owner] += 1.0;  // SYRK nb³
    for (std::size_t i = next + 1; i < layout_.tiles(); ++i) column_tiles_[owner(i, next)] += 2.0;
    for (std::size_t x = 0; x < clock_.size(); ++x) {
      clock_[x] += weight * messages.own[x];
      const double tiles = load.syrk_tiles[x] + 2.0 * load.gemm_tiles[x];  // GEMM 2nb³
      if (tiles <= 0.0) continue;
      const double tile_s = weight * tile_s_[x];
      double start = std::max(clock_[x], panel_ready);
      // The diagonal's owner: SYRK of (k+1,k+1), its POTRF, then the tiles below.
      if (x == diagonal_owner) start += factor(x, start + tile_s, weight);
      column_done_[x] = start + column_tiles_[x] * tile_s;
      clock_[x] = column_done_[x] + (tiles - column_tiles_[x]) * tile_s;
      busy_[x] += tiles * tile_s;
    }
  }

  /// Step 0's POTRF, on the diagonal owner before anything else.
  void factor_first(std::size_t x) { clock_[x] = factor(x, 0.0, 1.0); }

  double total() const {
    return std::max(factor_done_, *std::max_element(clock_.begin(), clock_.end()));
  }
  /// The busiest processor's update seconds.
  double busiest() const { return *std::max_element(busy_.begin(), busy_.end()); }

 private:
  /// POTRF of a diagonal tile on its owner x, from `start` on; @return its seconds.
  double factor(std::size_t x, double start, double weight) {
    const double potrf = weight * tile_s_[x] / 3.0;
    factor_done_ = start + potrf;
    return potrf;
  }

  std::size_t owner(std::size_t i, std::size_t j) const {
    return layout_.at(layout_.row_class[i], layout_.col_class[j]);
  }

  const TileOwnership& layout_;
  std::vector<double> tile_s_;        ///< seconds of nb³ flops, per processor
  std::vector<double> clock_;         ///< when each processor is done with what it was given
  std::vector<double> column_done_;   ///< when it updated its tiles of the lookahead column
  std::vector<double> busy_;          ///< its update seconds so far
  std::vector<double> column_tiles_;  ///< scratch: lookahead column's tiles (nb³ units)
  double factor_done_ = 0.0;          ///< when the current step's diagonal was factorised
};

}  // namespace

TimeBreakdown simulate_cholesky(const Platform& platform, const TileOwnership& layout) {
  CholeskySteps steps(layout, platform.size(), true);
  const double nb = real(layout.tile);
  const double tile_bytes = nb * nb * kBytesPerElement;
  CriticalPath path(platform, layout);
  std::vector<double> received(platform.size());  // colrow tiles each processor takes in
  double messages_s = 0.0;
  // Tile (0,0)'s factorisation opens the schedule (the first sampled step is always step 0).
  path.factor_first(layout.at(layout.row_class[0], layout.col_class[0]));
  CholeskyStepLoad load;
  TreeSeconds tree_s(platform.network, tile_bytes);
  for (const SampledStep& sample : sampled_steps(steps.steps())) {
    const std::size_t k = sample.step;
    steps.step(k, load);
    const StepMessages messages = step_messages(platform.network, load, tile_bytes, received, tree_s);
    messages_s += sample.weight * (messages.diagonal + messages.colrow);
    const double panel_ready = path.solve_panel(load, messages, sample.weight);
    if (k + 1 < steps.steps()) path.update(k, load, panel_ready, messages, sample.weight);
  }
  // The critical path: the busiest processor's updates, then what it waited for, taken first
  // as communication (at most the messages' own time) and the rest as panel work and waits.
  TimeBreakdown t;
  t.compute = path.busiest();
  const double rest = std::max(0.0, path.total() - t.compute);
  t.communication = std::min(messages_s, rest);
  t.panel = rest - t.communication;
  return t;
}

double cholesky_volume_tiles(const TileOwnership& layout, std::size_t processors) {
  CholeskySteps steps(layout, processors);
  double volume = 0.0;
  CholeskyStepLoad load;
  for (std::size_t k = 0; k < steps.steps(); ++k) {
    steps.step(k, load);
    for (const TileBroadcast& b : load.broadcasts) volume += b.times * real(b.count);
  }
  return volume;
}

}  // namespace hetscal::core
