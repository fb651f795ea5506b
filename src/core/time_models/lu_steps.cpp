#include "core/time_models/lu_steps.hpp"

#include <algorithm>
#include <sstream>

#include "core/common/error.hpp"
#include "core/time_models/lookahead_steps.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "core/time_models/update_bound.hpp"

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the rest of the model

double real(std::size_t v) { return static_cast<double>(v); }

void require_lu_layout(const TileOwnership& layout, std::size_t processors, const std::vector<double>& speeds) {
  std::ostringstream msg;
  if (layout.row_block() != layout.tile || layout.row_offset != 0 || layout.col_offset != 0)
    msg << "LU steps: tiles " << layout.row_block() << " x " << layout.tile << " with offsets "
        << layout.row_offset << ", " << layout.col_offset << "; hetscal's LU needs square tiles from (0, 0)";
  else if (speeds.size() != processors)
    msg << "LU steps: " << speeds.size() << " speeds for " << processors << " processors";
  for (std::size_t owner : layout.owner)
    if (msg.tellp() == 0 && owner >= processors)
      msg << "LU steps: the layout names processor " << owner << " of " << processors;
  if (msg.tellp() != 0) throw InvalidArgument(msg.str());
}

}  // namespace

void merge_pair_messages(std::vector<PairMessage>& messages) {
  if (messages.size() < 2) return;
  // A stable counting sort by sender, then each sender's repeated receivers summed into their
  // first entry (a slot per receiver, valid within the sender's run): O(messages +
  // processors). A second counting sort, by receiver, cost as much again (a seventh of an LU
  // pricing on a 1,024-processor pattern); the order of a sender's pairs only decides the
  // order in which its own seconds add up.
  std::size_t top = 0;
  for (const PairMessage& m : messages) top = std::max({top, m.from, m.to});
  // Kept between calls: every step of every candidate merges its messages, and their
  // allocations were a tenth of a pricing.
  thread_local std::vector<std::size_t> start, slot;
  thread_local std::vector<PairMessage> by_sender;
  start.assign(top + 2, 0);
  for (const PairMessage& m : messages) ++start[m.from + 1];
  for (std::size_t x = 1; x < start.size(); ++x) start[x] += start[x - 1];
  by_sender.resize(messages.size());
  for (const PairMessage& m : messages) by_sender[start[m.from]++] = m;
  slot.resize(top + 1);  // stale entries are told apart by the run check
  std::size_t kept = 0, run = 0;  // run: the current sender's first entry
  for (const PairMessage& m : by_sender) {
    if (kept == 0 || messages[kept - 1].from != m.from) run = kept;
    const std::size_t s = slot[m.to];
    if (s >= run && s < kept && messages[s].to == m.to) {
      messages[s].tiles += m.tiles;
    } else {
      slot[m.to] = kept;
      messages[kept++] = m;
    }
  }
  messages.resize(kept);
}

LuSteps::LuSteps(const TileOwnership& layout, std::size_t processors, PanelRank panel_rank,
                 std::vector<double> speeds)
    : layout_(layout), processors_(processors), tile_rows_(layout.row_class.size()),
      tile_cols_(layout.col_class.size()), panel_rank_(panel_rank), speeds_(std::move(speeds)),
      rows_from_(layout.row_class, layout.rows), cols_from_(layout.col_class, layout.cols) {
  require_lu_layout(layout, processors, speeds_);
  steps_ = layout.tile_col_of(std::min(layout.row_extent(), layout.n) - 1) + 1;
}

LuSteps::Counts LuSteps::counts(std::size_t k) const {
  return {rows_from_.from(k), rows_from_.from(k + 1), cols_from_.from(k + 1)};
}

std::size_t LuSteps::panel_rank(std::size_t k) const {
  if (k >= steps_) throw InvalidArgument("LU steps: panel rank of step " + std::to_string(k) + " of " + std::to_string(steps_));
  return panel_rank(k, rows_from_.from(k));
}

std::size_t LuSteps::panel_rank(std::size_t k, const std::vector<std::size_t>& panel_rows) const {
  const std::size_t column = layout_.col_class[k];
  if (panel_rank_ == PanelRank::DiagonalOwner) return layout_.at(layout_.row_class[k], column);
  std::size_t best = processors_;
  for (std::size_t a = 0; a < layout_.rows; ++a) {
    if (panel_rows[a] == 0) continue;  // owns no panel tile
    const std::size_t x = layout_.at(a, column);
    if (best == processors_ || speeds_[x] > speeds_[best] || (speeds_[x] == speeds_[best] && x < best)) best = x;
  }
  return best;
}

LuStepLoad LuSteps::step(std::size_t k) const {
  const Counts c = checked_counts(k);
  LuStepLoad load = panel_load(k, c);
  load.trsm_tiles.assign(processors_, 0.0);
  load.gemm_tiles.assign(processors_, 0.0);
  add_swaps_and_update(load, k, c);
  add_row_block(load, k, c);
  return load;
}

LuStepLoad LuSteps::panel_step(std::size_t k) const { return panel_load(k, checked_counts(k)); }

LuSteps::Counts LuSteps::checked_counts(std::size_t k) const {
  if (k >= steps_) {
    std::ostringstream msg;
    msg << "LU steps: step " << k << " of " << steps_;
    throw InvalidArgument(msg.str());
  }
  return counts(k);
}

LuStepLoad LuSteps::panel_load(std::size_t k, const Counts& c) const {
  LuStepLoad load;
  load.panel_rank = panel_rank(k, c.panel_rows);
  load.gathered.assign(processors_, 0.0);
  load.factored.assign(processors_, 0.0);
  add_panel(load, k, c);
  return load;
}

void LuSteps::add_panel(LuStepLoad& load, std::size_t k, const Counts& c) const {
  const std::size_t panel_class = layout_.col_class[k];
  const auto& panel_rows = c.panel_rows;  // tile rows i >= k per class
  const auto& trailing_rows = c.trailing_rows;
  const auto& trailing_cols = c.trailing_cols;
  // The processors other than the panel rank that get a tile row's factored tile: the owner
  // of its panel tile and those of its trailing tiles. In O(columns): a processor is listed
  // once per tile row class by stamping it with the class (row k apart, stamped rows).
  std::vector<std::size_t> stamp(processors_, layout_.rows), readers;
  const auto readers_of_row = [&](std::size_t a, std::size_t mark) -> const std::vector<std::size_t>& {
    readers.clear();
    const auto add = [&](std::size_t x) {
      if (stamp[x] != mark && x != load.panel_rank) stamp[x] = mark, readers.push_back(x);
    };
    add(layout_.at(a, panel_class));
    for (std::size_t b = 0; b < layout_.cols; ++b)
      if (trailing_cols[b] > 0) add(layout_.at(a, b));
    return readers;
  };
  for (std::size_t a = 0; a < layout_.rows; ++a) {
    load.panel_tiles += real(panel_rows[a]);
    const std::size_t holder = layout_.at(a, panel_class);
    if (holder != load.panel_rank) load.gathered[holder] += real(panel_rows[a]);
    if (trailing_rows[a] > 0)
      for (std::size_t x : readers_of_row(a, a)) load.factored[x] += real(trailing_rows[a]);
  }
  // Tile row k: L(k,k) for the row block's owners.
  for (std::size_t x : readers_of_row(layout_.row_class[k], layout_.rows + 1)) load.factored[x] += 1.0;
}

namespace {

/// The column classes with trailing tiles, grouped by their tile at row k's owner (its rank
/// increasing, then the class): a step's swaps and U messages all leave from that owner, so
/// listing them group by group lists them by sender, each group's pairs merged as they come
/// (PairsBySender), in the order and with the sums merge_pair_messages gives the same
/// messages listed cell by cell, without its sort.
std::vector<std::size_t> columns_by_row_owner(const TileOwnership& layout, std::size_t row_class,
                                              const std::vector<std::size_t>& trailing_cols) {
  std::vector<std::size_t> columns;
  for (std::size_t b = 0; b < layout.cols; ++b)
    if (trailing_cols[b] > 0) columns.push_back(b);
  std::stable_sort(columns.begin(), columns.end(), [&](std::size_t a, std::size_t b) {
    return layout.at(row_class, a) < layout.at(row_class, b);
  });
  return columns;
}

/// One sender's messages at a time, each receiver's merged into its first (a slot per
/// receiver, valid within the sender's run).
class PairsBySender {
 public:
  PairsBySender(std::vector<PairMessage>& messages, std::size_t processors) : messages_(messages) {
    slot_.resize(std::max(slot_.size(), processors));
  }
  void start_sender() { run_ = messages_.size(); }
  void add(std::size_t from, std::size_t to, double tiles) {
    const std::size_t s = slot_[to];
    if (s >= run_ && s < messages_.size() && messages_[s].to == to) {
      messages_[s].tiles += tiles;
    } else {
      slot_[to] = messages_.size();
      messages_.push_back({from, to, tiles});
    }
  }

 private:
  std::vector<PairMessage>& messages_;
  static thread_local std::vector<std::size_t> slot_;  // stale entries are told apart by the run
  std::size_t run_ = 0;
};

thread_local std::vector<std::size_t> PairsBySender::slot_;

}  // namespace

void LuSteps::add_swaps_and_update(LuStepLoad& load, std::size_t k, const Counts& c) const {
  const std::size_t row_k = layout_.row_class[k];
  const auto& panel_rows = c.panel_rows;
  const auto& trailing_rows = c.trailing_rows;
  const auto& trailing_cols = c.trailing_cols;
  for (std::size_t a = 0; a < layout_.rows; ++a)
    for (std::size_t b = 0; b < layout_.cols; ++b)
      load.gemm_tiles[layout_.at(a, b)] += real(trailing_rows[a]) * real(trailing_cols[b]);
  // Each pair of ranks exchanges its swapped rows in one message: per sender (the owner of
  // tile (k, j)), its columns' cells row by row.
  const double pivot_rows = real(tile_rows_ - k);  // tile rows a pivot may come from
  const std::vector<std::size_t> columns = columns_by_row_owner(layout_, row_k, trailing_cols);
  PairsBySender swaps(load.swaps, processors_);
  for (std::size_t first = 0; first < columns.size();) {
    const std::size_t d = layout_.at(row_k, columns[first]);
    std::size_t end = first;
    while (end < columns.size() && layout_.at(row_k, columns[end]) == d) ++end;
    swaps.start_sender();
    for (std::size_t a = 0; a < layout_.rows; ++a) {
      if (panel_rows[a] == 0) continue;
      for (std::size_t g = first; g < end; ++g) {
        const std::size_t b = columns[g], x = layout_.at(a, b);
        if (x != d) swaps.add(d, x, real(panel_rows[a]) * real(trailing_cols[b]) / pivot_rows);
      }
    }
    first = end;
  }
}

void LuSteps::add_row_block(LuStepLoad& load, std::size_t k, const Counts& c) const {
  const std::size_t row_k = layout_.row_class[k];
  const auto& trailing_rows = c.trailing_rows;
  const auto& trailing_cols = c.trailing_cols;
  // Per solver (the owner of tile (k, j)), its columns one by one: U(k, j) to each distinct
  // owner of a trailing tile of column j, one message per pair of ranks.
  std::vector<std::size_t> stamp(processors_, layout_.cols);  // the column class that last listed a processor
  const std::vector<std::size_t> columns = columns_by_row_owner(layout_, row_k, trailing_cols);
  PairsBySender u_messages(load.u_messages, processors_);
  for (std::size_t g = 0; g < columns.size(); ++g) {
    const std::size_t b = columns[g], solver = layout_.at(row_k, b);
    if (g == 0 || layout_.at(row_k, columns[g - 1]) != solver) u_messages.start_sender();
    load.trsm_tiles[solver] += real(trailing_cols[b]);
    for (std::size_t a = 0; a < layout_.rows; ++a) {  // the distinct owners of its trailing tiles
      const std::size_t x = layout_.at(a, b);
      if (trailing_rows[a] > 0 && x != solver && stamp[x] != b) {
        stamp[x] = b;
        u_messages.add(solver, x, real(trailing_cols[b]));
      }
    }
  }
}

namespace {

/// A step's panel: the panel rank waits for the gathered tiles and factorises them (getrf);
/// the factored tiles to their ranks and the pivots to every rank then travel while it
/// updates its own tiles.
PanelSeconds panel_seconds(const Platform& platform, const LuStepLoad& load, double nb, double efficiency) {
  const double tile_bytes = nb * nb * kBytesPerElement;
  BroadcastPhase gather(platform.network, platform.size()), factored(platform.network, platform.size());
  for (std::size_t x = 0; x < load.gathered.size(); ++x) {
    if (load.gathered[x] > 0.0) gather.message(x, load.panel_rank, load.gathered[x] * tile_bytes);
    if (load.factored[x] > 0.0) factored.message(load.panel_rank, x, load.factored[x] * tile_bytes);
  }
  const double getrf_flops = (load.panel_tiles - 1.0 / 3.0) * nb * nb * nb;
  return {gather.time() + getrf_flops / (platform.processors[load.panel_rank].speed_flops * efficiency),
          factored.time() + broadcast_time(platform.network, platform.size(), nb * kBytesPerElement)};
}

/// Every message of `messages`, `both_ways` also from `to` to `from`.
void send_pairs(BroadcastPhase& phase, const std::vector<PairMessage>& messages, double tile_bytes, bool both_ways) {
  for (const PairMessage& m : messages) {
    phase.message(m.from, m.to, m.tiles * tile_bytes);
    if (both_ways) phase.message(m.to, m.from, m.tiles * tile_bytes);
  }
}

/// What a step does besides its panel: the swaps and the U messages (communication), the
/// row block's TRSM and the trailing update, per processor where they differ.
struct StepWork {
  double messages = 0.0;       ///< swaps, then the U tiles
  std::vector<double> trsm;    ///< seconds per processor
  std::vector<double> update;  ///< seconds per processor
  double slowest_trsm() const { return *std::max_element(trsm.begin(), trsm.end()); }
  double slowest_update() const { return *std::max_element(update.begin(), update.end()); }
  double exposed() const { return slowest_trsm(); }  ///< the row block waits for the panel
  double slowest_compute() const { return slowest_update(); }
  /// Every processor done: the window the next panel may hide in.
  double window() const { return messages + slowest_trsm() + slowest_update(); }
  /// Processor x done with its own part.
  double of(std::size_t x) const { return messages + trsm[x] + update[x]; }
};

StepWork step_work(const Platform& platform, const LuStepLoad& load, double nb, double efficiency) {
  const double tile_bytes = nb * nb * kBytesPerElement, cube = nb * nb * nb;
  BroadcastPhase swaps(platform.network, platform.size()), row_block(platform.network, platform.size());
  send_pairs(swaps, load.swaps, tile_bytes, true);
  send_pairs(row_block, load.u_messages, tile_bytes, false);
  StepWork work{swaps.time() + row_block.time(), {}, {}};
  for (std::size_t x = 0; x < platform.size(); ++x) {
    const double rate = platform.processors[x].speed_flops * efficiency;
    work.trsm.push_back(load.trsm_tiles[x] * cube / rate);
    work.update.push_back(load.gemm_tiles[x] * 2.0 * cube / rate);
  }
  return work;
}

}  // namespace

TimeBreakdown simulate_lu(const Platform& platform, const TileOwnership& layout, PanelRank panel_rank) {
  std::vector<double> speeds;
  for (const Processor& p : platform.processors) speeds.push_back(p.speed_flops);
  const LuSteps steps(layout, platform.size(), panel_rank, speeds);
  const double nb = real(layout.tile);
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);

  const auto floors_of = [&](const std::vector<SampledStep>& samples) {
    return sampled_step_floors(platform, Routine::LU, layout, samples);
  };
  return lookahead_time(
      steps, [&](const LuStepLoad& load) { return panel_seconds(platform, load, nb, efficiency); },
      [&](const LuStepLoad& load) { return step_work(platform, load, nb, efficiency); }, floors_of);
}

}  // namespace hetscal::core
