#include "runtime/plan_description.hpp"

#include <cstdio>

namespace hetscal::runtime {

std::string ranks_text(const std::vector<std::size_t>& ranks, std::size_t total) {
  const bool consecutive = !ranks.empty() && ranks.back() - ranks.front() + 1 == ranks.size();
  std::string text;
  if (consecutive && ranks.size() > 1) {
    text = std::to_string(ranks.front()) + "-" + std::to_string(ranks.back());
  } else {
    for (std::size_t i = 0; i < ranks.size(); ++i) text += (i ? "," : "") + std::to_string(ranks[i]);
  }
  return text + " of " + std::to_string(total);
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
