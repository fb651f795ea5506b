#include "core/time_models/qr_steps.hpp"

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
  BroadcastPhase gather(platform.network, platform.size()), delivery(platform.network, platform.size());
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
  std::size_t turn = 0;  ///< breaks ties of `ready`: the earlier turn goes first
};

/// Serves `transfers` link by link, in the order they are ready (ties: by turn), one after
/// another on each link, and calls done(transfer, when it is through).
/// Grouped by link first (a counting sort, O(transfers + links)), so that only each link's
/// queue is sorted: at 16,384 processors a step sends 15,000 partials over 512 node links,
/// and one sort of them all was a fifth of the planner's time.
template <typename Done>
void serve_in_turn(std::vector<Transfer>& transfers, std::size_t links, Done&& done) {
  thread_local std::vector<std::size_t> start;
  thread_local std::vector<Transfer> grouped;
  start.assign(links + 1, 0);
  for (const Transfer& t : transfers) ++start[t.link + 1];
  for (std::size_t l = 1; l <= links; ++l) start[l] += start[l - 1];
  grouped.resize(transfers.size());
  for (const Transfer& t : transfers) grouped[start[t.link]++] = t;  // start[l]: link l's end
  transfers.swap(grouped);
  std::size_t first = 0;
  for (std::size_t l = 0; l < links; ++l) {
    const auto begin = transfers.begin() + static_cast<long>(first), end = transfers.begin() + static_cast<long>(start[l]);
    std::sort(begin, end, [](const Transfer& a, const Transfer& b) {
      return a.ready != b.ready ? a.ready < b.ready : a.turn < b.turn;
    });
    double busy_until = 0.0;
    for (auto t = begin; t != end; ++t) {
      busy_until = std::max(busy_until, t->ready) + t->seconds;
      done(*t, busy_until);
    }
    first = start[l];
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
  std::size_t links = 0;
  for (const PairMessage& m : partials) links = std::max(links, link_of(m.to) + 1);
  const auto seconds = [&](const PairMessage& m) { return network.message_time(m.tiles * tile_bytes); };
  std::vector<Transfer> transfers;
  transfers.reserve(partials.size());
  // Ties go in the messages' order, by contributor: the order in which the kernel's root
  // posts its sends of W back (qr_update.hpp: by rank).
  for (const PairMessage& m : partials)
    transfers.push_back({half(m.from), seconds(m), link_of(m.to), &m, transfers.size()});
  std::vector<double> reduced(compute.size(), 0.0);  // a root's partials all in, its own made
  for (std::size_t x = 0; x < compute.size(); ++x) reduced[x] = half(x);
  serve_in_turn(transfers, links, [&](const Transfer& t, double through) {
    reduced[t.message->to] = std::max(reduced[t.message->to], through);
  });
  std::vector<double> has_w = reduced;  // a rank's W columns all there: its own, and back
  for (Transfer& t : transfers) t.ready = reduced[t.message->to];
  serve_in_turn(transfers, links, [&](const Transfer& t, double through) {
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
  // W goes back as the partials came, each message reversed: the same phase time.
  BroadcastPhase partials(platform.network, platform.size());
  for (const PairMessage& m : load.w_partials) partials.message(m.from, m.to, m.tiles * tile_bytes);
  StepWork work;
  for (std::size_t x = 0; x < platform.size(); ++x) {
    const double flops = (4.0 * load.update_tiles[x] + load.root_columns[x]) * cube;
    work.compute.push_back(flops / (platform.processors[x].speed_flops * efficiency));
  }
  const double slowest = work.slowest_compute();
  const double exchange = exchange_finish(platform.network, load.w_partials, work.compute, tile_bytes);
  work.messages = std::max({0.0, exchange - slowest, 2.0 * partials.time() - slowest});
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

  const auto floors_of = [&](const std::vector<SampledStep>& samples) {
    return sampled_step_floors(platform, Routine::QR, layout, samples);
  };
  return lookahead_time(
      steps, [&](const QrStepLoad& load) { return panel_seconds(platform, load, nb, efficiency); },
      [&](const QrStepLoad& load) { return step_work(platform, load, nb, efficiency); }, floors_of);
}

}  // namespace hetscal::core
