#include "core/time_models/time_model_steps.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/common/error.hpp"
#include "core/time_models/cholesky_steps.hpp"
#include "core/time_models/step_sampling.hpp"

namespace hetscal::core {
namespace {

double real(std::size_t v) { return static_cast<double>(v); }

constexpr double kBytesPerElement = 8.0;  // double precision

/// Distinct owners of each row class and of each column class.
struct GroupSizes {
  std::vector<std::size_t> row;
  std::vector<std::size_t> col;
};

/// The distinct owners of each column class.
std::vector<std::vector<std::size_t>> owners_per_column(const TileOwnership& layout) {
  std::vector<std::vector<std::size_t>> owners(layout.cols);
  for (std::size_t b = 0; b < layout.cols; ++b) {
    std::set<std::size_t> distinct;
    for (std::size_t a = 0; a < layout.rows; ++a) distinct.insert(layout.at(a, b));
    owners[b].assign(distinct.begin(), distinct.end());
  }
  return owners;
}

GroupSizes group_sizes(const TileOwnership& layout, const std::vector<std::vector<std::size_t>>& column_owners) {
  GroupSizes g{std::vector<std::size_t>(layout.rows), std::vector<std::size_t>(layout.cols)};
  for (std::size_t a = 0; a < layout.rows; ++a) {
    std::set<std::size_t> owners;
    for (std::size_t b = 0; b < layout.cols; ++b) owners.insert(layout.at(a, b));
    g.row[a] = owners.size();
  }
  for (std::size_t b = 0; b < layout.cols; ++b) g.col[b] = column_owners[b].size();
  return g;
}

/// How many tiles the problem covers on the layout, and which tile row holds the diagonal
/// (GEMM: B's row panel) of each step.
struct StepGeometry {
  std::size_t tile_rows = 0;  ///< of the M×N matrix (C for GEMM)
  std::size_t tile_cols = 0;
  std::vector<std::size_t> diagonal_row;  ///< one per step; step j is tile column j
};

StepGeometry step_geometry(const Problem& problem, const TileOwnership& layout) {
  require_valid(problem);
  const std::size_t m = problem.rows(), n = problem.n;
  const MatrixShape needed = step_layout_shape(problem);
  if (layout.tile_row_of(needed.rows - 1) >= layout.row_class.size() ||
      layout.tile_col_of(needed.cols - 1) >= layout.col_class.size()) {
    std::ostringstream msg;
    msg << "simulate_steps: a layout of " << layout.row_class.size() << " x "
        << layout.col_class.size() << " tiles does not cover " << needed.rows << " x "
        << needed.cols << " elements";
    throw InvalidArgument(msg.str());
  }
  StepGeometry g;
  g.tile_rows = layout.tile_row_of(m - 1) + 1;
  g.tile_cols = layout.tile_col_of(n - 1) + 1;
  const std::size_t stepped =
      problem.routine == Routine::Gemm ? problem.inner() : std::min(m, n);
  const std::size_t steps = layout.tile_col_of(stepped - 1) + 1;
  for (std::size_t j = 0; j < steps; ++j) {
    const std::size_t first_column = j == 0 ? 0 : j * layout.tile - layout.col_offset;
    g.diagonal_row.push_back(layout.tile_row_of(first_column));
  }
  return g;
}

}  // namespace

MatrixShape step_layout_shape(const Problem& problem) {
  const std::size_t m = problem.rows(), n = problem.n, k = problem.inner();
  if (problem.routine == Routine::Gemm) return {std::max(m, k), std::max(n, k)};
  return {m, n};
}

RoutineCosts routine_costs(Routine routine, double tile) {
  const double cube = tile * tile * tile;
  RoutineCosts c;
  switch (routine) {
    case Routine::Gemm:
      c.update_flops_per_tile = 2.0 * cube;
      break;
    case Routine::LU:
      c.update_flops_per_tile = 2.0 * cube;
      c.panel_flops_per_tile = cube;          // n·nb² for an n×nb panel
      c.row_block_flops_per_tile = cube;      // TRSM of the U row block
      c.panel_collectives_per_column = 2.0;   // pivot search, pivot row
      c.factorisation = c.row_swaps = true;
      break;
    case Routine::QR:
      c.update_flops_per_tile = 4.0 * cube;   // apply I − V T Vᵀ: ~4 m n nb
      c.panel_flops_per_tile = 3.0 * cube;    // PDGEQR2 2 n nb², then PDLARFT's T n nb²
      c.column_broadcast_rounds = 2.0;        // W = Vᵀ C summed, then sent back
      c.panel_collectives_per_column = 2.0;   // column norm, w = vᵀ A
      c.factorisation = true;
      break;
    case Routine::Cholesky:
      c.update_flops_per_tile = 2.0 * cube;
      c.update_fraction = 0.5;                // lower triangle only
      c.panel_flops_per_tile = cube;          // TRSM of the panel below the diagonal
      c.factorisation = true;
      break;
  }
  return c;
}

double broadcast_time(const Network& network, std::size_t group, double bytes) {
  if (group <= 1) return 0.0;
  const double rounds = network.kind == NetworkKind::SharedBus
                            ? real(group - 1)
                            : std::ceil(std::log2(real(group)));
  return rounds * network.message_time(bytes);
}

double slowest_time(const Platform& platform, const std::vector<double>& work_tiles,
                    double flops_per_tile, double efficiency) {
  double worst = 0.0;
  for (std::size_t x = 0; x < work_tiles.size(); ++x)
    if (work_tiles[x] > 0.0)
      worst = std::max(worst, work_tiles[x] * flops_per_tile /
                                  (platform.processors[x].speed_flops * efficiency));
  return worst;
}

BroadcastPhase::BroadcastPhase(const Network& network, std::size_t processors) : network_(network) {
  if (network.kind == NetworkKind::SharedBus) return;  // a bus keeps only its total
  senders_.per_processor.assign(processors, 0.0);
  receivers_.per_processor.assign(processors, 0.0);
}

void BroadcastPhase::add(Side& side, std::size_t processor, double seconds) const {
  if (processor >= side.per_processor.size()) side.per_processor.resize(processor + 1, 0.0);
  side.busiest = std::max(side.busiest, side.per_processor[processor] += seconds);
  if (processor >= network_.node_of.size()) return;  // a link of its own
  const std::size_t link = network_.node_of[processor];
  if (link >= side.per_link.size()) side.per_link.resize(link + 1, 0.0);
  side.busiest = std::max(side.busiest, side.per_link[link] += seconds);
}

void BroadcastPhase::broadcast(std::size_t sender, std::size_t group, double bytes, double times) {
  broadcasts_of(sender, times * broadcast_time(network_, group, bytes));
}

void BroadcastPhase::broadcasts_of(std::size_t sender, double seconds) {
  bus_total_ += seconds;
  // A bus's time is its total: who sent and received what is not needed.
  if (network_.kind == NetworkKind::SharedBus) return;
  add(senders_, sender, seconds);
}

void BroadcastPhase::message(std::size_t from, std::size_t to, double bytes, double times) {
  // broadcast(from, 2, bytes, times) and receive(to, bytes, times), whose one round is one
  // message_time on either network: a step model sends thousands of these per step.
  const double seconds = times * network_.message_time(bytes);
  broadcasts_of(from, seconds);
  if (network_.kind != NetworkKind::SharedBus) add(receivers_, to, seconds);
}

void BroadcastPhase::receive(std::size_t receiver, double bytes, double messages) {
  if (network_.kind == NetworkKind::SharedBus) return;  // broadcast() counted the message
  add(receivers_, receiver, messages * network_.message_time(bytes));
}

double BroadcastPhase::time() const {
  if (network_.kind == NetworkKind::SharedBus) return bus_total_;
  return std::max(senders_.busiest, receivers_.busiest);  // a link carries both ways
}

TimeBreakdown simulate_steps(const Platform& platform, Routine routine, const TileOwnership& layout) {
  Problem problem;
  problem.routine = routine;
  problem.n = layout.n;
  problem.m = layout.row_extent();
  return simulate_steps(platform, problem, layout);
}

TimeBreakdown simulate_steps(const Platform& platform, const Problem& problem,
                             const TileOwnership& layout) {
  const StepGeometry geometry = step_geometry(problem, layout);
  // Cholesky on diagonal tiles is priced in one triangle with colrow broadcasts; a layout
  // whose blocks straddle the diagonal falls back to the generic half-trailing-matrix count.
  if (problem.routine == Routine::Cholesky && has_diagonal_tiles(layout) &&
      layout.row_class.size() == layout.col_class.size())
    return simulate_cholesky(platform, layout);
  const double nb = real(layout.tile);
  const RoutineCosts costs = routine_costs(problem.routine, nb);
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);
  // A tile is mb×nb: its update and panel work and its bytes scale with its height mb; a tile
  // of the row block (nb rows of the step) is nb×nb.
  const double height = real(layout.row_block()) / nb;
  const double update_flops = costs.update_flops_per_tile * height;
  const double panel_flops = costs.panel_flops_per_tile * height;
  const double tile_bytes = real(layout.row_block()) * nb * kBytesPerElement;
  const double row_tile_bytes = nb * nb * kBytesPerElement;
  const SuffixClassCounts rows_from(layout.row_class, layout.rows, geometry.tile_rows);
  const SuffixClassCounts cols_from(layout.col_class, layout.cols, geometry.tile_cols);
  const std::vector<std::size_t> cols_whole = cols_from.from(0);
  const auto column_owners = owners_per_column(layout);
  const GroupSizes groups = group_sizes(layout, column_owners);
  const std::size_t p = platform.size();

  TimeBreakdown t;
  for (const SampledStep& sample : sampled_steps(geometry.diagonal_row.size())) {
    const std::size_t k = sample.step;
    const double weight = sample.weight;  // the steps this one stands for (step_sampling.hpp)
    // Tiles of the trailing matrix (GEMM: the whole C every step) and of the panel.
    const std::size_t diagonal = geometry.diagonal_row[k];
    const std::size_t owner_col = layout.col_class[k], owner_row = layout.row_class[diagonal];
    const auto r_trail = rows_from.from(costs.factorisation ? diagonal + 1 : 0);
    const auto c_trail = cols_from.from(costs.factorisation ? k + 1 : 0);
    const auto r_panel = rows_from.from(costs.factorisation ? diagonal : 0);

    std::vector<double> update(p, 0.0), panel(p, 0.0), row_block(p, 0.0);
    for (std::size_t a = 0; a < layout.rows; ++a)
      for (std::size_t b = 0; b < layout.cols; ++b)
        update[layout.at(a, b)] += real(r_trail[a]) * real(c_trail[b]) * costs.update_fraction;
    for (std::size_t a = 0; a < layout.rows; ++a) panel[layout.at(a, owner_col)] += real(r_panel[a]);
    for (std::size_t b = 0; b < layout.cols; ++b) row_block[layout.at(owner_row, b)] += real(c_trail[b]);

    t.compute += weight * slowest_time(platform, update, update_flops, efficiency);
    if (costs.factorisation) {
      t.panel += weight * slowest_time(platform, panel, panel_flops, efficiency);
      t.panel += weight * slowest_time(platform, row_block, costs.row_block_flops_per_tile, efficiency);
      t.panel += weight * nb * costs.panel_collectives_per_column *
                 broadcast_time(platform.network, groups.col[owner_col], nb * kBytesPerElement);
    }

    // Panel (GEMM: A's column panel) along each row class; row block (B's row panel, U, W,
    // Cholesky's transposed panel) along each column class.
    BroadcastPhase along_rows(platform.network), along_cols(platform.network);
    for (std::size_t a = 0; a < layout.rows; ++a)
      if (r_panel[a] > 0)
        along_rows.broadcast(layout.at(a, owner_col), groups.row[a], real(r_panel[a]) * tile_bytes);
    for (std::size_t b = 0; b < layout.cols; ++b) {
      if (c_trail[b] > 0)
        for (double round = 0; round < costs.column_broadcast_rounds; round += 1.0)
          along_cols.broadcast(layout.at(owner_row, b), groups.col[b], real(c_trail[b]) * row_tile_bytes);
      if (costs.row_swaps && groups.col[b] > 1) {
        // PDLASWP swaps the nb pivot rows one at a time (one PDSWAP each) over the whole width
        // of this column class (L to the left as well as the trailing part): a message each
        // way between the diagonal row's owner and a pivot row's, for each of the nb pivots
        // that lies with one of the g − 1 others (each as likely): latency-bound.
        const std::size_t diagonal_owner = layout.at(owner_row, b);
        const double row_bytes = real(cols_whole[b]) * nb * kBytesPerElement;
        const double swaps_each = nb / real(groups.col[b]);
        for (std::size_t x : column_owners[b])
          if (x != diagonal_owner) {
            along_cols.message(diagonal_owner, x, row_bytes, swaps_each);
            along_cols.message(x, diagonal_owner, row_bytes, swaps_each);
          }
      }
    }
    t.communication += weight * (along_rows.time() + along_cols.time());
  }
  return t;
}

double redistribution_time(const Network& network, const std::vector<double>& held_from,
                           const std::vector<double>& held_to, const std::vector<double>& kept) {
  double sent_total = 0.0;
  std::vector<double> sent(kept.size()), received(kept.size());
  std::size_t senders = 0, receivers = 0;
  for (std::size_t x = 0; x < kept.size(); ++x) {
    sent[x] = std::max(0.0, held_from[x] - kept[x]);
    received[x] = std::max(0.0, held_to[x] - kept[x]);
    sent_total += sent[x];
    senders += sent[x] > 0.0;
    receivers += received[x] > 0.0;
  }
  if (sent_total == 0.0) return 0.0;
  if (network.kind == NetworkKind::SharedBus)
    return real(senders * receivers) * network.latency_s +
           sent_total * kBytesPerElement / network.bandwidth_bytes_per_s;
  // Elements through the busiest processor or link (Network::busiest), either way.
  const double busiest = std::max(network.busiest(sent), network.busiest(received));
  return real(std::max(senders, receivers)) * network.latency_s +
         busiest * kBytesPerElement / network.bandwidth_bytes_per_s;
}

}  // namespace hetscal::core
