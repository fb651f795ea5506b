#include "shim/decision.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace hetscal::shim {
namespace {

Decision forward(std::string reason) { return {Route::Forward, std::move(reason), 0.0, 0.0}; }

std::string shape_text(const DecisionInput& in) {
  return std::to_string(in.m) + "x" + std::to_string(in.n) + "x" + std::to_string(in.k);
}

bool uniform(const std::vector<double>& speeds) {
  return std::all_of(speeds.begin(), speeds.end(),
                     [&](double s) { return s == speeds.front(); });
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

}  // namespace

double predicted_redistribution_seconds(std::int64_t m, std::int64_t n, std::int64_t k,
                                        bool beta_zero, int ranks,
                                        const ModelConstants& constants) {
  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
  const double elements = md * kd + kd * nd + (beta_zero ? 1.0 : 2.0) * md * nd;
  const double p = static_cast<double>(std::max(ranks, 1));
  const double moved_per_rank = elements / p * (1.0 - 1.0 / p);
  const double rounds = 2.0;  // one round of messages in (A, B, C), one out (C)
  return moved_per_rank * constants.element_bytes / constants.bytes_per_second +
         rounds * (p - 1.0) * constants.latency_s;
}

Decision decide(const DecisionInput& in, const ModelConstants& constants) {
  if (in.disabled) return forward("HETSCAL_DISABLE is set");
  if (!in.configuration_problem.empty()) return forward(in.configuration_problem);
  if (std::min({in.m, in.n, in.k}) < in.min_n) {
    return forward("min(M,N,K) of " + shape_text(in) + " is below HETSCAL_MIN_N=" +
                   std::to_string(in.min_n));
  }
  if (!in.unsupported.empty()) return forward(in.unsupported);
  if (!in.speeds_problem.empty()) return forward(in.speeds_problem);
  if (in.ranks < 2) return forward("a single process: nothing to balance");
  if (!in.force) {
    if (uniform(in.speeds)) return forward("uniform speeds: nothing to gain over ScaLAPACK");
    if (in.k <= in.caller_k_block) {
      return forward("K=" + std::to_string(in.k) + " fits in one block of the caller's layout " +
                     "(a rank-NB update): moving C in and out would not pay");
    }
  }
  std::optional<GridLoad> planned;
  try {
    planned = in.planned ? in.planned() : std::nullopt;
  } catch (const std::exception& e) {
    return forward(std::string("no heterogeneous plan: ") + e.what());
  }
  if (!planned) return forward("no heterogeneous grid fits " + shape_text(in));

  const double fastest = *std::max_element(in.speeds.begin(), in.speeds.end());
  Decision d;
  d.forward_s = predicted_gemm_seconds(in.caller, in.k, fastest, constants);
  d.heterogeneous_s = predicted_gemm_seconds(*planned, in.k, fastest, constants) +
                      predicted_redistribution_seconds(in.m, in.n, in.k, in.beta_zero, in.ranks,
                                                       constants);
  char gain[48];
  std::snprintf(gain, sizeof gain, " (gain x%.2f)", d.forward_s / d.heterogeneous_s);
  const std::string times = "predicted " + seconds_text(d.heterogeneous_s) +
                            " (redistribution included) vs ScaLAPACK " + seconds_text(d.forward_s) + gain;
  if (in.force) {
    d.route = Route::Heterogeneous;
    d.reason = "HETSCAL_FORCE=1; " + times;
  } else if (d.heterogeneous_s < d.forward_s) {
    d.route = Route::Heterogeneous;
    d.reason = times;
  } else {
    d.route = Route::Forward;
    d.reason = "not faster: " + times;
  }
  return d;
}

}  // namespace hetscal::shim
