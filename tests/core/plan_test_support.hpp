#pragma once
/// @file plan_test_support.hpp
/// Helpers shared by the factorisation planners' tests.
#include <string>

#include "core/error.hpp"
#include "core/factorization_plan.hpp"

namespace hetscal::core {

/// The fastest candidate of `kind` the planner priced. @throws Error if it priced none.
template <typename Kind>
const PricedCandidate<Kind>& fastest_of(const PlanChoice<Kind>& choice, Kind kind) {
  const PricedCandidate<Kind>* best = nullptr;
  for (const auto& c : choice.priced)
    if (c.kind == kind && (best == nullptr || c.prediction.total_s() < best->prediction.total_s())) best = &c;
  if (best == nullptr) throw Error("no candidate of kind " + std::to_string(static_cast<int>(kind)) + " was priced");
  return *best;
}

}  // namespace hetscal::core
