#include "core/planners/model_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace hetscal::core {
namespace {

std::string processors_text(const Candidate& c) {
  const auto used = c.processors();
  std::ostringstream s;
  s << used.size() << " {";
  for (std::size_t k = 0; k < used.size(); ++k) s << (k ? "," : "") << used[k];
  s << '}';
  return s.str();
}

std::string row(const Prediction& p, bool chosen) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-18s %5zu  %-22s %10.3f %10.3f %9.3f %9.3f %9.3f %6.0f%%  %s",
                p.candidate.label.c_str(), p.candidate.tile, processors_text(p.candidate).c_str(),
                p.total_s(), p.time.compute, p.time.panel, p.time.communication,
                p.time.redistribution, 100.0 * p.memory_fraction,
                chosen ? "<- chosen" : (p.fits_memory() ? "" : "no memory"));
  return buf;
}

/// Indices of the rows to show, fastest first.
std::vector<std::size_t> selected_rows(const std::vector<Prediction>& predictions,
                                       const ReportOptions& options, std::size_t chosen) {
  std::vector<std::size_t> order(predictions.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return predictions[a].total_s() < predictions[b].total_s();
  });
  if (options.listing == TileListing::BestTilePerLayout) {
    std::map<std::string, bool> seen;
    std::vector<std::size_t> kept;
    for (std::size_t k : order)
      if (!seen[predictions[k].candidate.label]) {
        seen[predictions[k].candidate.label] = true;
        kept.push_back(k);
      }
    order = kept;
  }
  if (options.max_rows == 0 || order.size() <= options.max_rows) return order;
  // Cut to max_rows, but never hide the chosen candidate nor the caller's own layout.
  const auto must_show = [&](std::size_t k) {
    return k == chosen || predictions[k].candidate.kind == CandidateKind::CallerLayout;
  };
  std::vector<std::size_t> shown(order.begin(), order.begin() + static_cast<long>(options.max_rows));
  for (std::size_t k = options.max_rows; k < order.size(); ++k)
    if (must_show(order[k])) shown.push_back(order[k]);
  return shown;
}

}  // namespace

std::string describe_platform(const Platform& platform) {
  std::ostringstream s;
  s << platform.size() << " processors (Mflop/s:";
  for (const auto& proc : platform.processors) s << ' ' << proc.speed_flops / 1e6;
  s << "), " << (platform.network.kind == NetworkKind::SharedBus ? "shared bus" : "switched")
    << " network: latency " << platform.network.latency_s * 1e6 << " us, bandwidth "
    << platform.network.bandwidth_bytes_per_s / 1e6 << " MB/s";
  if (!platform.network.node_of.empty()) {
    const std::size_t nodes =
        1 + *std::max_element(platform.network.node_of.begin(), platform.network.node_of.end());
    s << " per link, " << nodes << " nodes sharing one link each";
  }
  s << "; kernel half-rate tile "
    << platform.kernel.half_tile << "; memory " << platform.processors.front().memory_bytes / 1048576.0
    << " MiB (processor 0)";
  return s.str();
}

std::string format_predictions(const Problem& problem, const std::vector<Prediction>& predictions,
                               const ReportOptions& options) {
  std::ostringstream s;
  s << routine_name(problem.routine) << " N = " << problem.n << ", caller grid "
    << problem.caller.grid_rows << 'x' << problem.caller.grid_cols << " block "
    << problem.caller.block << ", " << predictions.size() << " candidates\n";
  char header[256];
  std::snprintf(header, sizeof header, "%-18s %5s  %-22s %10s %10s %9s %9s %9s %7s", "layout",
                "nb", "processors", "total s", "compute", "panel", "comm", "redist", "memory");
  s << header << '\n';
  std::size_t chosen = predictions.size();  // none
  for (std::size_t k = 0; k < predictions.size(); ++k)
    if (predictions[k].fits_memory() &&
        (chosen == predictions.size() || predictions[k].total_s() < predictions[chosen].total_s()))
      chosen = k;
  for (std::size_t k : selected_rows(predictions, options, chosen))
    s << row(predictions[k], k == chosen) << '\n';
  if (chosen == predictions.size()) s << "no candidate fits in memory\n";
  return s.str();
}

}  // namespace hetscal::core
