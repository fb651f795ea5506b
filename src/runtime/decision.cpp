#include "runtime/decision.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace hetscal::runtime {
namespace {

Decision forward(std::string reason) { return {Route::Forward, std::move(reason), 0.0, 0.0, std::nullopt}; }

bool uniform(const std::vector<double>& speeds) {
  return std::all_of(speeds.begin(), speeds.end(),
                     [&](double s) { return s == speeds.front(); });
}

const char* dimension_names(std::size_t count) {
  return count == 3 ? "min(M,N,K)" : count == 2 ? "min(M,N)" : "N";
}

// The ledger's route; the reason says what was measured and the corrected times.
void decide_from_ledger(const DecisionInput& in, Decision& d, const std::string& times) {
  d.advice = in.ledger->advise(in.shape_class, d.forward_s, d.heterogeneous_s - d.first_touch_s,
                               uniform(in.speeds), d.first_touch_s);
  const core::LedgerAdvice& advice = *d.advice;
  const bool computes = advice.route == core::MeasuredRoute::Heterogeneous;
  d.route = computes ? Route::Heterogeneous : Route::Forward;
  const bool own_measured = in.ledger->calls(in.shape_class, core::MeasuredRoute::Heterogeneous) > 0;
  std::string reason = computes ? "" : "not faster: ";
  if (advice.trial) reason = "equal speeds, trying hetscal until measured: ";
  if (!computes && uniform(in.speeds) && !own_measured) reason = "equal speeds, hetscal not measured: ";
  reason += times;
  if (advice.measured) {
    reason += "; " + advice.why + ": corrected " + seconds_text(advice.heterogeneous_s) + " vs ScaLAPACK " +
              seconds_text(advice.forward_s);
  }
  d.reason = reason;
}

}  // namespace

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

std::string shape_text(const std::vector<std::int64_t>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "x" : "") + std::to_string(dims[i]);
  return text;
}

std::optional<Decision> decide_without_speeds(const DecisionInput& in) {
  if (in.disabled) return forward("HETSCAL_DISABLE is set");
  if (!in.configuration_problem.empty()) return forward(in.configuration_problem);
  if (!in.routine_allowed) return forward(in.routine + " is not in HETSCAL_ROUTINES");
  const std::int64_t smallest = in.dims.empty() ? 0 : *std::min_element(in.dims.begin(), in.dims.end());
  if (smallest < in.min_n) {
    return forward(std::string(dimension_names(in.dims.size())) + " of " + shape_text(in.dims) +
                   " is below HETSCAL_MIN_N=" + std::to_string(in.min_n));
  }
  if (!in.unsupported.empty()) return forward(in.unsupported);
  // HETSCAL_FORCE takes a single process and the smallest calls too: the testers' 1x1 grids
  // and tiny orders then run hetscal's kernels and redistribution, cases they must handle.
  if (in.force) return std::nullopt;
  if (in.ranks < 2) return forward("a single process: nothing to balance");
  const double flops_per_rank = in.flops / in.ranks;
  if (flops_per_rank < in.min_flops_per_rank) {
    char flops[96];
    std::snprintf(flops, sizeof flops, "%.3g flops per rank, below HETSCAL_MIN_FLOPS=%.0f", flops_per_rank,
                  in.min_flops_per_rank);
    return forward(std::string("too small to repay a take-over: ") + flops);
  }
  return std::nullopt;
}

std::optional<Decision> decide_before_pricing(const DecisionInput& in) {
  if (std::optional<Decision> early = decide_without_speeds(in)) return early;
  if (!in.speeds_problem.empty()) return forward(in.speeds_problem);
  if (!in.force) {
    if (uniform(in.speeds) && !in.ledger) return forward("uniform speeds: nothing to gain over ScaLAPACK");
    if (in.single_panel_update) {
      return forward("K=" + std::to_string(in.dims.back()) + " fits in one block of the caller's layout " +
                     "(a rank-NB update): moving C in and out would not pay");
    }
  }
  return std::nullopt;
}

Decision forward_unplanned(const std::string& why) { return forward(why); }

Decision decide_by_prices(const DecisionInput& in, const Prices& prices) {
  Decision d;
  d.forward_s = prices.forward_s;
  d.heterogeneous_s = prices.heterogeneous_s;
  d.first_touch_s = prices.first_touch_s;
  d.first_touch_bytes = prices.first_touch_bytes;
  char gain[48];
  std::snprintf(gain, sizeof gain, " (gain x%.2f)", d.forward_s / d.heterogeneous_s);
  const std::string times = "predicted " + seconds_text(d.heterogeneous_s) +
                            " (redistribution included) vs ScaLAPACK " + seconds_text(d.forward_s) + gain;
  if (!prices.no_route.empty()) {
    d.route = Route::Forward;
    d.reason = prices.no_route + "; " + times;
    return d;
  }
  if (in.force) {
    d.route = Route::Heterogeneous;
    d.reason = "HETSCAL_FORCE=1; " + times;
  } else if (in.ledger) {
    decide_from_ledger(in, d, times);
  } else if (d.heterogeneous_s < d.forward_s) {
    d.route = Route::Heterogeneous;
    d.reason = times;
  } else {
    d.route = Route::Forward;
    d.reason = "not faster: " + times;
  }
  if (!prices.route_note.empty()) {
    d.reason += "; " + prices.route_note;  // both routes priced: which, and both prices
  } else if (d.route == Route::Heterogeneous && prices.route != "copy") {
    d.reason += "; " + prices.route;
  }
  return d;
}

}  // namespace hetscal::runtime
