#include "runtime/plan_description.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace hetscal::runtime {

std::string rank_list_text(const std::vector<std::size_t>& ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t last = i;  // the run of consecutive ranks from ranks[i]
    while (last + 1 < ranks.size() && ranks[last + 1] == ranks[last] + 1) ++last;
    text += (i ? "," : "") + std::to_string(ranks[i]);
    if (last > i) text += "-" + std::to_string(ranks[last]);
    i = last + 1;
  }
  return text;
}

std::string ranks_text(const std::vector<std::size_t>& ranks, std::size_t total) {
  return rank_list_text(ranks) + " of " + std::to_string(total);
}

namespace {

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// part / whole, which underflows to 0 for speeds such as 1e-300 against 1e300.
std::string fraction_text(double part, double whole) {
  const double fraction = part / whole;
  return fraction > 0.0 ? number_text(fraction) : "less than " + number_text(std::numeric_limits<double>::min());
}

}  // namespace

IdleRanks idle_ranks(const std::string& call, std::vector<std::size_t> planned, const std::vector<double>& speeds) {
  std::sort(planned.begin(), planned.end());
  std::vector<std::size_t> idle;
  double slowest_idle = 0.0, fastest_idle = 0.0, slowest = 0.0, fastest = 0.0;
  for (std::size_t r = 0; r < speeds.size(); ++r) {
    const bool in_plan = std::binary_search(planned.begin(), planned.end(), r);
    double& low = in_plan ? slowest : slowest_idle;
    double& high = in_plan ? fastest : fastest_idle;
    low = low == 0.0 ? speeds[r] : std::min(low, speeds[r]);
    high = std::max(high, speeds[r]);
    if (!in_plan) idle.push_back(r);
  }
  if (idle.empty() || planned.empty()) return {};
  const bool one = idle.size() == 1;
  const std::string of_fastest = " of the fastest planned rank's (" + number_text(fastest) + ")";
  const std::string speeds_text =
      slowest_idle == fastest_idle
          ? std::string(one ? "its" : "their") + " speed " + number_text(slowest_idle) + " is " +
                fraction_text(slowest_idle, fastest) + of_fastest
          : "their speeds " + number_text(slowest_idle) + " to " + number_text(fastest_idle) + " are " +
                fraction_text(slowest_idle, fastest) + " to " + fraction_text(fastest_idle, fastest) + of_fastest;
  IdleRanks result;
  result.slower_than_planned = fastest_idle < slowest;
  result.text = call + " is planned on " + (planned.size() == 1 ? "rank " : "ranks ") +
                ranks_text(planned, speeds.size()) + " and leaves " + (one ? "rank " : "ranks ") +
                rank_list_text(idle) + " idle: " + speeds_text + ", and the time model predicts the call faster without " +
                (one ? "it" : "them") + " (printed once; HETSCAL_VERBOSE=1 prints every plan)";
  return result;
}

std::string plan_description(const core::Candidate& chosen, double pattern_cost,
                             const std::vector<std::size_t>& ranks, double predicted_s,
                             std::size_t total_ranks) {
  char figures[96];
  if (chosen.kind == core::CandidateKind::Pattern) {
    std::snprintf(figures, sizeof figures, ": pattern %zux%zu (T %.3g)", chosen.rows, chosen.cols, pattern_cost);
  } else {
    std::snprintf(figures, sizeof figures, ": grid %zux%zu", chosen.rows, chosen.cols);
  }
  char predicted[48];
  std::snprintf(predicted, sizeof predicted, ", predicted %.3g s", predicted_s);
  return chosen.label + figures + ", tile " + std::to_string(chosen.tile) + ", ranks " +
         ranks_text(ranks, total_ranks) + predicted;
}

}  // namespace hetscal::runtime
