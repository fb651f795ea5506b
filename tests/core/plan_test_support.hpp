#pragma once
/// @file plan_test_support.hpp
/// Helpers shared by the factorisation planners' tests.
#include <functional>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/planners/factorization_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// The fastest candidate of `kind` the planner priced. @throws Error if it priced none.
template <typename Kind>
const PricedCandidate<Kind>& fastest_of(const PlanChoice<Kind>& choice, Kind kind) {
  const PricedCandidate<Kind>* best = nullptr;
  for (const auto& c : choice.priced)
    if (c.priced && c.kind == kind && (best == nullptr || c.prediction.total_s() < best->prediction.total_s()))
      best = &c;
  if (best == nullptr) throw Error("no candidate of kind " + std::to_string(static_cast<int>(kind)) + " was priced");
  return *best;
}

/// Planner options (LuPlanOptions, CholeskyPlanOptions) with the full search: every candidate
/// priced, none pruned, for the tests that check every candidate.
template <typename Options>
Options exhaustive() {
  Options options;
  options.search.exhaustive = true;
  return options;
}

/// Processors of `speeds` flop/s, 5 µs latency, kernels at half speed on 16-tiles.
inline Platform planner_platform(const std::vector<double>& speeds, double bandwidth = 1.0e9,
                                 NetworkKind kind = NetworkKind::Switched, double memory = 1.0e12) {
  Platform p;
  for (double s : speeds) p.processors.push_back({s, memory});
  p.network = {5.0e-6, bandwidth, kind};
  p.kernel.half_tile = 16.0;
  return p;
}

/// The caller's p×q grid, ranks row-major, blocks of 64.
inline CallerLayout caller_grid(std::size_t p, std::size_t q) {
  CallerLayout caller{p, q, 64, {}};
  for (std::size_t r = 0; r < p * q; ++r) caller.processor_at.push_back(r);
  return caller;
}

/// The message of the InvalidArgument `call` throws, or "no InvalidArgument".
inline std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no InvalidArgument";
}

}  // namespace hetscal::core
