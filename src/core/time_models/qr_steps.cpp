#include "core/time_models/qr_steps.hpp"

#include <algorithm>
#include <sstream>

#include "core/common/error.hpp"
#include "core/time_models/lookahead_steps.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the rest of the model

double real(std::size_t v) { return static_cast<double>(v); }

}  // namespace

QrSteps::QrSteps(const TileOwnership& layout, std::size_t processors, PanelRank panel_rank,
                 std::vector<double> speeds)
    : layout_(layout),
      processors_(processors),
      panels_(layout, processors, panel_rank, std::move(speeds)),
      rows_from_(layout.row_class, layout.rows),
      cols_from_(layout.col_class, layout.cols) {}

QrStepLoad QrSteps::step(std::size_t k) const {
  if (k >= steps()) {
    std::ostringstream msg;
    msg << "QR steps: step " << k << " of " << steps();
    throw InvalidArgument(msg.str());
  }
  const Counts panel_rows = rows_from_.from(k), trailing_cols = cols_from_.from(k + 1);
  QrStepLoad load = panel_load(k, panel_rows, trailing_cols);
  load.update_tiles.assign(processors_, 0.0);
  load.root_columns.assign(processors_, 0.0);
  add_reduction(load, k, panel_rows, trailing_cols);
  return load;
}

QrStepLoad QrSteps::panel_step(std::size_t k) const {
  if (k >= steps()) return step(k);  // its message
  return panel_load(k, rows_from_.from(k), cols_from_.from(k + 1));
}

QrStepLoad QrSteps::panel_load(std::size_t k, const Counts& panel_rows, const Counts& trailing_cols) const {
  QrStepLoad load;
  load.panel_rank = panels_.panel_rank(k);
  load.gathered.assign(processors_, 0.0);
  load.reflectors.assign(processors_, 0.0);
  add_panel(load, k, panel_rows, trailing_cols);
  return load;
}

void QrSteps::add_panel(QrStepLoad& load, std::size_t k, const Counts& panel_rows,
                        const Counts& trailing_cols) const {
  const std::size_t panel_class = layout_.col_class[k];
  // A tile row's V goes to every rank holding its panel tile or a trailing tile of it; the
  // ranks are the same for every tile row of a row class. Stamped with the class so that
  // each is listed once per class.
  std::vector<std::size_t> stamp(processors_, layout_.rows);
  for (std::size_t a = 0; a < layout_.rows; ++a) {
    if (panel_rows[a] == 0) continue;
    const double tiles = real(panel_rows[a]);
    load.panel_tiles += tiles;
    const std::size_t holder = layout_.at(a, panel_class);
    if (holder != load.panel_rank) load.gathered[holder] += tiles;
    const auto deliver = [&](std::size_t x) {
      if (stamp[x] != a && x != load.panel_rank) stamp[x] = a, load.reflectors[x] += tiles;
    };
    deliver(holder);
    for (std::size_t b = 0; b < layout_.cols; ++b)
      if (trailing_cols[b] > 0) deliver(layout_.at(a, b));
  }
}

void QrSteps::add_reduction(QrStepLoad& load, std::size_t k, const Counts& panel_rows,
                            const Counts& trailing_cols) const {
  const std::size_t row_k = layout_.row_class[k];
  std::vector<std::size_t> stamp(processors_,
                                 layout_.cols);  // the column class that last listed a processor
  for (std::size_t b = 0; b < layout_.cols; ++b) {
    if (trailing_cols[b] == 0) continue;
    const double columns = real(trailing_cols[b]);
    const std::size_t root = layout_.at(row_k, b);
    load.root_columns[root] += columns;
    for (std::size_t a = 0; a < layout_.rows; ++a) {
      if (panel_rows[a] == 0) continue;
      const std::size_t x = layout_.at(a, b);
      load.update_tiles[x] += real(panel_rows[a]) * columns;
      if (x != root && stamp[x] != b) {  // one partial per contributor and tile column
        stamp[x] = b;
        load.w_partials.push_back({x, root, columns});
      }
    }
  }
  merge_pair_messages(load.w_partials);
}

namespace {

/// A step's panel: gathered and factorised (xGEQRF, xLARFT) on the panel rank, then V, τ
/// and T on their way while the panel rank does its own part.
PanelSeconds panel_seconds(const Platform& platform, const QrStepLoad& load, double nb,
                           double efficiency) {
  const double tile_bytes = nb * nb * kBytesPerElement;
  BroadcastPhase gather(platform.network), delivery(platform.network);
  for (std::size_t x = 0; x < load.gathered.size(); ++x) {
    if (load.gathered[x] > 0.0) gather.message(x, load.panel_rank, load.gathered[x] * tile_bytes);
    if (load.reflectors[x] > 0.0)
      delivery.message(load.panel_rank, x, load.reflectors[x] * tile_bytes);
  }
  const double h = load.panel_tiles;
  const double geqrf_flops = (2.0 * h - 2.0 / 3.0) * nb * nb * nb;
  const double larft_flops = (h - 1.0 / 3.0) * nb * nb * nb;
  const double tau_and_t_bytes = (nb + nb * nb) * kBytesPerElement;
  return {gather.time() + (geqrf_flops + larft_flops) /
                              (platform.processors[load.panel_rank].speed_flops * efficiency),
          delivery.time() + broadcast_time(platform.network, platform.size(), tau_and_t_bytes)};
}

/// A message waiting for a link: ready at `ready`, `seconds` on the link.
struct Transfer {
  double ready = 0.0;
  double seconds = 0.0;
  std::size_t link = 0;
  const PairMessage* message = nullptr;
};

/// Serves `transfers` link by link, in the order they are ready, one after another on each
/// link, and calls done(transfer, when it is through).
template <typename Done>
void serve_in_turn(std::vector<Transfer>& transfers, Done&& done) {
  std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
    return a.link != b.link ? a.link < b.link : a.ready < b.ready;
  });
  double busy_until = 0.0;
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    if (t == 0 || transfers[t].link != transfers[t - 1].link) busy_until = 0.0;
    busy_until = std::max(busy_until, transfers[t].ready) + transfers[t].seconds;
    done(transfers[t], busy_until);
  }
}

/// When the last rank is done with a step whose ranks start together: each makes its
/// partials (half its flops), the partials queue for their root's link (its node's, where
/// the network has nodes) as they come, each root sends W back once all of its partials are
/// in, again queueing on its link, and each rank then updates (the other half). Where the
/// contributors finish their partials together (a grid column of balanced ranks), the
/// queues show; where they finish apart, only the slowest rank's own round trip does.
double exchange_finish(const Network& network, const std::vector<PairMessage>& partials,
                       const std::vector<double>& compute, double tile_bytes) {
  const auto half = [&](std::size_t x) { return 0.5 * compute[x]; };
  const auto link_of = [&](std::size_t x) { return network.node_of.empty() ? x : network.node_of[x]; };
  const auto seconds = [&](const PairMessage& m) { return network.message_time(m.tiles * tile_bytes); };
  std::vector<Transfer> transfers;
  transfers.reserve(partials.size());
  for (const PairMessage& m : partials) transfers.push_back({half(m.from), seconds(m), link_of(m.to), &m});
  std::vector<double> reduced(compute.size(), 0.0);  // a root's partials all in, its own made
  for (std::size_t x = 0; x < compute.size(); ++x) reduced[x] = half(x);
  serve_in_turn(transfers, [&](const Transfer& t, double through) {
    reduced[t.message->to] = std::max(reduced[t.message->to], through);
  });
  std::vector<double> has_w = reduced;  // a rank's W columns all there: its own, and back
  for (Transfer& t : transfers) t.ready = reduced[t.message->to];
  serve_in_turn(transfers, [&](const Transfer& t, double through) {
    has_w[t.message->from] = std::max(has_w[t.message->from], through);
  });
  double finish = 0.0;
  for (std::size_t x = 0; x < compute.size(); ++x) finish = std::max(finish, has_w[x] + half(x));
  return finish;
}

/// What a step does besides its panel: the W messages there and back, and every rank's
/// flops (partials 2nb³ and update 2nb³ per trailing tile, Tᴴ·W nb³ per rooted column). The
/// messages count what the exchange adds to the slowest rank's flops (exchange_finish), or
/// what the busiest link's whole traffic exceeds them by. In SimGrid on 64 ranks (N =
/// 16,384, tile 64, a heterogeneous pattern) a step lasted its slowest rank's flops plus
/// 0–2 ms where the busiest link's messages took 3–5 ms; on a 16×8 grid they showed.
struct StepWork {
  double messages = 0.0;        ///< seconds the exchange adds to the slowest rank's flops
  std::vector<double> compute;  ///< seconds per processor
  double slowest_compute() const { return *std::max_element(compute.begin(), compute.end()); }
  double exposed() const { return 0.0; }  ///< the root's Tᴴ·W counts with its update
  double window() const { return messages + slowest_compute(); }
  double of(std::size_t x) const { return messages + compute[x]; }
};

StepWork step_work(const Platform& platform, const QrStepLoad& load, double nb, double efficiency) {
  const double tile_bytes = nb * nb * kBytesPerElement, cube = nb * nb * nb;
  BroadcastPhase partials(platform.network), back(platform.network);
  for (const PairMessage& m : load.w_partials) {
    partials.message(m.from, m.to, m.tiles * tile_bytes);
    back.message(m.to, m.from, m.tiles * tile_bytes);
  }
  StepWork work;
  for (std::size_t x = 0; x < platform.size(); ++x) {
    const double flops = (4.0 * load.update_tiles[x] + load.root_columns[x]) * cube;
    work.compute.push_back(flops / (platform.processors[x].speed_flops * efficiency));
  }
  const double slowest = work.slowest_compute();
  const double exchange = exchange_finish(platform.network, load.w_partials, work.compute, tile_bytes);
  work.messages = std::max({0.0, exchange - slowest, partials.time() + back.time() - slowest});
  return work;
}

}  // namespace

TimeBreakdown simulate_qr(const Platform& platform, const TileOwnership& layout,
                          PanelRank panel_rank) {
  std::vector<double> speeds;
  for (const Processor& p : platform.processors) speeds.push_back(p.speed_flops);
  const QrSteps steps(layout, platform.size(), panel_rank, speeds);
  const double nb = real(layout.tile);
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);

  // Step k's flops (StepWork) at perfect balance over the layout's owners: partials and
  // update 4nb³ per trailing tile, Tᴴ·W nb³ per trailing column.
  const double rate = owners_speed_flops(platform, layout) * efficiency;
  const double rows = real(layout.row_class.size()), cols = real(layout.col_class.size());
  const auto floor_of = [&](std::size_t k) {
    const double panel_rows = rows - real(k), trailing_cols = cols - real(k) - 1.0;
    return (4.0 * panel_rows + 1.0) * trailing_cols * nb * nb * nb / rate;
  };
  return lookahead_time(
      steps, [&](const QrStepLoad& load) { return panel_seconds(platform, load, nb, efficiency); },
      [&](const QrStepLoad& load) { return step_work(platform, load, nb, efficiency); }, floor_of);
}

}  // namespace hetscal::core
