#pragma once
/// @file plan_description.hpp
/// What the runtime's factorisation layouts (CholeskyLayout, LuLayout) take from the core
/// planner's choice, and the one line HETSCAL_VERBOSE prints for them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/planners/factorization_plan.hpp"

namespace hetscal::runtime {

/// "0-5 of 6" when the ranks run on, "0,2,3 of 6" otherwise.
std::string ranks_text(const std::vector<std::size_t>& ranks, std::size_t total);

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
