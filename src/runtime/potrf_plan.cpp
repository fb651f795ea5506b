#include "runtime/potrf_plan.hpp"

#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "layout/candidate_distribution.hpp"

namespace hetscal::runtime {
namespace {

// "0-5 of 6" when the ranks run on, "0,2,3 of 6" otherwise.
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

// "GCR&M 6: pattern 6x6 (T 3.50), tile 64, ranks 0-5 of 6, predicted 0.012 s".
std::string description_of(const core::CholeskyChoice& choice, std::size_t total_ranks) {
  const core::Candidate& c = choice.candidate;
  const bool pattern = c.kind == core::CandidateKind::Pattern;
  char figures[96];
  if (pattern) {
    std::snprintf(figures, sizeof figures, ": pattern %zux%zu (T %.3g)", c.rows, c.cols, choice.colrow_cost);
  } else {
    std::snprintf(figures, sizeof figures, ": grid %zux%zu", c.rows, c.cols);
  }
  char predicted[48];
  std::snprintf(predicted, sizeof predicted, ", predicted %.3g s", choice.predicted_s);
  return c.label + figures + ", tile " + std::to_string(choice.tile) + ", ranks " +
         ranks_text(choice.processors, total_ranks) + predicted;
}

}  // namespace

CholeskyLayout choose_cholesky_layout(const core::Platform& platform, const core::Problem& problem,
                                      const std::vector<core::CholeskyLayoutKind>& kinds) {
  const auto n = static_cast<std::int64_t>(problem.n);
  if (problem.routine != core::Routine::Cholesky || n < 1) {
    throw InvalidArgument("hetscal: a Cholesky layout needs a Cholesky problem of order >= 1");
  }
  core::CholeskyPlanOptions options;
  options.kinds = kinds;
  const core::CholeskyChoice choice = core::choose_cholesky_plan(platform, n, problem.caller, options);

  CholeskyLayout plan;
  plan.kind = choice.kind;
  plan.tile = static_cast<std::int64_t>(choice.tile);
  plan.candidate = choice.candidate;
  plan.ranks = choice.processors;
  plan.predicted_s = choice.predicted_s;
  plan.description = description_of(choice, platform.size());
  // The caller's layout is ScaLAPACK's own: nothing to build, the call is forwarded.
  if (!plan.keeps_caller_layout()) {
    plan.a = layout::distribution_of(choice.candidate, n, static_cast<int>(platform.size()));
  }
  return plan;
}

}  // namespace hetscal::runtime
