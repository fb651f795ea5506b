#pragma once
/// @file plan_description.hpp
/// What the runtime's factorisation layouts (CholeskyLayout, LuLayout) take from the core
/// planner's choice, the one line HETSCAL_VERBOSE prints for them, and the line that names
/// the ranks a plan leaves idle.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/planners/factorization_plan.hpp"

namespace hetscal::runtime {

/// "0-5", "0,2-3,7": increasing ranks, runs of consecutive ones as ranges.
std::string rank_list_text(const std::vector<std::size_t>& ranks);

/// rank_list_text and the context's size: "0-5 of 6", "0,2-3 of 6".
std::string ranks_text(const std::vector<std::size_t>& ranks, std::size_t total);

/// The ranks a plan leaves idle, told in one line.
struct IdleRanks {
  /// "PDGEMM 800x800x800 is planned on rank 0 of 2 and leaves rank 1 idle: its speed 1 is
  /// 1e-06 of the fastest planned rank's (1e+06), and the time model predicts the call faster
  /// without it (...)"; empty when the plan computes on every rank.
  std::string text;
  /// Every idle rank is slower than every planned one: the speeds' ratio left them idle, not
  /// only the call's size (a small call may use a few of equal ranks).
  bool slower_than_planned = false;
};

/// @param call the routine and shape, @param planned the ranks the plan computes on,
/// @param speeds the agreed speed of every rank of the context.
IdleRanks idle_ranks(const std::string& call, std::vector<std::size_t> planned, const std::vector<double>& speeds);

/// "GCR&M 6: pattern 6x6 (T 3.50), tile 64, ranks 0-5 of 6, predicted 0.012 s", or
/// "hetero 2x3: grid 2x3, …" for a grid.
/// @param total_ranks the ranks of the context.
template <typename Kind>
std::string plan_description(const core::PlanChoice<Kind>& choice, std::size_t total_ranks);

/// The same from the choice's fields.
std::string plan_description(const core::Candidate& chosen, double pattern_cost,
                             const std::vector<std::size_t>& ranks, double predicted_s,
                             std::size_t total_ranks);

template <typename Kind>
std::string plan_description(const core::PlanChoice<Kind>& choice, std::size_t total_ranks) {
  return plan_description(choice.candidate, choice.pattern_cost, choice.processors, choice.predicted_s,
                          total_ranks);
}

/// Copies the choice into a layout (CholeskyLayout, LuLayout): kind, tile, candidate, ranks,
/// predicted time and description; the distribution is the caller's to build.
template <typename Layout, typename Kind>
void adopt_choice(Layout& plan, const core::PlanChoice<Kind>& choice, std::size_t total_ranks) {
  plan.kind = choice.kind;
  plan.tile = static_cast<std::int64_t>(choice.tile);
  plan.candidate = choice.candidate;
  plan.ranks = choice.processors;
  plan.predicted_s = choice.predicted_s;
  plan.description = plan_description(choice, total_ranks);
}

}  // namespace hetscal::runtime
